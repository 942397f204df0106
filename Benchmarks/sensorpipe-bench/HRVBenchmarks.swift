import Cardio
import DSP
import Foundation

/// A day of NN intervals (ms): circadian swing (night ~1000 ms, day ~700 ms), LF (0.1 Hz) and
/// respiratory HF modulation, an AR(1) VLF component and white noise; deterministic.
func syntheticDayNN(hours: Double) -> [Double] {
    var state: UInt64 = 0x243F_6A88_85A3_08D3
    func uniform() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    func normal() -> Double {
        let u = max(uniform(), 1e-300), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
    var nn = [Double]()
    var t = 0.0, walk = 0.0
    let end = hours * 3600
    while t < end {
        let circadian = 850 + 150 * cos(2 * Double.pi * t / 86_400)
        walk = 0.995 * walk + 3 * normal()
        let value = circadian + 30 * sin(2 * Double.pi * 0.1 * t) + 20 * sin(2 * Double.pi * 0.27 * t)
            + walk + 8 * normal()
        nn.append(value)
        t += value / 1000
    }
    return nn
}

/// HRV of a day of beats (~100 k NN intervals): the whole recording (time, Welch frequency and
/// non-linear domains including SampEn, ApEn and DFA) plus every 5-minute window, against the
/// Welch PSD of the same day resampled at 100 Hz (the whole-recording spectral step alone).
func hrvBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let hours = scale == .full ? 24.0 : 24.0 / 16
    let nn = syntheticDayNN(hours: hours)
    let series = try! NNIntervalSeries(intervalsMilliseconds: nn)
    let ref = "hrv/welch-resampled/day"
    let resampledCount = Int(hours * 3600 * 100)
    return [
        BenchmarkCase(name: ref, samples: resampledCount, bytes: resampledCount * 8, reference: nil) {
            var x = [Double](repeating: 0, count: resampledCount)
            for i in x.indices { x[i] = nn[i % nn.count] }
            let half = resampledCount / 2
            let welch = Welch(segmentLength: half, window: .hann, detrend: .none, fftLength: 2 * half,
                              sampleRate: 100)
            return { blackHole(try! welch.estimate(x)) }
        },
        BenchmarkCase(name: "hrv/all/day", samples: nn.count, bytes: nn.count * 8, reference: ref) {
            let analysis = HRVAnalysis()
            return {
                blackHole(analysis.metrics(series))
                blackHole(analysis.windows(series))
            }
        },
        BenchmarkCase(name: "hrv/whole/day", samples: nn.count, bytes: nn.count * 8, reference: ref) {
            let analysis = HRVAnalysis()
            return { blackHole(analysis.metrics(series)) }
        },
        BenchmarkCase(name: "hrv/windows-5min/day", samples: nn.count, bytes: nn.count * 8, reference: ref) {
            let analysis = HRVAnalysis()
            return { blackHole(analysis.windows(series)) }
        },
        BenchmarkCase(name: "hrv/nonlinear/day", samples: nn.count, bytes: nn.count * 8, reference: ref) {
            return { blackHole(try! HRVNonlinear(series)) }
        },
        BenchmarkCase(name: "hrv/frequency-welch/day", samples: nn.count, bytes: nn.count * 8, reference: ref) {
            return { blackHole(try! HRVFrequencyDomain(series)) }
        },
    ]
}

func hrvProbeTiming() {
    let nn = syntheticDayNN(hours: 24)
    let series = try! NNIntervalSeries(intervalsMilliseconds: nn)
    let t = series.closingBeatTimesSeconds
    let n = Int(((t[t.count - 1] + 0.01 - t[0]) / 0.01).rounded(.up))
    print("beats", nn.count, "N", n, "nperseg", n / 2)
    func cpu() -> Double { var ts = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9 }
    func time(_ label: String, _ body: () -> Void) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let c0 = cpu()
        body()
        print(label, "wall", Double(DispatchTime.now().uptimeNanoseconds - t0) * 1e-9, "cpu", cpu() - c0)
    }
    if CommandLine.arguments.contains("--windows-only") {
        for _ in 0..<3 { time("windows") { blackHole(HRVAnalysis().windows(series)) } }
        return
    }
    if CommandLine.arguments.contains("--frequency-only") {
        for _ in 0..<3 { time("frequency") { blackHole(try! HRVFrequencyDomain(series)) } }
        return
    }
    if CommandLine.arguments.contains("--nonlinear-only") {
        for _ in 0..<3 { time("nonlinear") { blackHole(try! HRVNonlinear(series)) } }
        return
    }
    for _ in 0..<2 {
        time("time-domain") { blackHole(HRVTimeDomain(series)) }
        time("frequency") { blackHole(try! HRVFrequencyDomain(series)) }
        time("nonlinear-default") { blackHole(try! HRVNonlinear(series)) }
        time("nonlinear-noDFA2") { blackHole(try! HRVNonlinear(series, options: .init(dfaLongScales: 12...13))) }
        time("windows") { blackHole(HRVAnalysis().windows(series)) }
        let x = [Double](repeating: 1, count: n)
        let half = n / 2
        time("welch-only") { blackHole(try! Welch(segmentLength: half, window: .hann, detrend: .none, fftLength: 2 * half, sampleRate: 100).estimate(x)) }
        let half2 = 4_320_000
        let x2 = [Double](repeating: 1, count: 2 * half2)
        time("welch-smooth") { blackHole(try! Welch(segmentLength: half2, window: .hann, detrend: .none, fftLength: 2 * half2, sampleRate: 100).estimate(x2)) }
    }
}

func hrvProbeFFT() {
    for n in [8_640_000, 8_639_972, 2 * 4_320_061] {
        let fft = RealFFT<Double>(count: n)
        var x = [Double](repeating: 1, count: n)
        for i in x.indices { x[i] = Double(i % 17) }
        var out = [Double](repeating: 0, count: 2 * (n / 2 + 1))
        for _ in 0..<2 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            x.withUnsafeBufferPointer { xp in out.withUnsafeMutableBufferPointer { op in fft.forward(xp.baseAddress!, into: op.baseAddress!) } }
            print("fft", n, Double(DispatchTime.now().uptimeNanoseconds - t0) * 1e-9)
        }
    }
}
