#if canImport(Glibc)
    import Glibc
#endif

/// Writes decoded streams as an EDF+ (16-bit) or BDF+ (24-bit) file with an annotation signal, in
/// constant memory: samples are spooled to one temporary file per signal while decoding, and the
/// file is assembled record by record by ``finish(annotations:)``.
///
/// - **Signals.** One per column of every uniformly sampled stream (a stream with explicit
///   per-sample times is refused: EDF needs a fixed rate). Label: `edf.label` when the stream came
///   from EDF, else the channel (and column); 16 bytes at most.
/// - **Digital values** (``Scaling``): a stream read from EDF/BDF keeps its header's digital and
///   physical limits, and a WFDB stream its gain and baseline (digital value = the WFDB adu), so
///   the digital values read back are the input's own, bit for bit. Any other stream is scaled to
///   the full digital range between its minimum and maximum value (resolution =
///   (max − min) / (2^16 − 1), or 2^24 − 1 for BDF; stated per signal in ``signalNotes``).
///   NaN (masked, missing) samples and slots no sample fills are written as the digital minimum,
///   and an annotation `SensorPipe: no data in LABEL` spans each such record.
/// - **Records and time.** One record duration `D` (the shortest of 1, 2, 5, 10, 20, 30, 60, 0.5,
///   0.25, 0.2, 0.1 s in which every signal has a whole number of samples). The start is the
///   earliest sample; the header holds its whole second and the first record's time-keeping TAL
///   the sub-second part. Records no sample falls in are left out (EDF+D); samples are placed in
///   the slot nearest to their time on their signal's grid.
///
/// Source: Kemp B., Olivan J., "European data format 'plus' (EDF+)", Clin. Neurophysiol.
/// 114:1755–1761, 2003; BioSemi "BDF format".
public final class EDFWriter {
    /// How one signal's values become digital values.
    public enum Scaling: Sendable {
        /// EDF limits kept from the input (value ÷ `unitFactor` is in the header's unit).
        case edf(physicalMin: String, physicalMax: String, digitalMin: Int, digitalMax: Int, dimension: String, unitFactor: Double)
        /// WFDB: digital = value ÷ `unitFactor` × gain + baseline, in `digitalMin…digitalMax`.
        case wfdb(gain: Double, baseline: Double, digitalMin: Int, digitalMax: Int, dimension: String, unitFactor: Double)
        /// Full range between the data's minimum and maximum.
        case range
    }

    struct Signal {
        var stream: Int
        var column: Int
        var label: String
        var transducer: String
        var prefilter: String
        var dimension: String
        var rate: Double
        var scaling: Scaling
        var spool: Int32
        var count = 0
        var minimum = Double.infinity
        var maximum = -Double.infinity
    }

    struct Run {
        var start: Double
        var first: Int
        var count: Int
    }

    /// The output path.
    public let path: String
    /// Whether samples are 24-bit (BDF+).
    public let bdf: Bool
    /// One line per signal: label, rate, scaling and resolution (after ``finish(annotations:)``).
    public private(set) var signalNotes: [String] = []
    /// Records written (after ``finish(annotations:)``).
    public private(set) var recordsWritten = 0

    var streams: [StreamInfo?] = []
    var signals: [Signal] = []
    var signalsOf: [Int: [Int]] = [:]
    var runs: [[Run]] = []
    var streamCounts: [Int] = []
    let spoolPrefix: String

    /// Creates a writer.
    /// - Parameters:
    ///   - path: the output file (written whole at ``finish(annotations:)``).
    ///   - bdf: 24-bit BDF+ instead of 16-bit EDF+.
    public init(path: String, bdf: Bool) {
        self.path = path
        self.bdf = bdf
        spoolPrefix = path + ".spool"
    }

    deinit { closeSpools() }

    func closeSpools() {
        for (i, s) in signals.enumerated() where s.spool >= 0 {
            close(s.spool)
            unlink(spoolPrefix + String(i))
            signals[i].spool = -1
        }
    }

