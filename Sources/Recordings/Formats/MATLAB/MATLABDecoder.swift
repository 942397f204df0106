/// Decodes numeric channels from a MATLAB Level 5 MAT-file, as stated by a
/// ``MATLABChannelMapping``, with its own reader (no libmatio).
///
/// Supported: the 128-byte Level 5 header in either byte order ("IM" little-endian, "MI"
/// big-endian: values are byte-swapped); top-level `miMATRIX` elements, plain or inside
/// `miCOMPRESSED` (zlib, RFC 1950) elements as MATLAB ≥ 7 writes by default; real 2-D numeric
/// arrays of every class (double, single, int8…uint64, logical) whose data may be stored in a
/// smaller type than the class (MATLAB stores integer-valued doubles as `miUINT8`, `miINT16`, …)
/// or in the small data element format. Not supported (clear errors when mapped): complex,
/// sparse, char, cell, struct and object arrays, arrays with more than two non-singleton
/// dimensions, Level 4 and v7.3 (HDF5) files.
/// Format: The MathWorks, Inc., "MAT-File Format", Level 5 (see ``MATFile``).
///
/// Streams are regularly sampled (uniform time base at the mapping's rate from its start time;
/// from 0 with ``TimeOrigin/streamStart`` when the mapping gives none, as a MAT-file holds no
/// clock time).
/// NaN values become NaN samples flagged ``SampleFlags/missing``. Reading is streamed: each
/// variable's data are inflated and converted in chunks of 4096 samples, so memory is bounded by
/// the block size and the number of mapped sources, never by the recording length (a
/// channels-in-columns variable is read with one cursor per mapped column).
public final class MATLABDecoder: RecordingDecoder {
    /// The file being decoded.
    public let path: String
    /// Always ``RecordingFormat/matlab``.
    public var format: RecordingFormat { .matlab }
    /// Streams announced so far.
    public private(set) var streams: [StreamInfo] = []
    /// QC account per announced stream.
    public var accounts: [StreamQC] { Array(plans.prefix(streams.count).map(\.assembler.qc)) }
    /// The mapping in use.
    public let mapping: MATLABChannelMapping
    /// Names, classes and shapes of the file's top-level variables, e.g. `"sig: double 6×37937"`.
    public var variableSummaries: [String] {
        file.variables.map { "\($0.name): \($0.arrayClass?.name ?? "class \($0.classCode)") \($0.shapeDescription)" }
    }

    private struct ColumnPlan {
        var reader: Int
        var offsetInFrame: Int
    }

    private struct StreamPlan {
        var info: StreamInfo
        var columns: [ColumnPlan]
        var sampleCount: Int
        var sampleRate: Double
        var startUnix: Double
        var assembler: StreamAssembler
        var delivered = 0
    }

    private let file: MATFile
    private var readers: [MATFrameReader] = []
    private var plans: [StreamPlan] = []
    private var pending = EventQueue()
    private var announced = false
    private var finished = false
    private var columnScratch: [[Float]] = []
    private var flagScratch: [UInt8] = []
    private static let chunkFrames = 4096

