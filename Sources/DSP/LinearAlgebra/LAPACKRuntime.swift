import CLAPACKE

/// One-time set-up of the BLAS/LAPACK library (OpenBLAS) behind the wrappers.
enum LAPACKRuntime {
    /// Limits OpenBLAS to one thread, once per process, before the first LAPACK call.
    ///
    /// OpenBLAS otherwise starts a thread pool sized to the machine and splits every call
    /// across it. SensorPipe already runs one task per recording on every core, so nested BLAS
    /// threads would oversubscribe the CPU (and thrash on the small matrices used here); one
    /// thread per call is both faster and keeps results independent of the thread count.
    /// A `static let` initialiser runs exactly once and is thread-safe (`swift_once`).
    static let singleThreaded: Void = { openblas_set_num_threads(1) }()

    /// Ensures the set-up has run. Call before every LAPACK routine.
    @inline(__always)
    static func prepare() { _ = singleThreaded }
}
