import DSP

/// FIR filtering of a day of 512 Hz signal with the streaming overlap-save filter, against raw
/// FFTW forward+inverse transforms of the same size and count (the filter's kernel).
func firBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let count = scale.dayAt512Hz
    let design = try! FIRDesign(tapCount: 1025, response: .bandPass(low: 0.5, high: 40), sampleRate: 512)
    let probe = OverlapSaveFilter<Float>(taps: design.taps)
    let n = probe.fftSize
    // Frames overlap-save transforms for `count` samples: ⌈(count + delay) / L⌉.
    let frames = (count + probe.delay + probe.blockLength - 1) / probe.blockLength
    let ref = "fftw/r2c+c2r/\(n)/float/fir"
    return [
        fftwReferenceCase(n: n, blocks: frames, float: true, name: ref),
        BenchmarkCase(
            name: "fir/bandpass-1025/day512/float", samples: count, bytes: count * 4,
            reference: ref
        ) {
            let signal = syntheticSignal(count: count, sampleRate: 512)
            var filter = OverlapSaveFilter<Float>(taps: design.taps)
            // The pipeline hands stages blocks of about a minute; the output block is reused.
            let block = 1 << 15
            var out = [Float]()
            out.reserveCapacity(block + 2 * n)
            return {
                var total = 0
                signal.withUnsafeBufferPointer { x in
                    var start = 0
                    while start < count {
                        let k = min(block, count - start)
                        out.removeAll(keepingCapacity: true)
                        filter.process(UnsafeBufferPointer(rebasing: x[start..<start + k]), into: &out)
                        total += out.count
                        start += k
                    }
                }
                out.removeAll(keepingCapacity: true)
                filter.finish(into: &out)
                total += out.count
                precondition(total == count, "fir benchmark: \(total) outputs for \(count) inputs")
                blackHole(out)
            }
        },
    ]
}
