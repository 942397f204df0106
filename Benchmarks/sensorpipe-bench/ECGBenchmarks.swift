import Cardio
import DSP
import Foundation

/// R-peak detection on a day of 512 Hz ECG (44,236,800 samples), fed in one-minute blocks,
/// against one pass of the scalar SOS loop over the same number of samples (``referenceSOSPass``:
/// the detector's band-pass is about that much work), with `memcpy` of the same bytes as
/// information (one pass over the input: the floor of any streaming stage).
///
/// The signal is built in set-up from the committed 30 s MIT-BIH excerpt
/// (`Tests/CardioTests/Fixtures/rpeaks/mitdb119_360.npy`, record 119, ODC-By 1.0: Moody & Mark
/// 2001; Goldberger et al. 2000), resampled to 512 Hz with `PolyphaseResampler` and tiled with a
/// slowly varying gain (0.6–1.4), 0.2 Hz baseline wander and deterministic white noise, so
/// thresholds keep adapting and no two tiles are identical. Peers on the same workload
/// (`scripts/ecg/compare-detectors.py`): sleepecg 1.43 s (C detector), NeuroKit2 6.4 s.
func ecgBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let count = scale.dayAt512Hz
    let reference = sosReferenceName
    return [
        BenchmarkCase(
            name: "ecg/rpeaks/day512/float", samples: count, bytes: count * 4, reference: reference,
            info: [memcpyDayName]
        ) {
            let signal = ecgDay(count: count)
            let block = 512 * 60
            var peaks = [Int]()
            peaks.reserveCapacity(count / 512 * 4)
            return {
                peaks.removeAll(keepingCapacity: true)
                var detector = RPeakDetector(sampleRate: 512)
                signal.withUnsafeBufferPointer { x in
                    var start = 0
                    while start < count {
                        let k = min(block, count - start)
                        detector.process(UnsafeBufferPointer(rebasing: x[start..<start + k]), flags: nil, into: &peaks)
                        start += k
                    }
                }
                detector.finish(into: &peaks)
                // 36 beats per 30 s tile (32 annotated beats at ~64–72 bpm): sanity bound only.
                precondition(
                    peaks.count > count / 512 / 2 && peaks.count < count / 512 * 3,
                    "ecg benchmark: \(peaks.count) beats in \(count) samples")
                blackHole(peaks)
            }
        },
        // Beat classification alone on the detector's peaks (found in set-up), as a ratio to the
        // R-peak detection above: the classifier's own cost.
        BenchmarkCase(
            name: "ecg/beats/day512/float", samples: count, bytes: count * 4,
            reference: "ecg/rpeaks/day512/float"
        ) {
            let signal = ecgDay(count: count)
            let peaks = RPeakDetector.detect(signal, sampleRate: 512)
            var beats = [ClassifiedBeat]()
            beats.reserveCapacity(peaks.count)
            return {
                beats.removeAll(keepingCapacity: true)
                var classifier = BeatClassifier(sampleRate: 512)
                let block = 512 * 60
                var next = 0
                signal.withUnsafeBufferPointer { x in
                    var start = 0
                    while start < count {
                        let k = min(block, count - start)
                        var end = next
                        while end < peaks.count && peaks[end] < start + k { end += 1 }
                        classifier.process(
                            UnsafeBufferPointer(rebasing: x[start..<start + k]), flags: nil,
                            peaks: Array(peaks[next..<end]), into: &beats)
                        next = end
                        start += k
                    }
                }
                classifier.finish(into: &beats)
                precondition(beats.count == peaks.count, "beat benchmark: \(beats.count) beats for \(peaks.count) peaks")
                blackHole(beats)
            }
        },
    ]
}

/// The committed MIT-BIH excerpt (float32 `.npy`, mV, 360 Hz) tiled to `count` samples at 512 Hz.
func ecgDay(count: Int) -> [Float] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/CardioTests/Fixtures/rpeaks/mitdb119_360.npy")
    guard let data = try? Data(contentsOf: url), data.count > 10 else {
        fatalError("ecg benchmark: cannot read \(url.path)")
    }
    let bytes = [UInt8](data)
    let headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
    let start = 10 + headerLength
    let n = (bytes.count - start) / 4
    let excerpt: [Float] = bytes.withUnsafeBytes { raw in
        (0..<n).map { raw.loadUnaligned(fromByteOffset: start + 4 * $0, as: Float.self) }
    }
    let tile = PolyphaseResampler<Float>(up: 64, down: 45).apply(excerpt)
    var out = [Float](repeating: 0, count: count)
    var state: UInt64 = 0x1234_5678
    for i in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let noise = Float(Int64(bitPattern: state) >> 40) / Float(1 << 23) // uniform in [−1, 1)
        let t = Double(i) / 512
        let gain = Float(1 + 0.4 * sin(2 * Double.pi * t / 600))
        let wander = Float(0.3 * sin(2 * Double.pi * 0.2 * t))
        out[i] = gain * tile[i % tile.count] + wander + 0.02 * noise
    }
    return out
}
