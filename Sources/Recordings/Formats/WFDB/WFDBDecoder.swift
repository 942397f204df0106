#if canImport(Glibc)
    import Glibc
#endif

/// Decodes a PhysioNet WFDB record — a header (`.hea`) and its signal files (`.dat`, plain or
/// gzip) — into one uniformly sampled stream per signal, streaming with memory bounded by the
/// read size and the block size.
///
/// - **Streams.** One per signal that `sensor` classifies (by default ECG leads and other
///   voltage signals → ``SensorKind/electrocardiogram``, `PLETH`/`PPG` →
///   ``SensorKind/photoplethysmogram``; other signals are decoded and checked but not
///   delivered, which an `.issue` reports). Key: device = record name, channel = the signal
///   description (`signal n` when absent; `description #n` when two signals share one). One
///   column `value`; the header's attributes are kept in ``StreamInfo/attributes`` (`wfdb.*`).
/// - **Units.** Physical value = (adu − baseline) / gain (header(5); gain 200 adu/unit when the
///   header gives 0). Voltages are delivered in **µV** (``PhysicalUnit/microvolts``), the unit of
///   SensorKit ECG, so WFDB and Apple Watch ECG streams are interchangeable downstream; other
///   units are delivered as written, labelled ``PhysicalUnit/dimensionless``, with the WFDB unit
///   in `wfdb.units`.
/// - **Time.** Uniform at the record's frequency × the signal's samples per frame. Sample 0 is at
///   the header's base date and time as Unix seconds (UTC assumed) when both are given; otherwise
///   at 0, i.e. times are seconds from the start of the record (``StreamInfo/timeOrigin`` is
///   ``TimeOrigin/unix`` or ``TimeOrigin/streamStart``; `wfdb.timeOrigin` says the same).
/// - **Invalid samples** (the format's `WFDB_INVALID_SAMPLE` code) are NaN flagged
///   ``SampleFlags/missing``. A skewed signal (`:skew`) starts `skew` samples into its file;
///   samples it lacks at the end of the file are delivered as missing too.
/// - **Checks.** The first sample and the 16-bit checksum of every signal are compared with the
///   header (``signalStats``), bytes beyond the declared frames are counted, and specification
///   lines beyond the declared signal count are noticed. Each is an integrity failure
///   (`inconsistent`, naming the file and byte offset or line): with `verifiesIntegrity` (the
///   default) the first fails the record — thrown after its samples are delivered, or at once
///   for the header — and the others are issues; without it, all are `.issue`s. A signal file
///   shorter than the header's sample count is a `truncated` error naming the file and the byte
///   offset where it ends (thrown after the data before it).
/// - **Limits.** Rates, samples per frame, signals and the header's size are range-checked
///   where they are read (``InputLimits``); a byte offset is skipped by reading in bounded
///   chunks, never allocated; declared sizes that no file could hold are `out-of-range`.
/// - **Not decoded:** multi-segment records, null signals (format 0) and FLAC formats
///   (508/516/524): a `.unsupported` error naming the header line. Signal files may be plain,
///   gzip or xz (``ByteSource``).
///
/// Source: PhysioNet WFDB Applications Guide, header(5) and signal(5) (G. B. Moody); Goldberger
/// A. L. et al., PhysioBank, PhysioToolkit, and PhysioNet, Circulation 101(23):e215–e220, 2000,
/// doi:10.1161/01.CIR.101.23.e215.
public final class WFDBDecoder: RecordingDecoder {
    /// The header path, as given by the caller.
    public let path: String
    /// Always ``RecordingFormat/wfdb``.
    public var format: RecordingFormat { .wfdb }
    /// The record's header.
    public let header: WFDBHeader
    /// Streams announced so far.
    public private(set) var streams: [StreamInfo] = []
    /// QC account per announced stream.
    public var accounts: [StreamQC] { assemblers.map(\.qc) }
    /// Per header signal: samples decoded, invalid samples, first value, checksum and whether
    /// they match the header (final once ``next()`` has returned `nil`).
    public private(set) var signalStats: [WFDBSignalStats]

    struct Group {
        var signals: Range<Int>
        var path: String
        var source: ByteSource
        var decoder: WFDBFrameDecoder
        var raw: [UInt8] = []
        var dataStart: Int
    }

