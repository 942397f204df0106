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
    /// Name of the reference case that this case is measured interleaved with (the ratio is the
    /// median of per-pair ratios, see ``measurePairs``); `nil` for reference kernels themselves.
    /// Guarded references are compute-bound kernels whose cost scales like the case's work.
    var reference: String?
    /// Further references whose ratio is reported as information only (e.g. `memcpy` of the same
    /// bytes): measured on their own, not interleaved, never guarded.
    var info: [String] = []
    /// Runs the set-up (allocation, planning, signal synthesis) and returns the timed closure.
    var setUp: () -> () -> Void
    /// When the sizes are known only once the set-up has run (a synthesised input file):
    /// returns them then, replacing ``samples`` and ``bytes``.
    var sizesAfterSetUp: (() -> (samples: Int, bytes: Int))? = nil
}

/// Wall and CPU time of the process, read together.
struct Stopwatch {
    var wall: UInt64
    var cpu: UInt64

    static func now() -> Stopwatch {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Stopwatch(
            wall: DispatchTime.now().uptimeNanoseconds,
            cpu: UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec))
    }

    /// (wall, CPU) seconds from `self` to `later`.
    func seconds(to later: Stopwatch) -> (wall: Double, cpu: Double) {
        (Double(later.wall &- wall) * 1e-9, Double(later.cpu &- cpu) * 1e-9)
    }
}

func medianOf(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
}

struct Measurement {
    var name: String
    var samples: Int
    var bytes: Int
    /// Wall seconds of one run of the closure, per timed side (a side may run it several times).
    var runs: [Double]
    /// CPU seconds (whole process) of one run, per timed side.
    var cpuRuns: [Double]
    /// Runs of the closure in all timed sides.
    var iterations: Int
    var reference: String?
    var min: Double { runs.min() ?? .nan }
    var max: Double { runs.max() ?? .nan }
    var median: Double { medianOf(runs) }
}

/// The outcome of measuring a case interleaved with its reference.
struct PairedMeasurement {
    var target: Measurement
    var reference: Measurement
    /// target ÷ reference CPU time of the process, one per A-B pair: the guarded figure.
    var ratios: [Double]
    /// target ÷ reference wall time, one per pair (information: on a shared machine it also
    /// carries the time the scheduler gave other processes, which CPU time does not).
    var wallRatios: [Double]
    /// Median of the CPU-time pair ratios.
    var ratio: Double { medianOf(ratios) }
    var wallRatio: Double { medianOf(wallRatios) }
}

/// The injected slowdown of the guard's self-test: `SENSORPIPE_BENCH_SLOWDOWN=REGEX` runs the
/// timed closure of every non-reference case whose name matches REGEX
/// `SENSORPIPE_BENCH_SLOWDOWN_FACTOR` times (default 2) per timed run, i.e. exactly that much more
/// of the same work. Honoured only by sensorpipe-bench; the library never reads it.
let injectedSlowdown: (regex: NSRegularExpression, factor: Int)? = {
    let env = ProcessInfo.processInfo.environment
    guard let pattern = env["SENSORPIPE_BENCH_SLOWDOWN"], !pattern.isEmpty else { return nil }
    guard let regex = try? NSRegularExpression(pattern: pattern) else {
        FileHandle.standardError.write(Data("sensorpipe-bench: invalid SENSORPIPE_BENCH_SLOWDOWN regex '\(pattern)'\n".utf8))
        exit(64)
    }
    let factor = env["SENSORPIPE_BENCH_SLOWDOWN_FACTOR"].flatMap { Int($0) } ?? 2
    guard factor >= 1 else {
        FileHandle.standardError.write(Data("sensorpipe-bench: SENSORPIPE_BENCH_SLOWDOWN_FACTOR must be ≥ 1\n".utf8))
        exit(64)
    }
    FileHandle.standardError.write(Data("sensorpipe-bench: injected slowdown ×\(factor) for cases matching '\(pattern)'\n".utf8))
    return (regex, factor)
}()

/// How many times the slowdown self-test repeats the named case's work per run (1 normally).
func slowdownFactor(for name: String) -> Int {
    guard let s = injectedSlowdown,
        s.regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    else { return 1 }
    return s.factor
}

/// A set-up case ready to time: its closure, and how many runs of it make one timed side.
final class TimedBody {
    let benchmark: BenchmarkCase
    let body: () -> Void
    let repeats: Int
    /// Wall seconds the set-up took (signal synthesis, files, plans): not timed, but guard time.
    let setUpSeconds: Double
    /// Runs of `body` per timed side, so that a side lasts at least the harness's minimum side
    /// time (a side much shorter than a scheduler time slice would miss the load the other side
    /// sees).
    var iterations = 1
    private(set) var calibrated = false

