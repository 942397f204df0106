import DSP

/// Polyphase resampling 512 Hz → 128 Hz (by 1/4, 81-tap Kaiser low-pass) of a day-long Float
/// signal, against one pass of the scalar SOS loop over the same input samples
/// (``referenceSOSPass``), with `memcpy` of the same bytes as information.
func resampleBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let n = scale.dayAt512Hz
    let reference = sosReferenceName
    return [
        BenchmarkCase(
            name: "resample/poly-512-to-128/day512/float", samples: n, bytes: n * 4,
            reference: reference, info: [memcpyDayName]
        ) {
            let resampler = PolyphaseResampler<Float>(up: 128, down: 512)
            let x = syntheticSignal(count: n, sampleRate: 512)
            var y = [Float](repeating: 0, count: resampler.outputCount(forInputCount: n))
            return {
                x.withUnsafeBufferPointer { xb in
                    y.withUnsafeMutableBufferPointer { resampler.apply(xb, into: $0) }
                }
                blackHole(y)
            }
        }
    ]
}