    /// Takes one decoded event (streams, blocks; others are ignored).
    /// - Throws: ``RecordingError`` for a stream without a fixed rate or a spool write failure.
    /// - Complexity: O(block samples).
    public func write(_ event: RecordingEvent) throws(RecordingError) {
        switch event {
        case .stream(let index, let info):
            while streams.count <= index {
                streams.append(nil)
                runs.append([])
                streamCounts.append(0)
            }
            streams[index] = info
        case .block(let b):
            guard b.stream < streams.count, let info = streams[b.stream], b.count > 0 else { return }
            guard case .uniform(let segmentStart, let rate) = b.time else {
                throw RecordingError(
                    .unsupported, file: path,
                    "stream \(info.key) has irregular sample times; EDF needs a fixed rate (regularise it first)")
            }
            if signalsOf[b.stream] == nil { try addSignals(stream: b.stream, info: info, rate: rate) }
            let ids = signalsOf[b.stream]!
            // A block continues its run when it is the next sample of the same segment.
            let start = segmentStart + Double(b.firstSample) / rate
            if let last = runs[b.stream].last, b.firstSample > 0, last.first + last.count == streamCounts[b.stream],
                abs(last.start + Double(last.count) / rate - start) < 0.5 / rate
            {
                runs[b.stream][runs[b.stream].count - 1].count += b.count
            } else {
                runs[b.stream].append(Run(start: start, first: streamCounts[b.stream], count: b.count))
            }
            streamCounts[b.stream] += b.count
            for (c, id) in ids.enumerated() {
                let column = b.columns[c]
                for v in column where v.isFinite {
                    signals[id].minimum = min(signals[id].minimum, Double(v))
                    signals[id].maximum = max(signals[id].maximum, Double(v))
                }
                let fd = signals[id].spool
                let ok = column.withUnsafeBytes { raw in Self.writeAll(fd, raw) }
                guard ok else {
                    throw RecordingError(.unreadable, file: spoolPrefix + String(id), "cannot write the spool file")
                }
                signals[id].count += b.count
            }
        default:
            return
        }
    }

