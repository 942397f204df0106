import CFFTW
import Synchronization

/// The process-wide FFTW planner: a cache of plans keyed by size, kind and precision, behind the
/// one lock that FFTW's planner needs.
///
/// FFTW's planner is not thread-safe, but executing a finished plan is, as long as the
/// new-array functions (`fftw_execute_dft_r2c` and friends) are used. SensorPipe therefore
/// plans each (size, kind, precision, alignment) once, under ``FFTPlanner``'s lock, keeps the
/// plan for the life of the process, and lets any number of threads execute it on their own
/// arrays. Cached plans are never destroyed, so memory grows only with the number of distinct sizes
/// (one-use plans of very large sizes, `ComplexFFT(uncachedCount:)`, are destroyed after use).
///
/// Source: M. Frigo and S. G. Johnson, "The Design and Implementation of FFTW3",
/// Proc. IEEE 93(2), 2005, doi:10.1109/JPROC.2004.840301; FFTW 3 manual §4.6 (new-array
/// execute functions) and §5 (thread safety).
public enum FFTPlanner {
    /// How hard FFTW searches for a fast plan the first time a size is planned.
    public enum Rigor: Sendable, Equatable {
        /// `FFTW_ESTIMATE`: instant planning from heuristics (the default).
        case estimate
        /// `FFTW_MEASURE`: times candidate algorithms (tens of ms to seconds per size).
        case measure
        /// `FFTW_PATIENT`: a wider search than `measure`; for long batch runs with wisdom files.
        case patient

        var flags: UInt32 {
            switch self {
            case .estimate: return UInt32(FFTW_ESTIMATE)
            case .measure: return UInt32(FFTW_MEASURE)
            case .patient: return UInt32(FFTW_PATIENT)
            }
        }
    }

    enum Kind: Hashable { case r2c, c2r, c2cForward, c2cBackward }

    struct Key: Hashable {
        var count: Int
        var kind: Kind
        var isDouble: Bool
        var aligned: Bool
    }

    struct State: ~Copyable {
        var rigor: Rigor = .estimate
        var plans: [Key: UInt] = [:]
    }

    static let state = Mutex(State())

    /// The rigor used for plans made from now on; plans already cached are kept.
    public static var rigor: Rigor {
        get { state.withLock { $0.rigor } }
        set { state.withLock { $0.rigor = newValue } }
    }

    /// Number of plans currently cached (for tests and diagnostics).
    public static var cachedPlanCount: Int { state.withLock { $0.plans.count } }

    /// Imports FFTW wisdom (as written by ``exportWisdom()``) for both precisions.
    /// - Returns: `true` if FFTW accepted the text for both precisions.
    public static func importWisdom(double: String, float: String) -> Bool {
        state.withLock { _ in Double._importWisdom(double) && Float._importWisdom(float) }
    }

    /// Exports the wisdom accumulated so far for both precisions.
    public static func exportWisdom() -> (double: String, float: String) {
        state.withLock { _ in (Double._exportWisdom(), Float._exportWisdom()) }
    }

    /// Returns the cached plan for `key`, planning it under the lock on first use.
    static func plan<Scalar: FFTScalar>(
        _ type: Scalar.Type, count: Int, kind: Kind,
        aligned: Bool
    ) -> OpaquePointer {
        precondition(count > 0 && count <= Int(Int32.max), "FFT size must be in 1...Int32.max")
        let key = Key(
            count: count, kind: kind, isDouble: Scalar.self == Double.self,
            aligned: aligned)
        return state.withLock { st -> OpaquePointer in
            if let cached = st.plans[key] { return OpaquePointer(bitPattern: cached)! }
            let plan = makePlan(Scalar.self, key: key, rigor: st.rigor)
            st.plans[key] = UInt(bitPattern: Int(bitPattern: plan))
            return plan
        }
    }

    /// A plan made for one use and not cached (for very large sizes, whose twiddle tables would
    /// otherwise stay for the life of the process); destroy it with ``destroy(_:as:)``.
    static func uncachedPlan<Scalar: FFTScalar>(
        _ type: Scalar.Type, count: Int, kind: Kind, aligned: Bool
    ) -> OpaquePointer {
        precondition(count > 0 && count <= Int(Int32.max), "FFT size must be in 1...Int32.max")
        let key = Key(count: count, kind: kind, isDouble: Scalar.self == Double.self, aligned: aligned)
        return state.withLock { st in makePlan(Scalar.self, key: key, rigor: st.rigor) }
    }

    /// Destroys plans made by ``uncachedPlan(_:count:kind:aligned:)`` (under the planner lock).
    static func destroy<Scalar: FFTScalar>(_ plans: [OpaquePointer], as type: Scalar.Type) {
        state.withLock { _ in for p in plans { Scalar._destroyPlan(p) } }
    }

    /// Plans `key` (the caller holds the lock).
    static func makePlan<Scalar: FFTScalar>(_ type: Scalar.Type, key: Key, rigor: Rigor) -> OpaquePointer {
        let count = key.count, kind = key.kind, aligned = key.aligned
        do {
            // Plan on scratch arrays so the caller's data is never touched by FFTW_MEASURE.
            let complexCount = kind == .r2c || kind == .c2r ? 2 * (count / 2 + 1) : 2 * count
            let realCount = kind == .r2c || kind == .c2r ? count : 2 * count
            let a = Scalar._allocate(max(realCount, complexCount) + 2)
            let b = Scalar._allocate(max(realCount, complexCount) + 2)
            defer { Scalar._free(a); Scalar._free(b) }
            // An unaligned plan is planned on arrays offset by one element.
            let pa = aligned ? a : a + 1
            let pb = aligned ? b : b + 1
            var flags = rigor.flags
            if !aligned { flags |= UInt32(FFTW_UNALIGNED) }
            let n = Int32(count)
            let made: OpaquePointer?
            switch kind {
            case .r2c: made = Scalar._planR2C(n, pa, pb, flags)
            case .c2r: made = Scalar._planC2R(n, pa, pb, flags | UInt32(FFTW_DESTROY_INPUT))
            case .c2cForward: made = Scalar._planC2C(n, pa, pb, FFTW_FORWARD, flags)
            case .c2cBackward: made = Scalar._planC2C(n, pa, pb, FFTW_BACKWARD, flags)
            }
            guard let plan = made else { fatalError("FFTW could not plan \(key)") }
            return plan
        }
    }
}
