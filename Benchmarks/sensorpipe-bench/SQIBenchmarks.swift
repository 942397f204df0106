import Cardio
import DSP

/// ECG signal quality: `ECGQuality.assess` (10-s windows: moments, Welch pSQI/basSQI, the Elgendi
/// second detector, bSQI, Orphanidou template match, Zhao & Zhang fusion) and the Elgendi (2013)
/// detector alone, over a day of 512 Hz Float samples with R-peaks every second, against one pass
/// of the benchmark's own scalar SOS loop over the same samples (``referenceSOSPass``: one
/// filtering pass, the cheapest stage an ECG chain has anyway; it was DSP's zero-phase filter,
/// which is code under test, until the guard was made independent of it).
func sqiBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let n = scale.dayAt512Hz
    let reference = sosReferenceName
    return [
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
