import Foundation

/// How large the workloads are: `full` is the documented workload (e.g. 24 h at 512 Hz),
/// `quick` a reduced one for CI guards (ratios stay meaningful, run time drops).
enum BenchmarkScale {
    case full, quick

    /// Samples in "24 h of 512 Hz signal" at this scale (44,236,800 full; 1/16 of that quick).
    var dayAt512Hz: Int { self == .full ? 44_236_800 : 44_236_800 / 16 }
}

/// One benchmark: a named workload, set up outside the timed region.
struct BenchmarkCase {
    /// Stable name, `area/what/size/precision`, e.g. `fir/bandpass-1025/day512/float`.
    var name: String
    /// Elements (samples) processed by one run of the timed closure.
    var samples: Int
    /// Bytes of input processed by one run (for MB/s); 0 if not meaningful.
    var bytes: Int = 0
    /// Name of the reference case measured in the same run (ratio = median ÷ reference median);
    /// `nil` for reference kernels themselves.
    var reference: String?
    /// Runs the set-up (allocation, planning, signal synthesis) and returns the timed closure.
    var setUp: () -> () -> Void
}

struct Measurement {
    var name: String
    var samples: Int
    var bytes: Int
    var runs: [Double]
    var reference: String?
    var min: Double { runs.min() ?? .nan }
    var max: Double { runs.max() ?? .nan }
    var median: Double {
        let s = runs.sorted()
        return s.isEmpty ? .nan : (s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2]))
    }
}

/// Times a benchmark: one warm-up run, then repeated runs until `minRuns` runs and at least
/// `minSeconds` have elapsed (capped at `maxRuns`).
func measure(_ c: BenchmarkCase, minRuns: Int, maxRuns: Int, minSeconds: Double) -> Measurement {
    let body = c.setUp()
    body()  // warm-up: page-in, plan caches, branch predictors
    var runs = [Double]()
    let started = DispatchTime.now().uptimeNanoseconds
    while runs.count < maxRuns {
        let t0 = DispatchTime.now().uptimeNanoseconds
        body()
        let t1 = DispatchTime.now().uptimeNanoseconds
        runs.append(Double(t1 - t0) * 1e-9)
        let total = Double(t1 - started) * 1e-9
        if runs.count >= minRuns && total >= minSeconds { break }
    }
    return Measurement(name: c.name, samples: c.samples, bytes: c.bytes, runs: runs, reference: c.reference)
}

/// Keeps a value alive and opaque to the optimiser so timed work is not removed.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The process's scratch folder for benchmark inputs written in set-up
/// (`$TMPDIR/sensorpipe-bench-<pid>`), removed when the process exits.
let benchmarkScratch: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sensorpipe-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit {
        try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory
            .appendingPathComponent("sensorpipe-bench-\(getpid())"))
    }
    return url
}()
