import DSP
import Foundation

// sensorpipe-bench: the performance guard of SensorPipe's numerical core.
//
// Every figure is reported as a ratio against a reference kernel measured interleaved with it in
// the same run (FFTW's own transform at the same size, a fixed scalar SOS filter pass over the
// same samples, zlib over the same bytes, ...), because the machines are shared and noisy: see
// Benchmarks/README.md. Always run a release build: `swift run -c release sensorpipe-bench`.

let usage = """
    USAGE: sensorpipe-bench [--list] [--filter REGEX] [--quick] [--json] [--check THRESHOLDS.json]
           sensorpipe-bench --batch [--megabytes MB] [--quick] [--json] [--check BATCH-THRESHOLDS.json]
           sensorpipe-bench --long-ecg DAYS [--compare OLD-SENSORPIPE] [--json]
           sensorpipe-bench --long-motion DAYS [--json | --digest [--digest-exclude TABLE[.COLUMN],…]]
           sensorpipe-bench --long-ppg DAYS [--json | --digest]
           sensorpipe-bench --long-features DAYS [--json]
           sensorpipe-bench --study DIR [--compare OLD-SENSORPIPE] [--repetitions N] [--run-arg ARG]… [--json]

    OPTIONS:
      --list            list benchmark names and exit
      --filter REGEX    run only benchmarks whose name matches REGEX (their references run too)
      --quick           reduced workloads (1/16 of the day-long signals) for CI
      --json            one JSON object per line: name, samples, median_seconds, min_seconds,
                        max_seconds, samples_per_second, mb_per_second, runs, iterations,
                        setup_seconds, reference, ratio (median of the A-B pairs' CPU-time
                        ratios), pairs, ratio_min, ratio_max, wall_ratio (median of the pairs'
                        wall-time ratios), reference_median_seconds, info_ratios (information-
                        only references, e.g. memcpy: median ÷ their median, not interleaved)
      --check FILE      compare ratios with the maxima in FILE ({"name": maxRatio, …});
                        exit 1 if any guarded ratio is above its maximum. Without --filter,
                        only the guarded cases (with their references) are measured
      --measure         plan FFTs with FFTW_MEASURE instead of FFTW_ESTIMATE
      --batch           the whole-pipeline benchmark: `sensorpipe run` (the executable beside this
                        one) over Datasets/ copied until 1 GB (32 MB with --quick, or --megabytes),
                        --jobs 1 and 2: MB/s, hours of signal/s, scaling, peak RSS, zlib reference
      --long-ecg DAYS   memory of one long recording: a DAYS-long two-lead 360 Hz ECG through
                        `sensorpipe run --jobs 1` (one record) and `--jobs 2` (two records): peak RSS,
                        seconds, MB/s; --compare runs an older sensorpipe on the same inputs
      --long-motion DAYS  DAYS of irregular 50 Hz three-axis acceleration through the motion
                        family in this process: seconds, peak RSS, ratio to a same-run SOS pass;
                        --digest prints a hash of every row written instead (compares builds);
                        --digest-exclude leaves tables or TABLE.COLUMNs out (columns added later)
      --long-ppg DAYS   DAYS of 128 Hz wrist PPG (3 optical channels + accelerometer) through the
                        PPG family in this process: resident memory per day, peak RSS, seconds;
                        --digest prints a hash of every row written instead (compares builds)
      --long-features DAYS  DAYS of 50 Hz three-axis accelerometer through the features family in
                        this process, with catch22 and without: CPU seconds, RSS per day, peak RSS,
                        ratio to a same-run SOS pass
      --study DIR       `sensorpipe run DIR --jobs 1` (and --compare's binary) against zlib
                        inflating every .gz under DIR, interleaved, --repetitions times (default 3):
                        CPU seconds (user+sys), the median ratio run ÷ inflate, database size;
                        --run-arg ARG is passed to every run (repeatable); see scripts/make-study.py
      -h, --help        show this help

    ENVIRONMENT (the guard's self-test; nothing else reads these):
      SENSORPIPE_BENCH_SLOWDOWN=REGEX         run the work of matching cases (batch: batch/jobs1,
                                              batch/jobs2) SENSORPIPE_BENCH_SLOWDOWN_FACTOR
                                              times per timed run (default 2)
    """

