import CFFTW
import DSP
import Foundation

/// Synthetic test signal: three sines plus counter-based (SplitMix64) noise, so that
/// `scripts/compare-peers.py` can regenerate exactly the same samples with NumPy:
/// `x[i] = 0.6 sin(2π·1.2t) + 0.3 sin(2π·17t) + 0.2 sin(2π·0.15t) + 0.1 u[i]`, `t = i / sampleRate`,
/// `u[i] = (splitmix64(seed + i) >> 11) / 2^53 * 2 − 1` (uniform in [−1, 1)).
func syntheticSignal(count: Int, sampleRate: Double = 512, seed: UInt64 = 1) -> [Float] {
    var out = [Float](repeating: 0, count: count)
    for i in 0..<count {
        var z = (seed &+ UInt64(i)) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z = z ^ (z >> 31)
        let noise = Double(z >> 11) / 9_007_199_254_740_992.0 * 2 - 1
        let t = Double(i) / sampleRate
        out[i] = Float(
            0.6 * sin(2 * .pi * 1.2 * t) + 0.3 * sin(2 * .pi * 17 * t)
                + 0.2 * sin(2 * .pi * 0.15 * t) + 0.1 * noise)
    }
    return out
}

/// Raw FFTW forward+inverse real transform, `blocks` times at size `n`: the reference kernel for
/// FFT-based stages, called through the C API directly (no SensorPipe code in the loop).
func fftwReferenceCase(n: Int, blocks: Int, float: Bool, name: String) -> BenchmarkCase {
    BenchmarkCase(name: name, samples: n * blocks, bytes: n * blocks * (float ? 4 : 8), reference: nil) {
        if float {
            let a = fftwf_alloc_real(n)!, b = fftwf_alloc_complex(n / 2 + 1)!
            for i in 0..<n { a[i] = Float(i % 7) }
            let fwd = fftwf_plan_dft_r2c_1d(Int32(n), a, b, UInt32(FFTW_ESTIMATE))!
            let inv = fftwf_plan_dft_c2r_1d(Int32(n), b, a, UInt32(FFTW_ESTIMATE))!
            return {
                for _ in 0..<blocks {
                    fftwf_execute_dft_r2c(fwd, a, b)
                    fftwf_execute_dft_c2r(inv, b, a)
                }
                blackHole(a)
            }
        } else {
            let a = fftw_alloc_real(n)!, b = fftw_alloc_complex(n / 2 + 1)!
            for i in 0..<n { a[i] = Double(i % 7) }
            let fwd = fftw_plan_dft_r2c_1d(Int32(n), a, b, UInt32(FFTW_ESTIMATE))!
            let inv = fftw_plan_dft_c2r_1d(Int32(n), b, a, UInt32(FFTW_ESTIMATE))!
            return {
                for _ in 0..<blocks {
                    fftw_execute_dft_r2c(fwd, a, b)
                    fftw_execute_dft_c2r(inv, b, a)
                }
                blackHole(a)
            }
        }
    }
}

/// Real FFT forward+inverse through `RealFFT`, against raw FFTW at the same size.
func fftBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    var cases = [BenchmarkCase]()
    for log2n in [16, 20] {
        let n = 1 << log2n
        // 2^24 samples' worth of transforms per run (2^21 in quick mode).
        let blocks = max(1, (scale == .full ? 1 << 24 : 1 << 21) / n)
        for float in [true, false] {
            let p = float ? "float" : "double"
            let ref = "fftw/r2c+c2r/\(n)/\(p)"
            cases.append(fftwReferenceCase(n: n, blocks: blocks, float: float, name: ref))
            cases.append(
                BenchmarkCase(
                    name: "fft/real-forward-inverse/\(n)/\(p)", samples: n * blocks,
                    bytes: n * blocks * (float ? 4 : 8), reference: ref
                ) {
                    if float {
                        let fft = RealFFT<Float>(count: n)
                        var x = [Float](repeating: 0, count: n)
                        for i in 0..<n { x[i] = Float(i % 7) }
                        var spec = [Float](repeating: 0, count: fft.spectrumCount)
                        return {
                            x.withUnsafeMutableBufferPointer { xb in
                                spec.withUnsafeMutableBufferPointer { sb in
                                    for _ in 0..<blocks {
                                        fft.forward(xb.baseAddress!, into: sb.baseAddress!)
                                        fft.inverse(destroying: sb.baseAddress!, into: xb.baseAddress!)
                                    }
                                }
                            }
                            blackHole(x)
                        }
                    } else {
                        let fft = RealFFT<Double>(count: n)
                        var x = [Double](repeating: 0, count: n)
                        for i in 0..<n { x[i] = Double(i % 7) }
                        var spec = [Double](repeating: 0, count: fft.spectrumCount)
                        return {
                            x.withUnsafeMutableBufferPointer { xb in
                                spec.withUnsafeMutableBufferPointer { sb in
                                    for _ in 0..<blocks {
                                        fft.forward(xb.baseAddress!, into: sb.baseAddress!)
                                        fft.inverse(destroying: sb.baseAddress!, into: xb.baseAddress!)
                                    }
                                }
                            }
                            blackHole(x)
                        }
                    }
                })
        }
    }
    return cases
}
