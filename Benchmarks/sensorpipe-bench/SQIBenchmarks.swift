import Cardio
import DSP

/// ECG signal quality: `ECGQuality.assess` (10-s windows: moments, Welch pSQI/basSQI, the Elgendi
/// second detector, bSQI, Orphanidou template match, Zhao & Zhang fusion) and the Elgendi (2013)
/// detector alone, over a day of 512 Hz Float samples with R-peaks every second, against a
/// zero-phase order-4 Butterworth band-pass of the same samples (one filtering pass, the cheapest
/// stage an ECG chain has anyway).
func sqiBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let n = scale.dayAt512Hz
    let reference = "iir/sosfiltfilt-bandpass-4/day512/float/sqi-reference"
    let sos = try! ButterworthDesign(order: 4, band: .bandPass(low: 0.5, high: 40), sampleRate: 512).sos
    return [
        BenchmarkCase(name: reference, samples: n, bytes: n * 4) {
            let x = syntheticSignal(count: n)
            var y = [Float](repeating: 0, count: n)
            let filter = ZeroPhaseSOSFilter(sos)
            return {
                x.withUnsafeBufferPointer { xb in
                    y.withUnsafeMutableBufferPointer { yb in try! filter.apply(xb, into: yb) }
                }
                blackHole(y)
            }
        },
        BenchmarkCase(name: "sqi/ecg-quality-10s/day512/float", samples: n, bytes: n * 4, reference: reference) {
            let x = syntheticSignal(count: n)
            let peaks = Array(stride(from: 256, to: n, by: 512))
            let quality = ECGQuality(sampleRate: 512)
            return { blackHole(quality.assess(x, rPeaks: peaks)) }
        },
        BenchmarkCase(name: "sqi/elgendi-detector/day512/float", samples: n, bytes: n * 4, reference: reference) {
            let x = syntheticSignal(count: n)
            let detector = ElgendiQRSDetector(sampleRate: 512)
            return { blackHole(detector.detect(x)) }
        },
    ]
}
