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
        let value =
            circadian + 30 * sin(2 * Double.pi * 0.1 * t) + 20 * sin(2 * Double.pi * 0.27 * t)
            + walk + 8 * normal()
        nn.append(value)
        t += value / 1000
    }
    return nn
}

/// HRV of a day of beats (~100 k NN intervals): the whole recording (time, Welch frequency and
/// non-linear domains including SampEn, ApEn and DFA) plus every 5-minute window, against raw FFTW
/// forward transforms of what a Welch PSD of a 100 Hz series as long as the day costs (segment
/// N/2, FFT length N, 3 segments: what the whole-recording spectrum of NeuroKit2's pipeline costs
/// with a plain FFT of a smooth length). DSP's own Welch of that series is reported beside it as
/// information (it was the reference until the guard was made independent of code under test).
func hrvBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let hours = scale == .full ? 24.0 : 24.0 / 16
    let nn = syntheticDayNN(hours: hours)
    let series = try! NNIntervalSeries(intervalsMilliseconds: nn)
    let ref = "fftw/r2c/welch-resampled/day"
    let info = ["hrv/welch-resampled/day"]
    let resampledCount = Int(hours * 3600 * 100)
    let half = resampledCount / 2
    let segments = (resampledCount - half) / (half / 2) + 1
    return [
        fftwForwardReferenceCase(n: 2 * half, count: segments, name: ref),
        BenchmarkCase(name: info[0], samples: resampledCount, bytes: resampledCount * 8, reference: nil) {
            var x = [Double](repeating: 0, count: resampledCount)
            for i in x.indices { x[i] = nn[i % nn.count] }
            let welch = Welch(
                segmentLength: half, window: .hann, detrend: .none, fftLength: 2 * half,
                sampleRate: 100)
            return { blackHole(try! welch.estimate(x)) }
        },
        BenchmarkCase(name: "hrv/all/day", samples: nn.count, bytes: nn.count * 8, reference: ref, info: info) {
            let analysis = HRVAnalysis()
            return {
                blackHole(analysis.metrics(series))
                blackHole(analysis.windows(series))
            }
        },
        BenchmarkCase(name: "hrv/whole/day", samples: nn.count, bytes: nn.count * 8, reference: ref, info: info) {
            let analysis = HRVAnalysis()
            return { blackHole(analysis.metrics(series)) }
        },
        BenchmarkCase(name: "hrv/windows-5min/day", samples: nn.count, bytes: nn.count * 8, reference: ref, info: info) {
            let analysis = HRVAnalysis()
            return { blackHole(analysis.windows(series)) }
        },
        BenchmarkCase(name: "hrv/nonlinear/day", samples: nn.count, bytes: nn.count * 8, reference: ref, info: info) {
            return { blackHole(try! HRVNonlinear(series)) }
        },
        BenchmarkCase(name: "hrv/frequency-welch/day", samples: nn.count, bytes: nn.count * 8, reference: ref, info: info) {
            return { blackHole(try! HRVFrequencyDomain(series)) }
        },
    ]
}