    var groups: [Group] = []
    var streamOfSignal: [Int?]
    var assemblers: [StreamAssembler] = []
    // Scratch for one read, per signal (owned; freed in deinit).
    var columns: [UnsafeMutableBufferPointer<Float>]
    var flagColumns: [UnsafeMutableBufferPointer<UInt8>]
    var leftover: [Int] = []
    var chunkHasInvalid: [Bool]
    var emittedFrames: [Int]
    var pending = EventQueue()
    var started = false
    var finished = false
    var framesRead = 0
    let framesPerRead: Int
    let blockCapacity: Int
    let startTime: Double
    let maxSkew: Int
    let sensorOf: [SensorKind?]
    let unitScale: [Double]
    let verifiesIntegrity: Bool
    /// The first integrity failure, thrown at the end when ``verifiesIntegrity``.
    var integrityFailure: RecordingError?

    /// The default signal classifier: PPG for descriptions containing `PLETH` or `PPG`; ECG for
    /// voltage units (`mV`, `uV`, `µV`, `V`, `nV`; absent units mean mV) unless the description
    /// names a non-cardiac biopotential (EEG, EOG, EMG); otherwise `nil` (not delivered).
    /// - Parameter spec: the signal's header specification.
    /// - Returns: the sensor kind, or `nil` to skip the signal.
    /// - Complexity: O(description length).
    public static func defaultSensor(for spec: WFDBSignalSpec) -> SensorKind? {
        let d = spec.description.uppercased()
        if d.contains("PLETH") || d.contains("PPG") { return .photoplethysmogram }
        guard voltageScale(spec.units) != nil else { return nil }
        for other in ["EEG", "EOG", "EMG"] where d.contains(other) { return nil }
        return .electrocardiogram
    }

    /// Factor from the WFDB unit to µV, or `nil` for a non-voltage unit.
    static func voltageScale(_ units: String) -> Double? {
        switch units {
        case "mV", "mv", "MV": return 1000
        case "uV", "uv", "µV", "μV", "UV": return 1
        case "V", "v": return 1_000_000
        case "nV", "nv": return 0.001
        default: return nil
        }
    }

