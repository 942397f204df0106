import DSP
import Foundation

// sensorpipe-bench: the performance guard of SensorPipe's numerical core.
//
// Every figure is reported as a ratio against a reference kernel measured in the same run
// (FFTW's own transform at the same size, or memcpy of the same bytes), because the machines
// are shared and noisy. Always run a release build: `swift run -c release sensorpipe-bench`.

let usage = """
    USAGE: sensorpipe-bench [--list] [--filter REGEX] [--quick] [--json] [--check THRESHOLDS.json]
           sensorpipe-bench --batch [--megabytes MB] [--quick] [--json] [--check BATCH-THRESHOLDS.json]

    OPTIONS:
      --list            list benchmark names and exit
      --filter REGEX    run only benchmarks whose name matches REGEX (their references run too)
      --quick           reduced workloads (1/16 of the day-long signals) for CI
      --json            one JSON object per line: name, samples, median_seconds, min_seconds,
                        max_seconds, samples_per_second, mb_per_second, reference, ratio, runs
      --check FILE      compare ratios with the maxima in FILE ({"name": maxRatio, …});
                        exit 1 if any guarded ratio is above its maximum
      --measure         plan FFTs with FFTW_MEASURE instead of FFTW_ESTIMATE
      --batch           the whole-pipeline benchmark: `sensorpipe run` (the executable beside this
                        one) over Datasets/ linked until 1 GB (48 MB with --quick, or --megabytes),
                        --jobs 1 and 2: MB/s, hours of signal/s, scaling, peak RSS, zlib reference
      -h, --help        show this help
    """

struct Options {
    var list = false
    var filter: String?
    var quick = false
    var json = false
    var check: String?
    var measurePlans = false
    var batch = false
    var megabytes: Double?
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
if options.batch {
    exit(runBatchBenchmark(quick: options.quick, json: options.json, check: options.check, targetMegabytes: options.megabytes))
}
if options.measurePlans { FFTPlanner.rigor = .measure }
let scale: BenchmarkScale = options.quick ? .quick : .full
let all = allBenchmarks(scale)

if options.list {
    for c in all { print(c.name + (c.reference.map { "  (reference: \($0))" } ?? "")) }
    exit(0)
}

var selected = all
if let f = options.filter {
    guard let regex = try? NSRegularExpression(pattern: f) else {
        FileHandle.standardError.write(Data("sensorpipe-bench: invalid --filter regex '\(f)'\n".utf8))
        exit(64)
    }
    let wanted = Set(all.filter {
        regex.firstMatch(in: $0.name, range: NSRange($0.name.startIndex..., in: $0.name)) != nil
    }.flatMap { [$0.name] + ($0.reference.map { [$0] } ?? []) })
    selected = all.filter { wanted.contains($0.name) }
}
if selected.isEmpty {
    FileHandle.standardError.write(Data("sensorpipe-bench: no benchmark matches\n".utf8))
    exit(64)
}

var results: [String: Measurement] = [:]
var ratios: [String: Double] = [:]
for c in selected {
    let m = measure(c, minRuns: options.quick ? 3 : 5, maxRuns: 50, minSeconds: options.quick ? 0.3 : 1.0)
    results[c.name] = m
    var ratio: Double? = nil
    if let r = c.reference, let ref = results[r] { ratio = m.median / ref.median }
    if let ratio { ratios[c.name] = ratio }
    let sps = Double(m.samples) / m.median
    let mbps = m.bytes > 0 ? Double(m.bytes) / m.median / 1e6 : nil
    if options.json {
        var obj: [String: Any] = [
            "name": m.name, "samples": m.samples, "median_seconds": m.median,
            "min_seconds": m.min, "max_seconds": m.max, "samples_per_second": sps,
            "runs": m.runs.count, "reference": c.reference ?? NSNull(), "ratio": ratio ?? NSNull(),
        ]
        if let mbps { obj["mb_per_second"] = mbps }
        let data = try! JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .withoutEscapingSlashes])
        print(String(decoding: data, as: UTF8.self))
    } else {
        let ratioText = ratio.map { String(format: "%7.3f× %@", $0, c.reference!) } ?? "(reference)"
        print(String(format: "%-48@ median %9.4f s  [%9.4f … %9.4f]  %9.3e samples/s  %@",
                     m.name, m.median, m.min, m.max, sps, ratioText))
    }
    fflush(nil)
}

if let path = options.check {
    guard let data = FileManager.default.contents(atPath: path),
          let limits = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
        FileHandle.standardError.write(Data("sensorpipe-bench: cannot read thresholds '\(path)'\n".utf8))
        exit(64)
    }
    var failed = false
    for (name, value) in limits.sorted(by: { $0.key < $1.key }) {
        guard let maxRatio = (value as? NSNumber)?.doubleValue else { continue }
        guard var ratio = ratios[name] else {
            if options.filter == nil {
                FileHandle.standardError.write(Data("guard: \(name) was not measured\n".utf8))
                failed = true
            }
            continue
        }
        // A ratio above its limit is measured twice more (case and reference, back to back) and
        // the best of the three counts: a real regression persists, a burst of load does not.
        var attempt = 1
        while ratio > maxRatio && attempt < 3, let c = selected.first(where: { $0.name == name }),
              let refName = c.reference, let r = selected.first(where: { $0.name == refName }) {
            let minRuns = options.quick ? 3 : 5, minSeconds = options.quick ? 0.3 : 1.0
            let again = measure(r, minRuns: minRuns, maxRuns: 50, minSeconds: minSeconds)
            let mine = measure(c, minRuns: minRuns, maxRuns: 50, minSeconds: minSeconds)
            ratio = min(ratio, mine.median / again.median)
            attempt += 1
        }
        let ok = ratio <= maxRatio
        FileHandle.standardError.write(Data(String(format: "guard: %@ ratio %.3f (max %.3f, best of %d) %@\n",
                                                    name, ratio, maxRatio, attempt, ok ? "ok" : "REGRESSED").utf8))
        if !ok { failed = true }
    }
    if failed {
        FileHandle.standardError.write(Data("sensorpipe-bench: a guarded ratio regressed\n".utf8))
        exit(1)
    }
}
