import Foundation
import Motion
import Signals

/// One hour of a synthetic wrist accelerometer at an irregular ~50 Hz (SensorKit-like): gravity
/// turning slowly, 15 minutes of walking at 1.8 steps/s, arm movements, 5 mg noise, timestamps
/// jittered by ±3 ms with one sample in 500 missing. Times are offsets within the hour (s).
struct MotionHourTemplate {
    var offsets: [Double] = []
    var x: [Float] = [], y: [Float] = [], z: [Float] = []

    init() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for i in 0..<180_000 {
            if uniform() < 0.002 { continue }
            let t = Double(i) / 50 + (uniform() - 0.5) * 0.006
            let tilt = 0.6 * sin(2 * Double.pi * t / 731)
            let walking = t >= 600 && t < 1500
            let v = walking ? 0.3 * sin(2 * Double.pi * 1.8 * t) + 0.08 * sin(4 * Double.pi * 1.8 * t) : 0
            let arm = t >= 2400 && t < 2700 ? 0.2 * sin(2 * Double.pi * 0.4 * t) : 0
            offsets.append(t)
            x.append(Float(sin(tilt) + arm + (uniform() - 0.5) * 0.017))
            y.append(Float(0.1 * sin(2 * Double.pi * t / 300) + (uniform() - 0.5) * 0.017))
            z.append(Float(cos(tilt) + v + (uniform() - 0.5) * 0.017))
        }
    }
}

/// Counts rows without keeping them (the chain benchmark measures analysis, not output); with
/// `digest`, also folds every row's table name and values (bit patterns of reals) into a 64-bit
/// FNV-1a hash, so that two builds can be shown to write identical tables. `excluding` names
/// tables (`motion_rhythm`) or columns (`motion_daily.valid_day`) left out of the count and the
/// hash, so that a build adding columns can be shown to leave the existing ones unchanged.
final class CountingOutput: ResultOutput {
    var rows = 0
    let digesting: Bool
    let excluded: Set<String>
    /// Rows per table of the tables named at creation (`counting`).
    private(set) var counted: [String: Int] = [:]
    private(set) var digest: UInt64 = 0xCBF2_9CE4_8422_2325
    init(digest: Bool = false, excluding: Set<String> = [], counting: Set<String> = []) {
        digesting = digest
        excluded = excluding
        for t in counting { counted[t] = 0 }
    }

    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        let table = schema.table.name
        if !excluded.isEmpty, excluded.contains(table) { return }
        rows += 1
        if !counted.isEmpty, let c = counted[table] { counted[table] = c + 1 }
        guard digesting else { return }
        fold(table)
        for (column, v) in zip(schema.columns, schema.values(of: row)) {
            if !excluded.isEmpty, excluded.contains(table + "." + column.description.name) { continue }
            switch v {
            case .text(let s): fold(s)
            case .integer(let i): fold(UInt64(bitPattern: Int64(i)))
            case .real(let r): fold(r.bitPattern)
            case .null: fold(0xFFFF_FFFF_FFFF_FFF1)
            }
        }
    }

    private func fold(_ s: String) {
        for b in s.utf8 { fold(UInt64(b)) }
    }

    private func fold(_ v: UInt64) {
        digest = (digest ^ v) &* 0x100_0000_01B3
    }
}

/// The motion family over `hours` hours of the template (replayed with shifted times) in blocks of
/// 65,536 samples, as the router feeds it: regularise, epochs (ENMO, MAD, HFEN, BFEN, angles),
/// counts, steps, daily summary. Returns the rows written.
func runMotionChain(
    hours: Int, template: MotionHourTemplate, output: CountingOutput = CountingOutput(),
    options: MotionOptions = MotionFamily.defaultOptions
) -> Int {
    let info = StreamInfo(
        key: StreamKey(deviceID: "watch", sensor: .accelerometer, channel: "acceleration"),
        columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) })
    var analyzer = MotionFamily.makeAnalyzer(options: options)
    _ = analyzer.claim(AnnouncedStream(index: 0, info: info, file: "bench"))
    let n = template.offsets.count
    let blockSize = 65_536
    var first = 0
    for h in 0..<hours {
        let base = 1_700_000_000 + Double(h) * 3600
        var start = 0
        while start < n {
            let end = min(start + blockSize, n)
            let times = template.offsets[start..<end].map { $0 + base }
            let block = SampleBlock(
                stream: 0, segment: 0, firstSample: first, time: .explicit(times),
                columns: [Array(template.x[start..<end]), Array(template.y[start..<end]), Array(template.z[start..<end])],
                flags: [UInt8](repeating: 0, count: end - start), endsSegment: h == hours - 1 && end == n)
            try! analyzer.consume(block, output: output)
            first += end - start
            start = end
        }
    }
    try! analyzer.finish(output: output)
    return output.rows
}

