import DSP

/// IIR (second-order sections): zero-phase and causal order-4 Butterworth band-pass
/// (0.5–40 Hz at 512 Hz, 4 sections, as `scipy.signal.butter(4, [0.5, 40], 'band', fs=512)`)
/// over a day of 512 Hz Float samples, against one pass of the benchmark's own scalar SOS loop
/// over the same samples (``referenceSOSPass``; sosfilt ≈ 1×, sosfiltfilt ≈ 2× plus padding), with
/// `memcpy` of the same bytes as information.
func iirBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let n = scale.dayAt512Hz
    let reference = sosReferenceName
    let sos = try! ButterworthDesign(order: 4, band: .bandPass(low: 0.5, high: 40), sampleRate: 512).sos
    return [
        BenchmarkCase(
            name: "iir/sosfiltfilt-bandpass-4/day512/float", samples: n, bytes: n * 4,
            reference: reference, info: [memcpyDayName]
        ) {
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
        BenchmarkCase(
            name: "iir/sosfilt-bandpass-4/day512/float", samples: n, bytes: n * 4,
            reference: reference, info: [memcpyDayName]
        ) {
            let x = syntheticSignal(count: n)
            var y = [Float](repeating: 0, count: n)
            return {
                var filter = SOSFilter<Float>(sos)
                x.withUnsafeBufferPointer { xb in
                    y.withUnsafeMutableBufferPointer { yb in
                        filter.process(xb.baseAddress!, into: yb.baseAddress!, count: n)
                    }
                }
                blackHole(y)
            }
        },
    ]
}