struct Options {
    var list = false
    var filter: String?
    var quick = false
    var json = false
    var check: String?
    var measurePlans = false
    var batch = false
    var longDays: Double?
    var longMotionDays: Double?
    var digest = false
    var digestExclude: Set<String> = []
    var longPPGDays: Double?
    var longFeaturesDays: Double?
    var compare: String?
    var megabytes: Double?
    var study: String?
    var repetitions = 3
    var runArguments: [String] = []
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("sensorpipe-bench: \(message)\n\n\(usage)\n".utf8))
        exit(64)
    }
    while let a = args.popFirst() {
        switch a {
        case "--list": o.list = true
        case "--quick": o.quick = true
        case "--json": o.json = true
        case "--measure": o.measurePlans = true
        case "--batch": o.batch = true
        case "--digest": o.digest = true
        case "--digest-exclude":
            guard let v = args.popFirst() else { fail("--digest-exclude needs TABLE[.COLUMN],…") }
            o.digestExclude = Set(v.split(separator: ",").map(String.init))
        case "--long-ecg":
            guard let v = args.popFirst(), let d = Double(v), d > 0, d <= 31 else { fail("--long-ecg needs a number of days (0–31]") }
            o.longDays = d
        case "--long-ppg":
            guard let v = args.popFirst(), let d = Double(v), d > 0, d <= 31 else { fail("--long-ppg needs a number of days (0–31]") }
            o.longPPGDays = d
        case "--long-features":
            guard let v = args.popFirst(), let d = Double(v), d > 0, d <= 31 else { fail("--long-features needs a number of days (0–31]") }
            o.longFeaturesDays = d
        case "--long-motion":
            guard let v = args.popFirst(), let d = Double(v), d > 0, d <= 31 else { fail("--long-motion needs a number of days (0–31]") }
            o.longMotionDays = d
        case "--study":
            guard let v = args.popFirst() else { fail("--study needs a folder") }
            o.study = v
        case "--repetitions":
            guard let v = args.popFirst(), let n = Int(v), n >= 1 else { fail("--repetitions needs a positive integer") }
            o.repetitions = n
        case "--run-arg":
            guard let v = args.popFirst() else { fail("--run-arg needs an argument") }
            o.runArguments.append(v)
        case "--compare":
            guard let v = args.popFirst() else { fail("--compare needs a sensorpipe executable") }
            o.compare = v
        case "--megabytes":
            guard let v = args.popFirst(), let mb = Double(v), mb > 0 else { fail("--megabytes needs a positive number") }
            o.megabytes = mb
        case "--filter":
            guard let v = args.popFirst() else { fail("--filter needs a REGEX") }
            o.filter = v
        case "--check":
            guard let v = args.popFirst() else { fail("--check needs a FILE") }
            o.check = v
        case "-h", "--help":
            print(usage)
            exit(0)
        default: fail("unknown argument '\(a)'")
        }
    }
    return o
}

let options = parseOptions()
if let days = options.longPPGDays {
    exit(runLongPPGBenchmark(days: days, json: options.json, digest: options.digest))
}
if let days = options.longFeaturesDays {
    exit(runLongFeaturesBenchmark(days: days, json: options.json))
}
if let days = options.longMotionDays {
    exit(runLongMotionBenchmark(days: days, json: options.json, digest: options.digest, excluding: options.digestExclude))
}
if let days = options.longDays {
    exit(runLongECGBenchmark(days: days, compare: options.compare, json: options.json))
}
if let study = options.study {
    exit(
        runStudyBenchmark(
            input: study, compare: options.compare, runArguments: options.runArguments,
            repetitions: options.repetitions, json: options.json))
}
if options.batch {
    exit(runBatchBenchmark(quick: options.quick, json: options.json, check: options.check, targetMegabytes: options.megabytes))
}
if options.measurePlans { FFTPlanner.rigor = .measure }
let scale: BenchmarkScale = options.quick ? .quick : .full
let all = allBenchmarks(scale)

if options.list {
    for c in all {
        print(
            c.name + (c.reference.map { "  (reference: \($0))" } ?? "")
                + (c.info.isEmpty ? "" : "  (information: \(c.info.joined(separator: ", ")))"))
    }
    exit(0)
}

var selected = all
if options.filter == nil, let path = options.check,
    let data = FileManager.default.contents(atPath: path),
    let limits = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
{
    // The guard measures what it guards (each case with its reference and information figures).
    let wanted = Set(
        all.filter { limits[$0.name] is NSNumber }
            .flatMap { [$0.name] + ($0.reference.map { [$0] } ?? []) + $0.info })
    selected = all.filter { wanted.contains($0.name) }
}
if let f = options.filter {
    guard let regex = try? NSRegularExpression(pattern: f) else {
        FileHandle.standardError.write(Data("sensorpipe-bench: invalid --filter regex '\(f)'\n".utf8))
        exit(64)
    }
    let wanted = Set(
        all.filter {
            regex.firstMatch(in: $0.name, range: NSRange($0.name.startIndex..., in: $0.name)) != nil
        }.flatMap { [$0.name] + ($0.reference.map { [$0] } ?? []) + $0.info })
    selected = all.filter { wanted.contains($0.name) }
}
if selected.isEmpty {
    FileHandle.standardError.write(Data("sensorpipe-bench: no benchmark matches\n".utf8))
    exit(64)
}

let policy = MeasurementPolicy.for(scale)
let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
let pairedReferences = Set(selected.compactMap(\.reference))
// Each case is set up once, when first needed, and its closure reused (references serve several).
var bodies: [String: TimedBody] = [:]
@MainActor func timed(_ name: String) -> TimedBody {
    if let b = bodies[name] { return b }
    guard let c = byName[name] else { fatalError("sensorpipe-bench: unknown reference '\(name)'") }
    let b = TimedBody(c)
    bodies[name] = b
    return b
}