    /// Opens a record.
    /// - Parameters:
    ///   - path: the header file (`NAME.hea`, `NAME.hea.gz`, or `NAME` when `NAME.hea` exists).
    ///     Signal files are found relative to the header's directory; `X.dat.gz` or `X.dat.xz`
    ///     is used when `X.dat` is absent.
    ///   - blockCapacity: maximum samples per delivered block (default 65,536).
    ///   - framesPerRead: frames read from the signal files at a time (default 16,380; rounded
    ///     down to a multiple of 6, at least 6). Memory is O(framesPerRead × signals).
    ///   - sensor: classifies each signal; `nil` skips it (default ``defaultSensor(for:)``).
    ///   - verifiesIntegrity: whether a checksum, first-value or size mismatch between header and
    ///     data fails the record (default `true`) or is only reported as an issue.
    /// - Throws: ``RecordingError`` for an unreadable or malformed header (file, line, column),
    ///   a missing signal file, an unsupported format or record kind, a byte offset beyond
    ///   the end of its file, or (verifying) more specification lines than declared signals.
    /// - Complexity: O(header size + signals).
    public init(
        path: String, blockCapacity: Int = 65_536, framesPerRead: Int = 16_380,
        sensor: (WFDBSignalSpec) -> SensorKind? = WFDBDecoder.defaultSensor,
        verifiesIntegrity: Bool = true
    ) throws(RecordingError) {
        precondition(blockCapacity > 0 && framesPerRead > 0)
        self.verifiesIntegrity = verifiesIntegrity
        var headerPath = path
        if !Self.exists(path) && Self.exists(path + ".hea") { headerPath = path + ".hea" }
        self.path = path
        self.blockCapacity = blockCapacity
        let h = try WFDBHeader.read(path: headerPath)
        header = h
        // Memory per read is O(frames × samples per frame summed over the signals): bound it to
        // about 2^20 samples however many samples per frame the header declares.
        let samplesPerFrame = h.signals.reduce(0) { $0 + $1.samplesPerFrame }
        let perRead = max(6, min(framesPerRead, (1 << 20) / max(samplesPerFrame, 1)) / 6 * 6)
        self.framesPerRead = perRead
        if let n = h.segmentCount {
            throw RecordingError(
                .unsupported, file: headerPath, line: h.recordLine, column: 1,
                "multi-segment records (\(n) segments) are not decoded; decode each "
                    + "segment's own header (\(h.segments.first?.recordName ?? "…").hea, …) instead")
        }
        for (i, s) in h.signals.enumerated() where !WFDBFrameDecoder.supportedFormats.contains(s.format) {
            let what = s.format == 0 ? "null signals (format 0)" : "FLAC-compressed signal files (format \(s.format))"
            throw RecordingError(
                .unsupported, file: headerPath, line: s.line, column: 1,
                "signal \(i): \(what) are not decoded")
        }
        // Sizes no file can have (the byte counts below must not overflow).
        let limit = 1 << 53
        for (i, s) in h.signals.enumerated() {
            let (frames, o1) = (h.samplesPerSignal ?? 0).addingReportingOverflow(s.skew)
            let (bytes, o2) = frames.multipliedReportingOverflow(by: 4 * max(samplesPerFrame, 1))
            guard s.byteOffset < limit, s.skew < limit, !o1, !o2, bytes < limit else {
                throw RecordingError(
                    .outOfRange, file: headerPath, line: s.line, column: 1,
                    "signal \(i): the byte offset \(s.byteOffset), skew \(s.skew) or the "
                        + "\(h.samplesPerSignal ?? 0) samples declared (line \(h.recordLine)) describe "
                        + "more than 2^53 bytes; no signal file is that large")
            }
        }
        var headerIssue: RecordingError?
        if let first = h.extraSpecificationLines.first {
            let lines = h.extraSpecificationLines
            let e = RecordingError(
                .inconsistent, file: headerPath, line: first, column: 1,
                "the record line (line \(h.recordLine)) declares \(h.signalCount) signal"
                    + (h.signalCount == 1 ? "" : "s") + " but \(lines.count) more specification "
                    + "line\(lines.count == 1 ? "" : "s") follow (line\(lines.count == 1 ? "" : "s") "
                    + lines.map(String.init).joined(separator: ", ") + ")")
            if verifiesIntegrity { throw e }
            headerIssue = e
        }
        startTime = h.startUnixSeconds ?? 0
        maxSkew = h.signals.map(\.skew).max() ?? 0
        signalStats = h.signals.indices.map { WFDBSignalStats(signal: $0) }
        sensorOf = h.signals.map(sensor)
        unitScale = h.signals.map { Self.voltageScale($0.units) ?? 1 }
        streamOfSignal = Array(repeating: nil, count: h.signals.count)
        columns = h.signals.map { spec in
            let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: spec.samplesPerFrame * perRead)
            b.initialize(repeating: 0)
            return b
        }
        flagColumns = h.signals.map { spec in
            let b = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: spec.samplesPerFrame * perRead)
            b.initialize(repeating: 0)
            return b
        }
        emittedFrames = Array(repeating: 0, count: h.signals.count)
        chunkHasInvalid = Array(repeating: true, count: h.signals.count)

        let directory = Self.directory(of: headerPath)
        var i = 0
        while i < h.signals.count {
            var j = i + 1
            while j < h.signals.count && h.signals[j].fileName == h.signals[i].fileName { j += 1 }
            let spec = h.signals[i]
            let file = try Self.signalFile(of: i, in: h, directory: directory, headerPath: headerPath)
            // 64 KiB per signal file: a header may name many files.
            let source = try ByteSource(path: file, chunkSize: 1 << 16)
            let decoder = WFDBFrameDecoder(
                signals: Array(h.signals[i..<j]), outputScale: Array(unitScale[i..<j]),
                checksumFrames: h.samplesPerSignal)
            var g = Group(signals: i..<j, path: file, source: source, decoder: decoder, dataStart: spec.byteOffset)
            if spec.byteOffset > 0 {
                // Skipped in bounded reads (the offset is the file's claim, not an allocation size).
                let got =
                    !source.isCompressed && spec.byteOffset > source.fileSize
                    ? source.fileSize : try Self.skip(&g, count: spec.byteOffset)
                guard got == spec.byteOffset else {
                    throw RecordingError(
                        .truncated, file: file, byteOffset: got,
                        "the file ends before the byte offset \(spec.byteOffset) given for "
                            + "signal \(i) (header \(headerPath) line \(spec.line))")
                }
            }
            groups.append(g)
            i = j
        }
        if let headerIssue { pending.append(.issue(headerIssue)) }
    }

    /// The folder of a header path ("" for a bare file name).
    static func directory(of headerPath: String) -> String {
        headerPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    /// The signal file of signal `i`, relative to the header's folder, or its `.gz`/`.xz` beside it.
    static func signalFile(of i: Int, in h: WFDBHeader, directory: String, headerPath: String) throws(RecordingError) -> String {
        let spec = h.signals[i]
        let file = spec.fileName.hasPrefix("/") || directory.isEmpty ? spec.fileName : directory + "/" + spec.fileName
        for candidate in [file, file + ".gz", file + ".xz"] where exists(candidate) { return candidate }
        throw RecordingError(
            .unreadable, file: file,
            "signal file of signal \(i) (header \(headerPath) line \(spec.line)) "
                + "not found (nor .gz or .xz beside it)")
    }

    /// Every file a record is read from: the header, then each signal file once, in header order
    /// (what a batch hashes to notice a changed record).
    /// - Parameter headerPath: the header, as for ``init(path:blockCapacity:)``.
    /// - Returns: paths.
    /// - Throws: ``RecordingError`` when the header is invalid or a signal file is missing.
    /// - Complexity: O(header size).
    public static func files(ofRecord path: String) throws(RecordingError) -> [String] {
        let headerPath = !exists(path) && exists(path + ".hea") ? path + ".hea" : path
        let h = try WFDBHeader.read(path: headerPath)
        let directory = Self.directory(of: h.path)
        var out = [h.path]
        for i in h.signals.indices {
            let f = try signalFile(of: i, in: h, directory: directory, headerPath: h.path)
            if !out.contains(f) { out.append(f) }
        }
        return out
    }

    deinit {
        for c in columns { c.deallocate() }
        for f in flagColumns { f.deallocate() }
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Reads and discards up to `count` bytes, 64 KiB at a time; returns the bytes skipped
    /// (fewer only at the end).
    static func skip(_ g: inout Group, count: Int) throws(RecordingError) -> Int {
        var skipped = 0
        while skipped < count {
            let n = try fill(&g, count: min(count - skipped, 1 << 16))
            if n == 0 { break }
            skipped += n
        }
        return skipped
    }

    /// Reads up to `count` bytes into `g.raw`; returns the bytes read (fewer only at the end).
    static func fill(_ g: inout Group, count: Int) throws(RecordingError) -> Int {
        if g.raw.count < count + 8 { g.raw = [UInt8](repeating: 0, count: count + 8) }
        var filled = 0
        let source = g.source
        while filled < count {
            let from = filled
            let n = try g.raw.withUnsafeMutableBytes { b in
                Result { () throws(RecordingError) -> Int in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[from..<count]))
                }
            }.get()
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Name of signal `k`'s channel: its description, made unique.
    func channelName(_ k: Int) -> String {
        let s = header.signals
        let d = s[k].description.isEmpty ? "signal \(k)" : s[k].description
        let shared = s.indices.filter { ($0 == k ? d : (s[$0].description.isEmpty ? "signal \($0)" : s[$0].description)) == d }
        return shared.count > 1 ? "\(d) #\(k)" : d
    }

    func announce() {
        let h = header
        pending.append(.device(DeviceInfo(id: h.recordName, name: "WFDB record \(h.recordName)")))
        for (k, spec) in h.signals.enumerated() {
            guard let sensor = sensorOf[k] else {
                pending.append(
                    .issue(
                        RecordingError(
                            .unsupported, file: path, line: spec.line, column: 1,
                            "signal \(k) (\(spec.description.isEmpty ? "no description" : spec.description), "
                                + "\(spec.units)) is not an ECG or PPG signal; decoded and checked but not delivered")))
                continue
            }
            let voltage = Self.voltageScale(spec.units) != nil
            var attributes: [String: String] = [
                "wfdb.record": h.recordName, "wfdb.signal": String(k), "wfdb.description": spec.description,
                "wfdb.file": spec.fileName, "wfdb.format": String(spec.format),
                "wfdb.gain": String(spec.adcGain), "wfdb.baseline": String(spec.baseline),
                "wfdb.units": spec.units, "wfdb.adcResolution": String(spec.adcResolution),
                "wfdb.adcZero": String(spec.adcZero), "wfdb.samplesPerFrame": String(spec.samplesPerFrame),
                "wfdb.timeOrigin": h.startUnixSeconds != nil ? "baseDateTime" : "recordStart",
            ]
            if !spec.isCalibrated { attributes["wfdb.gainAssumed"] = "200" }
            if spec.skew != 0 { attributes["wfdb.skew"] = String(spec.skew) }
            if let t = h.baseTimeSeconds { attributes["wfdb.baseTimeSeconds"] = String(t) }
            if let d = h.baseDate { attributes["wfdb.baseDate"] = "\(d.day)/\(d.month)/\(d.year)" }
            if sensor == .electrocardiogram { attributes["lead"] = spec.description }
            let info = StreamInfo(
                key: StreamKey(deviceID: h.recordName, sensor: sensor, channel: channelName(k)),
                columns: [ColumnInfo(name: "value", unit: voltage ? .microvolts : .dimensionless)],
                nominalSampleRate: h.samplingFrequency * Double(spec.samplesPerFrame),
                attributes: attributes, timeOrigin: h.startUnixSeconds != nil ? .unix : .streamStart)
            streamOfSignal[k] = streams.count
            assemblers.append(
                StreamAssembler(
                    stream: streams.count, columnCount: 1, uniform: true,
                    blockCapacity: blockCapacity))
            streams.append(info)
            pending.append(.stream(index: streams.count - 1, info: info))
        }
    }

    /// The next event: the device, the streams, then blocks (interleaved across streams, in
    /// time order within each), issues where found, and `nil` at the end.
    /// - Throws: ``RecordingError`` `.truncated` when a signal file holds fewer frames than the
    ///   header declares (after delivering the frames it does hold), or the errors of
    ///   ``ByteSource``.
    /// - Complexity: amortised O(framesPerRead × samples per frame) per call that decodes.
    public func next() throws(RecordingError) -> RecordingEvent? {
        while true {
            if let e = try pending.next() { return e }
            if finished { return nil }
            if !started {
                started = true
                announce()
                continue
            }
            try decodeChunk()
        }
    }

    /// Most frames (≤ `limit`) that `bytes` bytes of group `g` hold (binary search: the byte
    /// count grows with the frame count).
    func frames(in bytes: Int, _ g: Group, max limit: Int) -> Int {
        if g.decoder.byteCount(frames: limit) <= bytes { return limit }
        var lo = 0, hi = limit // byteCount(lo) ≤ bytes < byteCount(hi)
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if g.decoder.byteCount(frames: mid) <= bytes { lo = mid } else { hi = mid }
        }
        return lo
    }

    func decodeChunk() throws(RecordingError) {
        let declared = header.samplesPerSignal
        let target = declared.map { $0 + maxSkew }
        let want = target.map { min(framesPerRead, $0 - framesRead) } ?? framesPerRead
        guard want > 0, !groups.isEmpty else { try finish(); return }
        var available = want
        var got = [Int](repeating: 0, count: groups.count)
        for gi in groups.indices {
            let need = groups[gi].decoder.byteCount(frames: want)
            got[gi] = try Self.fill(&groups[gi], count: need)
            available = min(available, frames(in: got[gi], groups[gi], max: want))
        }
        if available > 0 { decodeFrames(available) }
        if framesRead == 0 && available > 0 { checkFirstValues() }
        framesRead += available
        if available < want {
            // End of some file.
            if let n = declared, framesRead < n {
                let gi = groups.indices.min { got[$0] < got[$1] } ?? 0
                let g = groups[gi]
                let end = g.dataStart + g.decoder.byteCount(frames: framesRead - available) + got[gi]
                // Thrown once the frames before it are delivered; then the record ends.
                pending.deferError(
                    RecordingError(
                        .truncated, file: g.path, byteOffset: end,
                        "the header declares \(n) frames (\(g.decoder.byteCount(frames: n)) bytes from byte "
                            + "\(g.dataStart)) but the file ends after \(framesRead) complete frames"))
                finished = true
                finishStats()
                finishAssemblers()
                return
            }
            leftover = groups.indices.map { got[$0] - groups[$0].decoder.byteCount(frames: available) }
            for gi in groups.indices where leftover[gi] > 0 && declared == nil {
                let g = groups[gi]
                pending.append(
                    .issue(
                        RecordingError(
                            .truncated, file: g.path, byteOffset: g.dataStart + g.decoder.byteCount(frames: framesRead),
                            "\(leftover[gi]) trailing bytes do not form a complete frame; ignored")))
            }
            try finish()
        } else if let t = target, framesRead >= t {
            try finish()
        }
    }

    /// Decodes `count` frames of every group and appends each delivered signal's share.
    func decodeFrames(_ count: Int) {
        let first = framesRead
        let declared = header.samplesPerSignal
        for gi in groups.indices {
            let sigs = groups[gi].signals
            let cols = Array(columns[sigs]), fls = Array(flagColumns[sigs])
            let invalidBefore = groups[gi].decoder.invalidCounts
            groups[gi].raw.withUnsafeBytes { raw in
                groups[gi].decoder.decode(raw, frames: count, into: cols, flags: fls)
            }
            for (j, k) in sigs.enumerated() {
                signalStats[k].samplesDecoded += count * header.signals[k].samplesPerFrame
                chunkHasInvalid[k] = groups[gi].decoder.invalidCounts[j] != invalidBefore[j]
            }
        }
        for (k, spec) in header.signals.enumerated() {
            guard let s = streamOfSignal[k] else { continue }
            let lo = max(first, spec.skew)
            var hi = first + count
            if let n = declared { hi = min(hi, spec.skew + n) }
            guard hi > lo else { continue }
            emit(
                k, stream: s, fromColumn: (lo - first) * spec.samplesPerFrame,
                count: (hi - lo) * spec.samplesPerFrame, nan: false)
            emittedFrames[k] = hi - spec.skew
        }
    }

    /// Appends `count` samples of signal `k` (from the scratch column, or missing ones).
    func emit(_ k: Int, stream s: Int, fromColumn offset: Int, count: Int, nan: Bool) {
        let spec = header.signals[k]
        let rate = header.samplingFrequency * Double(spec.samplesPerFrame)
        let start = startTime + Double(emittedFrames[k] * spec.samplesPerFrame) / rate
        assemblers[s].qc.samplesRead += count
        if nan {
            // In runs of at most one block: the count comes from the header's skew.
            let run = min(count, blockCapacity)
            let v = [Float](repeating: .nan, count: run)
            let f = [UInt8](repeating: SampleFlags.missing.rawValue, count: run)
            var done = 0
            while done < count {
                let n = min(run, count - done)
                let t = start + Double(done) / rate
                v.withUnsafeBufferPointer { vb in
                    f.withUnsafeBufferPointer { fb in
                        pending.withEvents {
                            assemblers[s].appendRun(
                                start: t, sampleRate: rate, columns: [UnsafeBufferPointer(rebasing: vb[0..<n])],
                                flags: UnsafeBufferPointer(rebasing: fb[0..<n]), into: &$0)
                        }
                    }
                }
                done += n
            }
            return
        }
        let c = UnsafeBufferPointer(rebasing: columns[k][offset..<offset + count])
        // All-clear flags (the common case) are passed as nil: the assembler then skips its scan.
        let f = chunkHasInvalid[k] ? UnsafeBufferPointer(rebasing: flagColumns[k][offset..<offset + count]) : nil
        pending.withEvents {
            assemblers[s].appendRun(start: start, sampleRate: rate, columns: [c], flags: f, into: &$0)
        }
    }

    func checkFirstValues() {
        for g in groups {
            for (j, k) in g.signals.enumerated() {
                let spec = header.signals[k]
                let v = g.decoder.firstValues[j]
                signalStats[k].firstValue = v
                guard spec.hasInitialValue, spec.format != 8, let v else { continue }
                signalStats[k].firstValueMatches = v == spec.initialValue
                if v != spec.initialValue && spec.checksum == 0 {
                    // A checksum field of 0 marks a header whose writer computed no verification
                    // values (the CinC 2017 headers: 389 of 5,686 also give a wrong initial
                    // value): a warning, as the zero checksum itself (``finish()``).
                    pending.append(
                        .issue(
                            RecordingError(
                                .inconsistent, file: g.path, byteOffset: g.dataStart,
                                "signal \(k) (\(spec.description)): first sample is \(v) adu but the header "
                                    + "(line \(spec.line)) gives the initial value \(spec.initialValue); the header's "
                                    + "checksum field is 0 (no verification values written): not taken as corruption")))
                } else if v != spec.initialValue {
                    integrityProblem(
                        RecordingError(
                            .inconsistent, file: g.path, byteOffset: g.dataStart,
                            "signal \(k) (\(spec.description)): first sample is \(v) adu but the header "
                                + "(line \(spec.line)) gives the initial value \(spec.initialValue)"))
                }
            }
        }
    }

    func finishStats() {
        for g in groups {
            let sums = g.decoder.checksums
            for (j, k) in g.signals.enumerated() {
                signalStats[k].checksum = sums[j]
                signalStats[k].invalidSamples = g.decoder.invalidCounts[j]
            }
        }
    }

    /// End of the record: pad skewed signals, verify checksums, report trailing data, flush.
    func finish() throws(RecordingError) {
        finishStats()
        for (k, spec) in header.signals.enumerated() {
            guard let s = streamOfSignal[k] else { continue }
            let length = header.samplesPerSignal ?? framesRead
            if emittedFrames[k] < length && spec.skew > 0 {
                emit(k, stream: s, fromColumn: 0, count: (length - emittedFrames[k]) * spec.samplesPerFrame, nan: true)
                emittedFrames[k] = length
            }
        }
        if let n = header.samplesPerSignal, framesRead >= n {
            for g in groups {
                for k in g.signals {
                    let spec = header.signals[k]
                    guard let expected = spec.checksum else { continue }
                    let computed = signalStats[k].checksum
                    let ok = Int16(truncatingIfNeeded: expected) == Int16(truncatingIfNeeded: computed)
                    signalStats[k].checksumMatches = ok
                    if !ok && expected == 0 {
                        // A checksum field of 0 over samples that do not sum to 0 is what a writer
                        // that computed no checksum leaves (the CinC 2017 headers): a warning, not
                        // corruption; a real mismatch (any other value) stays an integrity problem.
                        pending.append(
                            .issue(
                                RecordingError(
                                    .inconsistent, file: g.path, byteOffset: g.dataStart + g.decoder.byteCount(frames: n),
                                    "signal \(k) (\(spec.description)): the header (line \(spec.line)) gives a checksum of 0 "
                                        + "but the \(n) samples sum to \(computed): taken as no checksum written, not as "
                                        + "corruption (samples not verified)")))
                    } else if !ok {
                        integrityProblem(
                            RecordingError(
                                .inconsistent, file: g.path, byteOffset: g.dataStart + g.decoder.byteCount(frames: n),
                                "signal \(k) (\(spec.description)): checksum of the \(n) samples is \(computed) but "
                                    + "the header (line \(spec.line)) gives \(expected)"))
                    }
                }
            }
            // Bytes beyond the declared frames (and the skew look-ahead) are not part of the record.
            for gi in groups.indices {
                var extra = gi < leftover.count ? leftover[gi] : 0
                while true {
                    let n = try Self.fill(&groups[gi], count: 1 << 16)
                    if n == 0 { break }
                    extra += n
                }
                if extra > 0 {
                    let g = groups[gi]
                    integrityProblem(
                        RecordingError(
                            .inconsistent, file: g.path, byteOffset: g.dataStart + g.decoder.byteCount(frames: framesRead),
                            "\(extra) bytes after the \(n) frames declared by the header"
                                + (verifiesIntegrity ? "" : "; ignored")))
                }
            }
        }
        finishAssemblers()
        finished = true
        if let e = integrityFailure { pending.deferError(e) }
    }

    /// Records a header/data mismatch: the record's error when verifying (the first one; later
    /// ones become issues), otherwise an issue.
    func integrityProblem(_ e: RecordingError) {
        if verifiesIntegrity && integrityFailure == nil {
            integrityFailure = e
        } else {
            pending.append(.issue(e))
        }
    }

    /// Flushes every stream's held and partial blocks.
    func finishAssemblers() {
        pending.withEvents { events in
            for s in assemblers.indices { assemblers[s].finish(into: &events) }
        }
    }
}