    init(_ c: BenchmarkCase) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        body = c.setUp()
        setUpSeconds = Double(DispatchTime.now().uptimeNanoseconds - t0) * 1e-9
        var sized = c
        if let sizes = c.sizesAfterSetUp { (sized.samples, sized.bytes) = sizes() }
        benchmark = sized
        repeats = c.reference == nil ? 1 : slowdownFactor(for: c.name)
    }

    /// One warm-up run (page-in, plan caches, branch predictors), which also sets `iterations`.
    func calibrate(minSideSeconds: Double) {
        guard !calibrated else { return }
        calibrated = true
        let t = time(iterations: 1).wall
        iterations = t >= minSideSeconds ? 1 : Swift.min(1000, Int((minSideSeconds / Swift.max(t, 1e-7)).rounded(.up)))
    }

    /// Seconds per run (wall, CPU) of `iterations` back-to-back runs.
    func time(iterations n: Int) -> (wall: Double, cpu: Double) {
        let t0 = Stopwatch.now()
        for _ in 0..<n {
            for _ in 0..<repeats { body() }
        }
        let s = t0.seconds(to: Stopwatch.now())
        return (s.wall / Double(n), s.cpu / Double(n))
    }

    func timeSide() -> (wall: Double, cpu: Double) { time(iterations: iterations) }
}

/// How long the harness measures.
struct MeasurementPolicy {
    /// Least number of timed sides (unpaired) or A-B pairs.
    var minPairs: Int
    var maxPairs: Int
    /// Stop once this many seconds have been spent and `minPairs` are done.
    var minSeconds: Double
    /// A timed side runs the closure until at least this long (see ``TimedBody/iterations``).
    var minSideSeconds: Double

    static func `for`(_ scale: BenchmarkScale) -> MeasurementPolicy {
        scale == .quick
            ? MeasurementPolicy(minPairs: 7, maxPairs: 25, minSeconds: 0.25, minSideSeconds: 0.03)
            : MeasurementPolicy(minPairs: 7, maxPairs: 51, minSeconds: 1.0, minSideSeconds: 0.05)
    }
}

/// Times a case on its own: warm-up, then timed sides until `minPairs` sides and `minSeconds`.
func measure(_ t: TimedBody, policy p: MeasurementPolicy) -> Measurement {
    t.calibrate(minSideSeconds: p.minSideSeconds)
    var wall = [Double](), cpu = [Double]()
    let started = DispatchTime.now().uptimeNanoseconds
    while wall.count < p.maxPairs {
        let s = t.timeSide()
        wall.append(s.wall)
        cpu.append(s.cpu)
        let total = Double(DispatchTime.now().uptimeNanoseconds - started) * 1e-9
        if wall.count >= p.minPairs && total >= p.minSeconds { break }
    }
    return Measurement(
        name: t.benchmark.name, samples: t.benchmark.samples, bytes: t.benchmark.bytes,
        runs: wall, cpuRuns: cpu, iterations: wall.count * t.iterations,
        reference: t.benchmark.reference)
}

/// Times a case interleaved with its reference: A B, B A, A B, … (the order alternates so that
/// neither always runs second), a ratio per pair, until `minPairs` pairs and `minSeconds`. Each
/// side is timed by the wall clock and by the process's CPU clock; the CPU-time ratio is the
/// guarded one (time-sharing with other processes drops out of it). What remains, a change of
/// clock speed, cache or memory-bandwidth contention from neighbours, lasts longer than a pair, so
/// it slows both sides of the pairs it hits and the median of the pair ratios stays put.
func measurePairs(
    _ target: TimedBody, _ reference: TimedBody, policy p: MeasurementPolicy,
    pairs: Int? = nil
) -> PairedMeasurement {
    reference.calibrate(minSideSeconds: p.minSideSeconds)
    target.calibrate(minSideSeconds: p.minSideSeconds)
    var tw = [Double](), tc = [Double](), rw = [Double](), rc = [Double]()
    let started = DispatchTime.now().uptimeNanoseconds
    let wanted = pairs ?? p.minPairs
    while tw.count < (pairs ?? p.maxPairs) {
        let r: (wall: Double, cpu: Double), t: (wall: Double, cpu: Double)
        if tw.count % 2 == 0 {
            r = reference.timeSide(); t = target.timeSide()
        } else {
            t = target.timeSide(); r = reference.timeSide()
        }
        tw.append(t.wall); tc.append(t.cpu); rw.append(r.wall); rc.append(r.cpu)
        let total = Double(DispatchTime.now().uptimeNanoseconds - started) * 1e-9
        if tw.count >= wanted && (pairs != nil || total >= p.minSeconds) { break }
    }
    func m(_ b: TimedBody, _ w: [Double], _ c: [Double]) -> Measurement {
        Measurement(
            name: b.benchmark.name, samples: b.benchmark.samples, bytes: b.benchmark.bytes,
            runs: w, cpuRuns: c, iterations: w.count * b.iterations, reference: b.benchmark.reference)
    }
    return PairedMeasurement(
        target: m(target, tw, tc), reference: m(reference, rw, rc),
        ratios: zip(tc, rc).map { $0 / $1 }, wallRatios: zip(tw, rw).map { $0 / $1 })
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
        try? FileManager.default.removeItem(
            at: FileManager.default.temporaryDirectory
                .appendingPathComponent("sensorpipe-bench-\(getpid())"))
    }
    return url
}()