    /// Opens `path`, checks its header, lists its variables and resolves the mapping.
    /// - Parameters:
    ///   - path: the MAT-file.
    ///   - mapping: which variables' rows/columns are which streams.
    ///   - blockCapacity: maximum samples per block (default 65,536).
    /// - Throws: ``RecordingError``: `.empty`, `.truncated`, `.unknownFormat` (not Level 5),
    ///   `.unsupportedVersion` (v7.3), `.missingField` (a mapped variable is absent),
    ///   `.wrongType` (not a real numeric matrix), `.outOfRange` (index beyond the array),
    ///   `.inconsistent` (columns of one stream of different lengths, data size ≠ dimensions).
    /// - Complexity: reads the header and the first bytes of every top-level element.
    public init(path: String, mapping: MATLABChannelMapping, blockCapacity: Int = 65_536) throws(RecordingError) {
        precondition(blockCapacity > 0, "block capacity must be positive")
        self.path = path
        self.mapping = mapping
        file = try MATFile(path: path)
        var readerKeys = [String: Int]()
        for (s, stream) in mapping.streams.enumerated() {
            var columns = [ColumnPlan]()
            var count: Int?
            var attributes = stream.attributes
            attributes["matlab.header"] = file.headerText
            for column in stream.columns {
                let v = try resolve(column.source)
                let (rows, cols) = (v.dimensions[0], v.dimensions[1])
                let n: Int, key: String, reader: MATFrameReader?
                switch column.source {
                case .row(let name, let i):
                    guard i < rows else {
                        throw RecordingError(
                            .outOfRange, file: path, byteOffset: v.elementOffset,
                            "row \(i + 1) of '\(name)' requested, but '\(name)' is \(v.shapeDescription)")
                    }
                    n = cols
                    key = "row:" + name
                    reader =
                        readerKeys[key] == nil
                        ? try MATFrameReader(
                            file: file, variable: v, type: v.dataType!, firstValue: 0,
                            frameLength: rows, totalFrames: cols) : nil
                    columns.append(ColumnPlan(reader: readerKeys[key] ?? readers.count, offsetInFrame: i))
                case .column(let name, let i):
                    guard i < cols else {
                        throw RecordingError(
                            .outOfRange, file: path, byteOffset: v.elementOffset,
                            "column \(i + 1) of '\(name)' requested, but '\(name)' is \(v.shapeDescription)")
                    }
                    n = rows
                    key = "column:\(name):\(i)"
                    reader =
                        readerKeys[key] == nil
                        ? try MATFrameReader(
                            file: file, variable: v, type: v.dataType!, firstValue: i * rows,
                            frameLength: 1, totalFrames: rows) : nil
                    columns.append(ColumnPlan(reader: readerKeys[key] ?? readers.count, offsetInFrame: 0))
                }
                if let reader {
                    readerKeys[key] = readers.count
                    readers.append(reader)
                }
                attributes["matlab.\(column.name)"] = column.source.description
                if let count, count != n {
                    throw RecordingError(
                        .inconsistent, file: path, byteOffset: v.elementOffset,
                        "stream '\(stream.channel)': column '\(column.name)' (\(column.source)) has \(n) "
                            + "samples, but earlier columns have \(count)")
                }
                count = n
            }
            let info = StreamInfo(
                key: StreamKey(deviceID: mapping.deviceID, sensor: stream.sensor, channel: stream.channel),
                columns: stream.columns.map { ColumnInfo(name: $0.name, unit: $0.unit) },
                nominalSampleRate: stream.sampleRate, attributes: attributes,
                timeOrigin: stream.startUnix == nil ? .streamStart : .unix)
            plans.append(
                StreamPlan(
                    info: info, columns: columns, sampleCount: count ?? 0,
                    sampleRate: stream.sampleRate, startUnix: stream.startUnix ?? 0,
                    assembler: StreamAssembler(
                        stream: s, columnCount: columns.count, uniform: true,
                        blockCapacity: blockCapacity)))
        }
    }

