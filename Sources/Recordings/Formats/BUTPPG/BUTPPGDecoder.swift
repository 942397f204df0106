/// Decodes the BUT PPG export layout (`myData.csv`): one smartphone PPG recording per row, each
/// delivered as its own photoplethysmogram stream.
///
/// **Layout.** Space-separated text (LF or CRLF, plain or gzip) with the header
/// `ID RefHR Location Motion Quality Signal Time` (columns found by name); `Signal` and `Time`
/// are double-quoted, space-separated lists of equal length (300 values: 10 s at 30 Hz).
///
/// **Streams.** Row → stream key (device `but-ppg`, ``SensorKind/photoplethysmogram``, channel
/// `camera`, session = the record `ID`), one column `value` labelled
/// ``PhysicalUnit/dimensionless``. The values are delivered exactly as exported: per the
/// exporting repository's `loadData.m`, the first channel of the record's `_PPG` WFDB signal of
/// BUT PPG as read by `rdsamp` (a smartphone camera PPG — Xiaomi Mi9 or Huawei P20 Pro, finger on
/// the rear camera or ear on the front one); neither BUT PPG nor the export states a physical
/// unit, and the level and sign differ between records (in `myData.csv` the 48 first-version
/// records lie between −255 and −13, the 3 version-2.0 records between +158 and +255), so
/// analyses must use the waveform's shape, not its level. A value written `NaN`
/// (or `NA`, `null`) is kept as NaN flagged ``SampleFlags/missing``.
///
/// **Time.** Explicit per-sample times from the `Time` list, in seconds from the start of the
/// record (BUT PPG gives no absolute time: every stream starts at 0, ``TimeOrigin/streamStart``). The declared rate is
/// 30 Hz (``StreamInfo/nominalSampleRate``), but the export's time lists are not always on a
/// 1/30 s grid (for the first-version records they run 0 … 10 s in 299 equal steps of
/// 0.033445 s), which is why the listed times are kept rather than a grid.
///
/// **Attributes.** `butppg.RefHR` (reference heart rate from the simultaneous ECG, bpm, as
/// written), `butppg.Location`, `butppg.Motion`, `butppg.Quality` (codes as written) with
/// `….meaning` where the code is known (``BUTPPGLabels``).
///
/// **Bad rows** (recoverable, reported as issues): a row that cannot be split (a quote never
/// closed on its line, text after a closing quote), has another number of fields than the
/// header, or repeats an earlier record `ID` is skipped and counted in ``rejectedRows`` (no
/// stream). A row whose `Signal` and `Time` lists differ in length is announced and all its
/// samples are rejected (which value belongs to which time is unknown). A value or time that is
/// not a number rejects that one sample, and the next sample starts a new segment (counted as a
/// gap); a time that does not increase starts a new segment (``StreamQC/backwardSteps``).
/// **Fatal:** an empty file, a header row lacking one of the seven columns.
///
/// Source: Nemcova A., Vargova E., Smisek R., Marsanova L., Smital L., Vitek M., "Brno
/// University of Technology Smartphone PPG Database (BUT PPG): Annotated Dataset for PPG Quality
/// Assessment and Heart Rate Estimation", BioMed Research International 2021:3453007,
/// doi:10.1155/2021/3453007; PhysioNet, doi:10.13026/tn53-8153 (CC BY 4.0).
public final class BUTPPGDecoder: RecordingDecoder {
    /// The file being decoded, as given by the caller.
    public let path: String
    /// Always ``RecordingFormat/butPPG``.
    public var format: RecordingFormat { .butPPG }
    /// Streams announced so far (one per accepted row).
    public private(set) var streams: [StreamInfo] = []
    /// QC account per announced stream.
    public private(set) var accounts: [StreamQC] = []
    /// Rows skipped before their stream could be announced (unsplittable, wrong field count,
    /// repeated record ID); each is reported as an issue.
    public private(set) var rejectedRows = 0
    /// Samples of the rejected rows (``rejectedRows``), which belong to no announced stream: per
    /// row, the tokens of its longest quoted list (the Signal and Time lists have one token per
    /// sample); a row whose only list is unclosed holds both lists run together, so half of the
    /// tokens to the end of the line (rounded up); at least 1.
    public private(set) var rejectedSamplesWithoutStream = 0
    /// Column names of the header row.
    public let columnNames: [String]

    /// Device identifier of every stream.
    public static let deviceID = "but-ppg"
    /// Sample rate BUT PPG declares for its smartphone PPG, in Hz.
    public static let declaredSampleRate = 30.0
    /// The columns the header must hold.
    public static let requiredColumns = ["ID", "RefHR", "Location", "Motion", "Quality", "Signal", "Time"]