@MainActor func emit(_ m: Measurement, reference: String?, pairs: PairedMeasurement?, info: [String: Double]) {
    let sps = Double(m.samples) / m.median
    let mbps = m.bytes > 0 ? Double(m.bytes) / m.median / 1e6 : nil
    if options.json {
        var obj: [String: Any] = [
            "name": m.name, "samples": m.samples, "median_seconds": m.median,
            "min_seconds": m.min, "max_seconds": m.max, "samples_per_second": sps,
            "runs": m.runs.count, "iterations": m.iterations, "reference": reference ?? NSNull(),
            "ratio": pairs.map { $0.ratio } ?? NSNull(),
        ]
        if let p = pairs {
            obj["pairs"] = p.ratios.count
            obj["ratio_min"] = p.ratios.min()!
            obj["ratio_max"] = p.ratios.max()!
            obj["wall_ratio"] = p.wallRatio
            obj["reference_median_seconds"] = p.reference.median
        }
        if let b = bodies[m.name] { obj["setup_seconds"] = b.setUpSeconds }
        if !info.isEmpty { obj["info_ratios"] = info }
        if let mbps { obj["mb_per_second"] = mbps }
        let data = try! JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .withoutEscapingSlashes])
        print(String(decoding: data, as: UTF8.self))
    } else {
        var ratioText = "(reference)"
        if let p = pairs, let r = reference {
            ratioText = String(
                format: "%8.3f× %@ (CPU time, median of %d pairs, %.3f … %.3f; wall %.3f×)",
                p.ratio, r, p.ratios.count, p.ratios.min()!, p.ratios.max()!, p.wallRatio)
        }
        for (name, ratio) in info.sorted(by: { $0.key < $1.key }) {
            ratioText += String(format: "; %.3f× %@", ratio, name)
        }
        print(
            String(
                format: "%-48@ median %9.4f s  [%9.4f … %9.4f]  %9.3e samples/s  %@",
                m.name, m.median, m.min, m.max, sps, ratioText))
    }
    fflush(nil)
}

var alone: [String: Measurement] = [:]
var paired: [String: PairedMeasurement] = [:]
var referencePrinted = Set<String>()
@MainActor func measureAlone(_ name: String) -> Measurement {
    if let m = alone[name] { return m }
    let m = measure(timed(name), policy: policy)
    alone[name] = m
    emit(m, reference: nil, pairs: nil, info: [:])
    return m
}
for c in selected {
    guard let r = c.reference else {
        // A reference kernel is reported with its first pairing; one that guards nothing selected
        // (information only, or picked by --filter) is timed on its own.
        if !pairedReferences.contains(c.name) { _ = measureAlone(c.name) }
        continue
    }
    let infoMeasurements = c.info.map { ($0, measureAlone($0)) }
    let p = measurePairs(timed(c.name), timed(r), policy: policy)
    paired[c.name] = p
    if referencePrinted.insert(r).inserted { emit(p.reference, reference: nil, pairs: nil, info: [:]) }
    var info: [String: Double] = [:]
    for (name, m) in infoMeasurements { info[name] = p.target.median / m.median }
    emit(p.target, reference: r, pairs: p, info: info)
}

if let path = options.check {
    guard let data = FileManager.default.contents(atPath: path),
        let limits = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    else {
        FileHandle.standardError.write(Data("sensorpipe-bench: cannot read thresholds '\(path)'\n".utf8))
        exit(64)
    }
    var failed = false
    for (name, value) in limits.sorted(by: { $0.key < $1.key }) {
        guard let maxRatio = (value as? NSNumber)?.doubleValue else { continue } // e.g. "_rule"
        guard let p = paired[name], let r = byName[name]?.reference else {
            if options.filter == nil {
                FileHandle.standardError.write(Data("guard: \(name) was not measured\n".utf8))
                failed = true
            }
            continue
        }
        // A median above its limit is confirmed, not retried for luck: twice as many pairs again,
        // and the median over all pairs decides (a real regression moves every pair, a burst of
        // load only some).
        var ratios = p.ratios
        if medianOf(ratios) > maxRatio {
            ratios += measurePairs(timed(name), timed(r), policy: policy, pairs: 2 * policy.minPairs).ratios
        }
        let ratio = medianOf(ratios)
        let ok = ratio <= maxRatio
        FileHandle.standardError.write(
            Data(
                String(
                    format: "guard: %@ ratio %.3f (max %.3f, median of %d pairs against %@) %@\n",
                    name, ratio, maxRatio, ratios.count, r, ok ? "ok" : "REGRESSED"
                ).utf8))
        if !ok { failed = true }
    }
    if failed {
        FileHandle.standardError.write(Data("sensorpipe-bench: a guarded ratio regressed\n".utf8))
        exit(1)
    }
}