    /// Finds a mapped variable and checks that it is a real 2-D numeric array whose data match
    /// its dimensions.
    private func resolve(_ source: MATLABChannelMapping.Source) throws(RecordingError) -> MATVariable {
        let name = source.variable
        guard let v = file.variables.first(where: { $0.name == name }) else {
            let found = file.variables.map { "'\($0.name)' (\($0.shapeDescription))" }.joined(separator: ", ")
            throw RecordingError(
                .missingField, file: path,
                "no variable '\(name)' in the file; it holds " + (found.isEmpty ? "no variables" : found))
        }
        func wrong(_ message: String) -> RecordingError {
            RecordingError(.wrongType, file: path, byteOffset: v.elementOffset, "variable '\(name)' \(message)")
        }
        guard let cls = v.arrayClass else { throw wrong("has unknown array class \(v.classCode)") }
        guard cls.isNumeric else {
            throw wrong("is a \(cls.name) array; expected a real numeric matrix (double, single, int8…uint64, logical)")
        }
        guard !v.isComplex else { throw wrong("is complex; only real arrays are supported") }
        guard v.dimensions.dropFirst(2).allSatisfy({ $0 == 1 }) else {
            throw wrong("is \(v.shapeDescription); only 2-D arrays are supported")
        }
        guard let count = v.elementCount else {
            throw RecordingError(
                .inconsistent, file: path, byteOffset: v.elementOffset,
                "variable '\(name)' has impossible dimensions \(v.shapeDescription)")
        }
        guard count > 0 else {
            throw RecordingError(
                .empty, file: path, byteOffset: v.elementOffset,
                "variable '\(name)' is empty (\(v.shapeDescription))")
        }
        guard let type = v.dataType, let size = type.numericSize else {
            throw RecordingError(
                .syntax, file: path, byteOffset: v.elementOffset,
                "variable '\(name)': real part has data type \(v.dataType?.documentName ?? "unknown"); "
                    + "expected a numeric type (miINT8 … miUINT64, miSINGLE, miDOUBLE)")
        }
        let (expectedBytes, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow, v.dataBytes == expectedBytes else {
            throw RecordingError(
                .inconsistent, file: path, byteOffset: v.elementOffset,
                "variable '\(name)' is \(v.shapeDescription) (\(count) values) but its real part "
                    + "holds \(v.dataBytes) bytes of \(type.documentName) (\(expectedBytes) expected)")
        }
        return v
    }

    /// The next event: the device, then the streams, then blocks of all streams in chunks of
    /// 4096 samples, interleaved.
    /// - Throws: ``RecordingError`` `.truncated` or `.syntax` if a variable's data end early or
    ///   its compressed stream is corrupt.
    /// - Complexity: amortised O(1) per sample and column.
    public func next() throws(RecordingError) -> RecordingEvent? {
        while true {
            if let e = try pending.next() { return e }
            if finished { return nil }
            if !announced {
                announced = true
                pending.append(.device(DeviceInfo(id: mapping.deviceID)))
                for p in plans {
                    streams.append(p.info)
                    pending.append(.stream(index: streams.count - 1, info: p.info))
                }
                continue
            }
            try step()
        }
    }

    /// Reads one chunk from every reader and hands each stream its samples.
    private func step() throws(RecordingError) {
        var frames = [Int](repeating: 0, count: readers.count)
        for r in readers.indices { frames[r] = try readers[r].readChunk(maxFrames: Self.chunkFrames) }
        var any = false
        for s in plans.indices {
            let n = plans[s].columns.first.map { frames[$0.reader] } ?? 0
            guard n > 0 else { continue }
            any = true
            let columnCount = plans[s].columns.count
            while columnScratch.count < columnCount { columnScratch.append([]) }
            if flagScratch.count < n { flagScratch = [UInt8](repeating: 0, count: n) }
            var hasMissing = false
            for (c, plan) in plans[s].columns.enumerated() {
                let reader = readers[plan.reader]
                if columnScratch[c].count < n { columnScratch[c] = [Float](repeating: 0, count: n) }
                let stride = reader.frameLength, offset = plan.offsetInFrame
                reader.values.withUnsafeBufferPointer { src in
                    columnScratch[c].withUnsafeMutableBufferPointer { dst in
                        for k in 0..<n { dst[k] = src[k * stride + offset] }
                    }
                }
                if columnScratch[c].withUnsafeBufferPointer({ $0[0..<n].contains { $0.isNaN } }) { hasMissing = true }
            }
            let start = plans[s].startUnix + Double(plans[s].delivered) / plans[s].sampleRate
            if hasMissing {
                for k in 0..<n {
                    var missing = false
                    for c in 0..<columnCount where columnScratch[c][k].isNaN { missing = true }
                    flagScratch[k] = missing ? SampleFlags.missing.rawValue : 0
                }
            }
            plans[s].assembler.qc.samplesRead += n
            appendRun(stream: s, start: start, count: n, columnCount: columnCount, flagged: hasMissing)
            plans[s].delivered += n
        }
        if !any {
            pending.withEvents { events in
                for s in plans.indices { plans[s].assembler.finish(into: &events) }
            }
            finished = true
        }
    }

    private func appendRun(stream s: Int, start: Double, count n: Int, columnCount: Int, flagged: Bool) {
        let rate = plans[s].sampleRate
        var pointers = [UnsafeBufferPointer<Float>]()
        pointers.reserveCapacity(columnCount)
        func go(_ c: Int) {
            if c == columnCount {
                if flagged {
                    flagScratch.withUnsafeBufferPointer { f in
                        pending.withEvents {
                            plans[s].assembler.appendRun(
                                start: start, sampleRate: rate, columns: pointers,
                                flags: UnsafeBufferPointer(rebasing: f[0..<n]), into: &$0)
                        }
                    }
                } else {
                    pending.withEvents {
                        plans[s].assembler.appendRun(
                            start: start, sampleRate: rate, columns: pointers, flags: nil,
                            into: &$0)
                    }
                }
                return
            }
            columnScratch[c].withUnsafeBufferPointer { b in
                pointers.append(UnsafeBufferPointer(rebasing: b[0..<n]))
                go(c + 1)
            }
        }
        go(0)
    }
}