/// The motion options with every outcome of issue 32 on: the defaults (day outcomes, hourly and
/// 1-min rhythm rows, sleep, awakenings) plus nap detection and a time in bed (the latency).
var motionOutcomeOptions: MotionOptions {
    var o = MotionFamily.defaultOptions
    o.naps = true
    o.timeInBed = "22:00-07:00"
    return o
}

/// The motion chain on a day (quick: 1.5 h) of irregular 50 Hz three-axis acceleration, against
/// one scalar SOS pass over a day of 512 Hz samples (``referenceSOSPass``); and the whole chain
/// with every outcome (``motionOutcomeOptions``) over 28 days (quick: 2 days, the least that
/// holds a complete noon-to-noon window and a valid day, so nights, day outcomes and the
/// rhythm all run).
func motionBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let hours = scale == .full ? 24 : 2
    let outcomeDays = scale == .full ? 28 : 2
    return [
        BenchmarkCase(
            name: "motion/outcomes/\(outcomeDays)d50/irregular", samples: outcomeDays * 24 * 180_000 * 3,
            bytes: outcomeDays * 24 * 180_000 * 20, reference: sosReferenceName
        ) {
            let template = MotionHourTemplate()
            return {
                let output = CountingOutput(counting: ["motion_nights", "motion_rhythm"])
                let rows = runMotionChain(hours: outcomeDays * 24, template: template, output: output, options: motionOutcomeOptions)
                precondition(
                    output.counted["motion_rhythm"] == 2 && (output.counted["motion_nights"] ?? 0) >= outcomeDays - 1,
                    "motion outcomes: \(rows) rows, \(output.counted)")
                blackHole(rows)
            }
        },
        BenchmarkCase(
            name: "motion/chain/\(hours)h50/irregular", samples: hours * 180_000 * 3, bytes: hours * 180_000 * 20,
            reference: sosReferenceName
        ) {
            let template = MotionHourTemplate()
            return {
                let rows = runMotionChain(hours: hours, template: template)
                precondition(rows > hours * 700, "motion chain: \(rows) rows")
                blackHole(rows)
            }
        },
    ]
}

/// `sensorpipe-bench --long-motion DAYS`: DAYS of irregular 50 Hz three-axis acceleration through
/// the motion family with every outcome on (``motionOutcomeOptions``; the digest runs the
/// defaults, so that builds before nap detection compare) in this process (generated an hour at a time, so the input never sits in
/// memory): wall and CPU seconds, peak resident memory, and the same-run reference (one
/// ``referenceSOSPass`` over as many samples as the three axes hold) for the ratio.
/// With `digest`, the run also hashes every row written (``CountingOutput``) and prints the hash
/// (slower; for comparing the tables of two builds, not for timing).
/// `excluding` leaves tables or `table.column`s out of the digest (``CountingOutput``).
func runLongMotionBenchmark(days: Double, json: Bool, digest: Bool = false, excluding: Set<String> = []) -> Int32 {
    let hours = Int((days * 24).rounded())
    let template = MotionHourTemplate()
    if digest {
        let output = CountingOutput(digest: true, excluding: excluding)
        let rows = runMotionChain(hours: hours, template: template, output: output)
        print(String(format: "long motion: %d h, %d rows, table digest %016llx", hours, rows, output.digest))
        return 0
    }
    let samples = hours * template.offsets.count
    let t0 = Stopwatch.now()
    let rows = runMotionChain(hours: hours, template: template, options: motionOutcomeOptions)
    let t1 = Stopwatch.now()
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let peak = Double(usage.ru_maxrss) * 1024
    // Reference: the scalar SOS pass over 3 × samples values, an hour of values at a time.
    let chunk = template.x + template.y + template.z
    var out = [Float](repeating: 0, count: chunk.count)
    let r0 = Stopwatch.now()
    for _ in 0..<hours {
        chunk.withUnsafeBufferPointer { c in
            out.withUnsafeMutableBufferPointer { referenceSOSPass(c.baseAddress!, $0.baseAddress!, count: c.count) }
        }
    }
    blackHole(out)
    let r1 = Stopwatch.now()
    let wall = Double(t1.wall - t0.wall) / 1e9, cpu = Double(t1.cpu - t0.cpu) / 1e9
    let refCPU = Double(r1.cpu - r0.cpu) / 1e9
    print(
        String(
            format: "long motion: %d h, %d samples per axis at ~50 Hz, %d rows; %.2f s wall, %.2f s CPU; "
                + "reference SOS pass over 3 axes %.2f s CPU; ratio %.2f; peak RSS %.0f MB",
            hours, samples, rows, wall, cpu, refCPU, cpu / refCPU, peak / 1e6))
    if json {
        print(
            "{\"hours\":\(hours),\"samples_per_axis\":\(samples),\"seconds\":\(wall),\"cpu_seconds\":\(cpu),"
                + "\"reference_cpu_seconds\":\(refCPU),\"peak_rss_bytes\":\(Int(peak))}")
    }
    return 0
}
