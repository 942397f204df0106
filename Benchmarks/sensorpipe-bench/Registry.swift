/// Every benchmark, references first within each area so ratios can be computed in one pass.
func allBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    fftBenchmarks(scale) + iirBenchmarks(scale)
}