    let lines: LineReader
    let blockCapacity: Int
    /// Field index of each required column, in ``requiredColumns`` order.
    let columnIndex: [Int]
    var splitter = BUTPPGRowSplitter()
    var firstLineOfID: [String: Int] = [:]
    var pending = EventQueue()
    var started = false
    var finished = false
    var valueTokens: [Range<Int>] = []
    var timeTokens: [Range<Int>] = []

    /// Opens `path` and reads its header row.
    /// - Parameters:
    ///   - path: the export (plain or gzip-compressed).
    ///   - blockCapacity: maximum samples per delivered block (default 65,536).
    /// - Throws: ``RecordingError`` `.empty` (no bytes), `.syntax` (a quote never closed in the
    ///   header), `.missingField` (a required column absent from the header), `.unreadable`.
    /// - Complexity: O(header length).
    public init(path: String, blockCapacity: Int = 65_536) throws(RecordingError) {
        precondition(blockCapacity > 0, "block capacity must be positive")
        self.path = path
        self.blockCapacity = blockCapacity
        lines = LineReader(source: try ByteSource(path: path))
        guard let header = try lines.nextLine() else {
            throw RecordingError(.empty, file: path, "the file is empty")
        }
        var names = [String]()
        var failure: BUTPPGRowSplitter.Failure?
        var headerSplitter = BUTPPGRowSplitter()
        lines.buffer.withUnsafeBufferPointer { buf in
            var line = UnsafeBufferPointer(rebasing: buf[header])
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = UnsafeBufferPointer(rebasing: line[3...]) }
            failure = headerSplitter.split(line)
            names = headerSplitter.fields.map { String(decoding: line[$0], as: UTF8.self) }
        }
        if case .unterminatedQuote(let c)? = failure {
            throw RecordingError(.syntax, file: path, line: 1, column: c + 1, "quote never closed in the header row")
        }
        columnNames = names
        let missing = Self.requiredColumns.filter { !names.contains($0) }
        guard missing.isEmpty else {
            throw RecordingError(
                .missingField, file: path, line: 1, column: 1,
                "the header row lacks column(s) " + missing.joined(separator: ", ")
                    + " (expected '" + Self.requiredColumns.joined(separator: " ") + "')")
        }
        columnIndex = Self.requiredColumns.map { names.firstIndex(of: $0)! }
    }

    /// The next event: the device first, then per row its stream, blocks and issues, and `nil`
    /// at the end.
    /// - Throws: ``RecordingError`` for I/O or decompression failures.
    /// - Complexity: O(row length) per row.
    public func next() throws(RecordingError) -> RecordingEvent? {
        if !started {
            started = true
            pending.append(
                .device(
                    DeviceInfo(
                        id: Self.deviceID, name: "BUT PPG smartphone camera",
                        model: "Xiaomi Mi9 / Huawei P20 Pro")))
        }
        while true {
            if let e = try pending.next() { return e }
            if finished { return nil }
            guard let r = try lines.nextLine() else {
                finished = true
                return nil
            }
            let number = lines.lineNumber
            lines.buffer.withUnsafeBufferPointer { buf in
                row(UnsafeBufferPointer(rebasing: buf[r]), line: number)
            }
        }
    }

    func issue(_ code: RecordingError.Code, line: Int, column: Int, _ message: String) {
        pending.append(.issue(RecordingError(code, file: path, line: line, column: column, message)))
    }

    /// Counts a rejected row and its samples (see ``rejectedSamplesWithoutStream``).
    func rejectRow(_ line: UnsafeBufferPointer<UInt8>) {
        rejectedRows += 1
        var most = 0, i = 0, closedLists = 0
        let n = line.count
        while i < n {
            guard line[i] == 0x22 else { i += 1; continue }
            var j = i + 1
            while j < n && line[j] != 0x22 { j += 1 }
            BUTPPGRowSplitter.tokens(of: line, in: (i + 1)..<j, into: &valueTokens)
            if j < n {
                closedLists += 1
                most = max(most, valueTokens.count)
            } else if closedLists == 0 {
                most = (valueTokens.count + 1) / 2
            }
            i = j + 1
        }
        rejectedSamplesWithoutStream += max(most, 1)
    }

    /// Decodes one row.
    func row(_ line: UnsafeBufferPointer<UInt8>, line number: Int) {
        if line.allSatisfy(BUTPPGRowSplitter.isSeparator) { return }
        if let failure = splitter.split(line) {
            rejectRow(line)
            switch failure {
            case .unterminatedQuote(let c):
                issue(
                    .syntax, line: number, column: c + 1,
                    "a double quote opens a field that is not closed on this line; row skipped")
            case .textAfterQuote(let c):
                issue(.syntax, line: number, column: c + 1, "text after a closing quote; row skipped")
            }
            return
        }
        let fields = splitter.fields
        guard fields.count == columnNames.count else {
            rejectRow(line)
            issue(
                .syntax, line: number, column: 1,
                "the row has \(fields.count) fields, the header \(columnNames.count); row skipped")
            return
        }
        func text(_ k: Int) -> String { String(decoding: line[fields[columnIndex[k]]], as: UTF8.self) }
        let id = text(0)
        if let first = firstLineOfID[id] {
            rejectRow(line)
            issue(
                .inconsistent, line: number, column: fields[columnIndex[0]].lowerBound + 1,
                "record ID \(id) already appeared on line \(first); row skipped")
            return
        }
        firstLineOfID[id] = number
        var attributes = [
            "butppg.record": id, "butppg.RefHR": text(1), "butppg.RefHR.unit": "bpm",
            "butppg.Location": text(2), "butppg.Motion": text(3), "butppg.Quality": text(4),
            "butppg.timeOrigin": "recordStart",
        ]
        attributes["butppg.Location.meaning"] = BUTPPGLabels.location(text(2))
        attributes["butppg.Motion.meaning"] = BUTPPGLabels.motion(text(3))
        attributes["butppg.Quality.meaning"] = BUTPPGLabels.quality(text(4))
        let info = StreamInfo(
            key: StreamKey(deviceID: Self.deviceID, sensor: .photoplethysmogram, channel: "camera", session: id),
            columns: [ColumnInfo(name: "value", unit: .dimensionless)],
            nominalSampleRate: Self.declaredSampleRate, attributes: attributes, timeOrigin: .streamStart)
        let stream = streams.count
        streams.append(info)
        pending.append(.stream(index: streams.count - 1, info: info))

        var assembler = StreamAssembler(stream: stream, columnCount: 1, uniform: false, blockCapacity: blockCapacity)
        var events = [RecordingEvent]()
        pending.withEvents { swap(&events, &$0) }
        var values = valueTokens, times = timeTokens
        defer {
            pending.withEvents { swap(&events, &$0) }
            valueTokens = values
            timeTokens = times
            accounts.append(assembler.qc)
        }
        let signalField = fields[columnIndex[5]], timeField = fields[columnIndex[6]]
        BUTPPGRowSplitter.tokens(of: line, in: signalField, into: &values)
        BUTPPGRowSplitter.tokens(of: line, in: timeField, into: &times)
        guard values.count == times.count else {
            let n = max(values.count, times.count)
            assembler.qc.samplesRead = n
            assembler.qc.rejected = n
            events.append(
                .issue(
                    RecordingError(
                        .inconsistent, file: path, line: number, column: signalField.lowerBound + 1,
                        "record \(id): Signal has \(values.count) values but Time has \(times.count); "
                            + "the record's \(n) samples are rejected")))
            return
        }
        assembler.qc.samplesRead = values.count
        var previous = -Double.infinity
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 1) { v in
            for i in values.indices {
                let tr = times[i], vr = values[i]
                let tToken = UnsafeBufferPointer(rebasing: line[tr])
                let vToken = UnsafeBufferPointer(rebasing: line[vr])
                guard let t = DecimalNumber.parse(tToken, separators: .point) else {
                    assembler.qc.rejected += 1
                    assembler.markGap()
                    events.append(
                        .issue(
                            RecordingError(
                                .wrongType, file: path, line: number, column: tr.lowerBound + 1,
                                "record \(id): Time value \(i + 1) '\(String(decoding: tToken, as: UTF8.self))' is not "
                                    + "a number (seconds); sample rejected")))
                    continue
                }
                var flags: SampleFlags = []
                if let x = DecimalNumber.parse(vToken, separators: .point) {
                    v[0] = Float(x)
                } else if DecimalNumber.isMissing(vToken) {
                    v[0] = .nan
                    flags = .missing
                } else {
                    assembler.qc.rejected += 1
                    assembler.markGap()
                    events.append(
                        .issue(
                            RecordingError(
                                .wrongType, file: path, line: number, column: vr.lowerBound + 1,
                                "record \(id): Signal value \(i + 1) '\(String(decoding: vToken, as: UTF8.self))' is not "
                                    + "a number; sample rejected")))
                    continue
                }
                if !(t > previous) && previous > -Double.infinity {
                    events.append(
                        .issue(
                            RecordingError(
                                .timeOrder, file: path, line: number, column: tr.lowerBound + 1,
                                "record \(id): Time value \(i + 1) (\(t) s) is not after the previous one (\(previous) s); "
                                    + "a new segment starts")))
                }
                previous = t
                assembler.append(
                    time: t, values: UnsafeBufferPointer(v), flags: flags,
                    declaredRate: Self.declaredSampleRate, into: &events)
            }
        }
        assembler.finish(into: &events)
    }
}
