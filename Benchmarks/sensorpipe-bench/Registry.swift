/// Every benchmark, references first within each area so ratios can be computed in one pass.
func allBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    var all = [BenchmarkCase]()
    all += fftBenchmarks(scale)
    all += firBenchmarks(scale)
    all += iirBenchmarks(scale)
    all += spectralBenchmarks(scale)
    all += resampleBenchmarks(scale)
    all += healthCSVMATLABBenchmarks(scale)
    all += wfdbBenchmarks(scale)
    all += decodeBenchmarks(scale)
    all += hrvBenchmarks(scale)
    all += ecgBenchmarks(scale)
    all += sqiBenchmarks(scale)
    all += chainBenchmarks(scale)
    return all
}
