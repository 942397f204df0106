import CFFTW
import DSP

/// Raw FFTW forward real transforms (`fftw_execute_dft_r2c`, double, FFTW_ESTIMATE), `count`
/// times at size `n`, on one aligned buffer: the FFT floor of a Welch PSD with that many
/// segments. Forward only (a PSD needs no inverse), so it is not `fftwReferenceCase`.
func fftwForwardReferenceCase(n: Int, count: Int, name: String) -> BenchmarkCase {
    BenchmarkCase(name: name, samples: n * count, bytes: n * count * 8, reference: nil) {
        let a = fftw_alloc_real(n)!, b = fftw_alloc_complex(n / 2 + 1)!
        for i in 0..<n { a[i] = Double(i % 7) }
        let plan = fftw_plan_dft_r2c_1d(Int32(n), a, b, UInt32(FFTW_ESTIMATE))!
        return {
            for _ in 0..<count { fftw_execute_dft_r2c(plan, a, b) }
            blackHole(b)
        }
    }
}

/// Welch PSD of a day of 512 Hz Float samples (nperseg 4096, 50 % overlap, Hann, constant
/// detrend, density), against the same number of raw FFTW forward transforms.
func spectralBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let count = scale.dayAt512Hz
    let nperseg = 4096
    let segments = (count - nperseg) / (nperseg / 2) + 1
    let ref = "fftw/r2c/4096/double/welch"
    return [
        fftwForwardReferenceCase(n: nperseg, count: segments, name: ref),
        BenchmarkCase(
            name: "spectral/welch-4096/day512/float", samples: count, bytes: count * 4,
            reference: ref
        ) {
            let signal = syntheticSignal(count: count, sampleRate: 512)
            return {
                var welch = Welch(segmentLength: nperseg, sampleRate: 512)
                welch.process(signal)
                blackHole(try! welch.estimate())
            }
        },
    ]
}