    static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < raw.count {
            let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    func addSignals(stream: Int, info: StreamInfo, rate: Double) throws(RecordingError) {
        var ids: [Int] = []
        let a = info.attributes
        for (c, column) in info.columns.enumerated() {
            let label: String
            if info.columns.count == 1 {
                label = a["edf.label"] ?? (a["wfdb.description"].flatMap { $0.isEmpty ? nil : $0 } ?? info.key.channel)
            } else {
                let labels = a["edf.label"]?.split(separator: ",").map(String.init)
                label = labels.flatMap { $0.count == info.columns.count ? $0[c] : nil } ?? "\(info.key.channel) \(column.name)"
            }
            var scaling = Scaling.range
            let unitFactor: Double
            switch column.unit {
            case .microvolts:
                unitFactor = EDFSignalRules.microvoltFactor(a["edf.physical_dimension"] ?? a["wfdb.units"] ?? "uV") ?? 1
            case .standardGravity: unitFactor = EDFSignalRules.gravityFactor(a["edf.physical_dimension"] ?? "g") ?? 1
            default: unitFactor = 1
            }
            if info.columns.count == 1, let dmin = a["edf.digital_min"].flatMap({ Int($0) }),
                let dmax = a["edf.digital_max"].flatMap({ Int($0) }), let pmin = a["edf.physical_min"],
                let pmax = a["edf.physical_max"], bdf || (dmin >= -32768 && dmax <= 32767)
            {
                scaling = .edf(
                    physicalMin: pmin, physicalMax: pmax, digitalMin: dmin, digitalMax: dmax,
                    dimension: a["edf.physical_dimension"] ?? "", unitFactor: unitFactor)
            } else if info.columns.count == 1, let gain = a["wfdb.gain"].flatMap({ Double($0) }), gain > 0,
                let baseline = a["wfdb.baseline"].flatMap({ Double($0) }),
                let bits = a["wfdb.adcResolution"].flatMap({ Int($0) }) ?? a["wfdb.format"].flatMap({ Self.wfdbBits($0) }),
                bits > 0, bits <= (bdf ? 24 : 16)
            {
                let half = 1 << (bits - 1)
                let zero = a["wfdb.adcZero"].flatMap { Int($0) } ?? 0
                scaling = .wfdb(
                    gain: gain, baseline: baseline, digitalMin: max(zero - half, bdf ? -8_388_608 : -32768),
                    digitalMax: min(zero + half - 1, bdf ? 8_388_607 : 32767),
                    dimension: column.unit == .microvolts ? (a["wfdb.units"] ?? "mV") : (a["wfdb.units"] ?? ""),
                    unitFactor: column.unit == .microvolts ? (EDFSignalRules.microvoltFactor(a["wfdb.units"] ?? "mV") ?? 1000) : 1)
            }
            let id = signals.count
            let fd = open(spoolPrefix + String(id), O_RDWR | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else {
                throw RecordingError(.unreadable, file: spoolPrefix + String(id), "cannot create the spool file")
            }
            signals.append(
                Signal(
                    stream: stream, column: c, label: label, transducer: a["edf.transducer"] ?? info.key.sensor.rawValue,
                    prefilter: a["edf.prefilter"] ?? "", dimension: column.unit == .dimensionless ? "" : column.unit.rawValue,
                    rate: rate, scaling: scaling, spool: fd))
            ids.append(id)
        }
        signalsOf[stream] = ids
    }

    /// Significant bits of a WFDB storage format (signal(5)).
    static func wfdbBits(_ format: String) -> Int? {
        switch format {
        case "8", "80": 8
        case "212": 12
        case "310", "311": 10
        case "16", "61", "160": 16
        case "24": 24
        default: nil
        }
    }

    /// A number in at most 8 characters, rounded outward (`down` toward −∞).
    static func field8(_ v: Double, down: Bool) -> String {
        if v == v.rounded(), abs(v) < 1e7 { return String(Int(v)) }
        var p = 1e7
        while p >= 1 {
            let r = (down ? (v * p).rounded(.down) : (v * p).rounded(.up)) / p
            let s = String(r)
            if !s.contains("e") && s.count <= 8 { return s.hasSuffix(".0") ? String(s.dropLast(2)) : s }
            p /= 10
        }
        return String(Int(down ? v.rounded(.down) : v.rounded(.up)))
    }

    static func pad(_ s: String, _ width: Int) -> [UInt8] {
        var b = Array(s.utf8)
        if b.count > width {
            b = Array(b[0..<width])
            // Do not cut a UTF-8 sequence.
            while let last = b.last, last & 0xC0 == 0x80 || last & 0xC0 == 0xC0 {
                let lead = b.lastIndex { $0 & 0xC0 != 0x80 } ?? 0
                let need = b[lead] >= 0xF0 ? 4 : b[lead] >= 0xE0 ? 3 : b[lead] >= 0xC0 ? 2 : 1
                if b.count - lead >= need { break }
                b.removeLast(b.count - lead)
            }
        }
        return b + [UInt8](repeating: 0x20, count: width - b.count)
    }

    /// Writes the file: header, then every record with samples, with `annotations` (absolute
    /// times, seconds on the streams' clock) in the annotation signal.
    /// - Parameters:
    ///   - annotations: (time, duration, text) to write as TALs.
    ///   - subsecondStart: the start's fraction of a second as the source states it (an EDF+ input's
    ///     first record onset), used when the earliest sample's time agrees with it within 1 µs: a Unix
    ///     time in a `Double` carries only ~0.2 µs.
    /// - Throws: ``RecordingError`` when no record duration fits every rate, or on write errors.
    /// - Complexity: O(samples + annotations).
    public func finish(
        annotations: [(time: Double, duration: Double?, text: String)] = [], subsecondStart: Double? = nil
    ) throws(RecordingError) {
        defer { closeSpools() }
        let used = signals.indices.filter { signals[$0].count > 0 }
        guard !used.isEmpty || !annotations.isEmpty else {
            throw RecordingError(.empty, file: path, "no samples and no annotations to write")
        }
        var duration = 1.0
        var perRecord: [Int] = []
        if let d = [1.0, 2, 5, 10, 20, 30, 60, 0.5, 0.25, 0.2, 0.1].first(where: { d in
            used.allSatisfy { i in
                let n = signals[i].rate * d
                return abs(n - n.rounded()) < 1e-9 * max(1, n) && n >= 1
            }
        }) {
            duration = d
        } else {
            let rates = used.map { String(signals[$0].rate) }.joined(separator: ", ")
            throw RecordingError(
                .unsupported, file: path,
                "no EDF record duration (0.1 … 60 s) holds a whole number of samples of every signal (rates \(rates) Hz)")
        }
        perRecord = used.map { Int((signals[$0].rate * duration).rounded()) }
        let starts = used.compactMap { runs[signals[$0].stream].first?.start } + annotations.map(\.time)
        let t0 = starts.min() ?? 0
        let ends = used.map { i in
            runs[signals[i].stream].map { $0.start + Double($0.count) / signals[i].rate }.max() ?? t0
        }
        let tEnd = max(ends.max() ?? t0, t0 + duration)
        let recordCount = Int(((tEnd - t0) / duration - 1e-9).rounded(.up))
        guard recordCount < 1 << 31 else {
            throw RecordingError(.outOfRange, file: path, "the streams span \(tEnd - t0) s: too many records")
        }
        // Which records hold samples: walk each stream's runs.
        var hasData = [Bool](repeating: used.isEmpty, count: max(recordCount, 1))
        for i in used {
            for r in runs[signals[i].stream] {
                let a = Int(((r.start - t0) / duration).rounded(.down))
                let b = Int(((r.start + Double(r.count - 1) / signals[i].rate - t0) / duration).rounded(.down))
                for k in max(a, 0)...min(b, recordCount - 1) { hasData[k] = true }
            }
        }
        let written = hasData.indices.filter { hasData[$0] }
        let discontinuous = written.count != hasData.count
        // Scaling per used signal.
        struct Digital {
            var pmin: String
            var pmax: String
            var dmin: Int
            var dmax: Int
            var dimension: String
            var toDigital: (Double) -> Double
            var note: String
        }
        let (lowest, highest) = bdf ? (-8_388_608, 8_388_607) : (-32768, 32767)
        var digital: [Digital] = []
        for i in used {
            let s = signals[i]
            switch s.scaling {
            case .edf(let pminText, let pmaxText, let dmin, let dmax, let dimension, let factor):
                let pmin = Double(pminText) ?? 0, pmax = Double(pmaxText) ?? 1
                let bit = (pmax - pmin) / Double(dmax - dmin)
                let offset = pmax / bit - Double(dmax)
                digital.append(
                    Digital(
                        pmin: pminText, pmax: pmaxText, dmin: dmin, dmax: dmax, dimension: dimension,
                        toDigital: { v in v / factor / bit - offset }, note: "EDF header limits kept"))
            case .wfdb(let gain, let baseline, let dmin, let dmax, let dimension, let factor):
                let pmin = Self.field8((Double(dmin) - baseline) / gain, down: true)
                let pmax = Self.field8((Double(dmax) - baseline) / gain, down: false)
                digital.append(
                    Digital(
                        pmin: pmin, pmax: pmax, dmin: dmin, dmax: dmax, dimension: dimension,
                        toDigital: { v in v / factor * gain + baseline },
                        note: "WFDB adu kept (gain \(gain), baseline \(baseline))"))
            case .range:
                var lo = s.minimum.isFinite ? s.minimum : 0, hi = s.maximum.isFinite ? s.maximum : 1
                if hi <= lo { (lo, hi) = (lo - 1, lo + 1) }
                let pmin = Self.field8(lo, down: true), pmax = Self.field8(hi, down: false)
                let a = Double(pmin) ?? lo, b = Double(pmax) ?? hi
                let bit = (b - a) / Double(highest - lowest)
                let offset = b / bit - Double(highest)
                digital.append(
                    Digital(
                        pmin: pmin, pmax: pmax, dmin: lowest, dmax: highest, dimension: s.dimension,
                        toDigital: { v in v / bit - offset }, note: "resolution \(bit) \(s.dimension)"))
            }
        }
        // Annotation TALs per record: time-keeping + annotations (each in the record holding its onset).
        // Onsets in EDFlib's resolution, 100 ns (a Unix time in a Double carries ~0.2 µs).
        func tenth(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }
        var fraction = tenth(t0 - t0.rounded(.down))
        if let given = subsecondStart, abs(given - fraction) < 1e-6 { fraction = given }
        var talsOf: [Int: [UInt8]] = [:]
        var sorted = annotations.sorted { $0.time < $1.time }
        // Records left without samples of a signal that has a run are noted.
        for i in used {
            let rs = runs[signals[i].stream]
            for k in written {
                let a = t0 + Double(k) * duration, b = a + duration
                let covered = rs.reduce(0.0) { acc, r in
                    let e = r.start + Double(r.count) / signals[i].rate
                    return acc + max(0, min(b, e) - max(a, r.start))
                }
                if covered < duration - 0.5 / signals[i].rate {
                    sorted.append((time: a, duration: duration, text: "SensorPipe: no data in \(signals[i].label)"))
                }
            }
        }
        sorted.sort { $0.time < $1.time }
        func number(_ v: Double) -> String {
            var s = String(v)
            if s.contains("e") { s = String(Int(v.rounded())) }
            if s.hasSuffix(".0") { s.removeLast(2) }
            return s
        }
        for a in sorted {
            let rel = a.time - t0
            var k = Int((rel / duration).rounded(.down))
            k = written.min { abs($0 - k) < abs($1 - k) } ?? 0
            let onset = tenth(a.time - t0.rounded(.down))
            var tal = Array((onset >= 0 ? "+" : "-").utf8) + Array(number(abs(onset)).utf8)
            if let d = a.duration { tal += [0x15] + Array(number(d).utf8) }
            tal += [0x14] + Array(a.text.utf8.filter { $0 != 0x14 && $0 != 0x15 && $0 != 0 }) + [0x14, 0]
            talsOf[k, default: []] += tal
        }
        var annotationBytes = 0
        for k in written {
            let keeping = Array(("+" + number(tenth(Double(k) * duration + fraction))).utf8) + [0x14, 0x14, 0]
            annotationBytes = max(annotationBytes, keeping.count + (talsOf[k]?.count ?? 0))
        }
        let width = bdf ? 3 : 2
        let annotationSamples = max((annotationBytes + width - 1) / width, 60 / width * 1)
        // Header.
        let ns = used.count + 1
        var h = [UInt8]()
        h += bdf ? [0xFF] + Array("BIOSEMI".utf8) : Self.pad("0", 8)
        h += Self.pad("X X X X", 80)
        // EDF dates span 1985–2084; outside (times from the stream start), EDF+'s "unknown" date.
        var whole = t0.rounded(.down)
        if !(473_385_600...3_629_059_199).contains(whole) { whole = 473_385_600 }
        let startDays = Int((whole / 86400).rounded(.down))
        let secondOfDay = Int(whole) - startDays * 86400
        let (year, month, day) = CivilDate.components(daysSince1970: startDays)
        let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        let startdate = whole == t0.rounded(.down) ? "\(two(day))-\(months[month - 1])-\(year)" : "X"
        h += Self.pad("Startdate \(startdate) X X SensorPipe", 80)
        h += Self.pad("\(two(day)).\(two(month)).\(two(year % 100))", 8)
        h += Self.pad("\(two(secondOfDay / 3600)).\(two(secondOfDay / 60 % 60)).\(two(secondOfDay % 60))", 8)
        h += Self.pad(String(256 * (ns + 1)), 8)
        h += Self.pad((bdf ? "BDF+" : "EDF+") + (discontinuous ? "D" : "C"), 44)
        h += Self.pad(String(written.count), 8)
        h += Self.pad(number(duration), 8)
        h += Self.pad(String(ns), 4)
        let annotationLabel = bdf ? "BDF Annotations" : "EDF Annotations"
        var fields: [[UInt8]] = Array(repeating: [], count: 10)
        for (u, i) in used.enumerated() {
            let s = signals[i], d = digital[u]
            fields[0] += Self.pad(s.label, 16)
            fields[1] += Self.pad(s.transducer, 80)
            fields[2] += Self.pad(d.dimension, 8)
            fields[3] += Self.pad(d.pmin, 8)
            fields[4] += Self.pad(d.pmax, 8)
            fields[5] += Self.pad(String(d.dmin), 8)
            fields[6] += Self.pad(String(d.dmax), 8)
            fields[7] += Self.pad(s.prefilter, 80)
            fields[8] += Self.pad(String(perRecord[u]), 8)
            fields[9] += Self.pad("", 32)
            signalNotes.append("\(s.label): \(s.rate) Hz, \(d.note)")
        }
        fields[0] += Self.pad(annotationLabel, 16)
        fields[1] += Self.pad("", 80)
        fields[2] += Self.pad("", 8)
        fields[3] += Self.pad("-1", 8)
        fields[4] += Self.pad("1", 8)
        fields[5] += Self.pad(bdf ? "-8388608" : "-32768", 8)
        fields[6] += Self.pad(bdf ? "8388607" : "32767", 8)
        fields[7] += Self.pad("", 80)
        fields[8] += Self.pad(String(annotationSamples), 8)
        fields[9] += Self.pad("", 32)
        for f in fields { h += f }
        let out = try OutputFile(path: path, compress: false)
        try out.write(h)
        // Records.
        var cursor = [Int](repeating: 0, count: used.count) // run index per used signal
        var buffer = [Float]()
        var record = [UInt8]()
        for k in written {
            record.removeAll(keepingCapacity: true)
            let recordStart = t0 + Double(k) * duration
            for (u, i) in used.enumerated() {
                let s = signals[i], n = perRecord[u], d = digital[u]
                let rs = runs[s.stream]
                var values = [Double](repeating: .nan, count: n)
                // Runs overlapping this record, from the cursor on.
                var r = cursor[u]
                while r < rs.count && rs[r].start + Double(rs[r].count) / s.rate <= recordStart { r += 1 }
                cursor[u] = r
                while r < rs.count && rs[r].start < recordStart + duration {
                    let run = rs[r]
                    let firstSlot = max(0, Int(((run.start - recordStart) * s.rate).rounded()))
                    let firstIndex = Int(((recordStart + Double(firstSlot) / s.rate - run.start) * s.rate).rounded())
                    let take = min(n - firstSlot, run.count - max(firstIndex, 0))
                    if take > 0 && firstIndex >= 0 {
                        if buffer.count < take { buffer = [Float](repeating: 0, count: take) }
                        let offset = off_t((run.first + firstIndex) * 4)
                        let fd = s.spool
                        let got = buffer.withUnsafeMutableBytes { b in pread(fd, b.baseAddress!, take * 4, offset) }
                        guard got == take * 4 else {
                            throw RecordingError(.unreadable, file: spoolPrefix + String(i), "cannot read the spool file")
                        }
                        for j in 0..<take { values[firstSlot + j] = Double(buffer[j]) }
                    }
                    r += 1
                }
                for v in values {
                    var x = v.isFinite ? d.toDigital(v).rounded() : Double(d.dmin)
                    x = min(max(x, Double(d.dmin)), Double(d.dmax))
                    let iv = Int32(x)
                    record.append(UInt8(truncatingIfNeeded: iv))
                    record.append(UInt8(truncatingIfNeeded: iv >> 8))
                    if bdf { record.append(UInt8(truncatingIfNeeded: iv >> 16)) }
                }
            }
            var tal = Array(("+" + number(tenth(Double(k) * duration + fraction))).utf8) + [0x14, 0x14, 0]
            tal += talsOf[k] ?? []
            tal += [UInt8](repeating: 0, count: annotationSamples * width - tal.count)
            record += tal
            try out.write(record)
            recordsWritten += 1
        }
        try out.finish()
    }
}
