/// Every benchmark. A case names its reference (and information-only references) by name; the
/// reference is set up once, when the first case that needs it runs, wherever it is listed.
func allBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    var all = sharedReferenceBenchmarks(scale)
    all += fftBenchmarks(scale)
    all += firBenchmarks(scale)
    all += iirBenchmarks(scale)
    all += spectralBenchmarks(scale)
    all += resampleBenchmarks(scale)
    all += healthCSVMATLABBenchmarks(scale)
    all += healthExportBenchmarks(scale)
    all += edfBenchmarks(scale)
    all += wfdbBenchmarks(scale)
    all += decodeBenchmarks(scale)
    all += hrvBenchmarks(scale)
    all += ecgBenchmarks(scale)
    all += wavesBenchmarks(scale)
    all += sqiBenchmarks(scale)
    all += chainBenchmarks(scale)
    all += rhythmBenchmarks(scale)
    all += motionBenchmarks(scale)
    all += featureBenchmarks(scale)
    all += ppgBenchmarks(scale)
    all += respirationBenchmarks(scale)
    return all
}
