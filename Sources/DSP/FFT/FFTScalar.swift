import CFFTW

#if canImport(Glibc)
    import Glibc
#endif

/// A floating-point type that FFTW can transform: `Float` (`fftwf_*`) or `Double` (`fftw_*`).
///
/// The underscored requirements are the thin FFTW bindings used by ``RealFFT`` and
/// ``ComplexFFT``; they are public only so that the generic transforms can be specialised
/// across modules. Do not call them directly.
public protocol FFTScalar: BinaryFloatingPoint, Sendable {
    /// Plans a 1-D real-to-complex transform of `count` points on the given arrays.
    static func _planR2C(
        _ count: Int32, _ input: UnsafeMutablePointer<Self>,
        _ output: UnsafeMutablePointer<Self>, _ flags: UInt32
    ) -> OpaquePointer?
    /// Plans a 1-D complex-to-real transform of `count` points on the given arrays.
    static func _planC2R(
        _ count: Int32, _ input: UnsafeMutablePointer<Self>,
        _ output: UnsafeMutablePointer<Self>, _ flags: UInt32
    ) -> OpaquePointer?
    /// Plans a 1-D complex-to-complex transform; `sign` is `FFTW_FORWARD` or `FFTW_BACKWARD`.
    static func _planC2C(
        _ count: Int32, _ input: UnsafeMutablePointer<Self>,
        _ output: UnsafeMutablePointer<Self>, _ sign: Int32,
        _ flags: UInt32
    ) -> OpaquePointer?
    /// Executes a real-to-complex plan on new arrays (`fftw_execute_dft_r2c`).
    static func _executeR2C(
        _ plan: OpaquePointer, _ input: UnsafeMutablePointer<Self>,
        _ output: UnsafeMutablePointer<Self>)
    /// Executes a complex-to-real plan on new arrays (`fftw_execute_dft_c2r`).
    static func _executeC2R(
        _ plan: OpaquePointer, _ input: UnsafeMutablePointer<Self>,
        _ output: UnsafeMutablePointer<Self>)
    /// Executes a complex-to-complex plan on new arrays (`fftw_execute_dft`).
    static func _executeC2C(
        _ plan: OpaquePointer, _ input: UnsafeMutablePointer<Self>,
        _ output: UnsafeMutablePointer<Self>)
    /// Destroys a plan (`fftw_destroy_plan`); only under the planner's lock.
    static func _destroyPlan(_ plan: OpaquePointer)
    /// FFTW's SIMD alignment class of a pointer (`fftw_alignment_of`); 0 for the planning class.
    static func _alignmentOf(_ pointer: UnsafeMutablePointer<Self>) -> Int32
    /// Allocates `count` elements with FFTW's SIMD alignment (`fftw_malloc`).
    static func _allocate(_ count: Int) -> UnsafeMutablePointer<Self>
    /// Frees memory from ``_allocate(_:)``.
    static func _free(_ pointer: UnsafeMutablePointer<Self>)
    /// Imports FFTW wisdom from a string; `true` on success.
    static func _importWisdom(_ text: String) -> Bool
    /// Exports the accumulated FFTW wisdom as a string.
    static func _exportWisdom() -> String
}

extension Double: FFTScalar {
    public static func _destroyPlan(_ plan: OpaquePointer) { fftw_destroy_plan(plan) }
    @inlinable
    public static func _planR2C(
        _ n: Int32, _ i: UnsafeMutablePointer<Double>,
        _ o: UnsafeMutablePointer<Double>, _ f: UInt32
    ) -> OpaquePointer? {
        o.withMemoryRebound(to: fftw_complex.self, capacity: Int(n / 2 + 1)) {
            fftw_plan_dft_r2c_1d(n, i, $0, f)
        }
    }
    @inlinable
    public static func _planC2R(
        _ n: Int32, _ i: UnsafeMutablePointer<Double>,
        _ o: UnsafeMutablePointer<Double>, _ f: UInt32
    ) -> OpaquePointer? {
        i.withMemoryRebound(to: fftw_complex.self, capacity: Int(n / 2 + 1)) {
            fftw_plan_dft_c2r_1d(n, $0, o, f)
        }
    }
    @inlinable
    public static func _planC2C(
        _ n: Int32, _ i: UnsafeMutablePointer<Double>,
        _ o: UnsafeMutablePointer<Double>, _ s: Int32,
        _ f: UInt32
    ) -> OpaquePointer? {
        i.withMemoryRebound(to: fftw_complex.self, capacity: Int(n)) { ci in
            o.withMemoryRebound(to: fftw_complex.self, capacity: Int(n)) { co in
                fftw_plan_dft_1d(n, ci, co, s, f)
            }
        }
    }
    @inlinable
    public static func _executeR2C(
        _ p: OpaquePointer, _ i: UnsafeMutablePointer<Double>,
        _ o: UnsafeMutablePointer<Double>
    ) {
        fftw_execute_dft_r2c(p, i, UnsafeMutablePointer<fftw_complex>(OpaquePointer(o)))
    }
    @inlinable
    public static func _executeC2R(
        _ p: OpaquePointer, _ i: UnsafeMutablePointer<Double>,
        _ o: UnsafeMutablePointer<Double>
    ) {
        fftw_execute_dft_c2r(p, UnsafeMutablePointer<fftw_complex>(OpaquePointer(i)), o)
    }
    @inlinable
    public static func _executeC2C(
        _ p: OpaquePointer, _ i: UnsafeMutablePointer<Double>,
        _ o: UnsafeMutablePointer<Double>
    ) {
        fftw_execute_dft(
            p, UnsafeMutablePointer<fftw_complex>(OpaquePointer(i)),
            UnsafeMutablePointer<fftw_complex>(OpaquePointer(o)))
    }
    @inlinable
    public static func _alignmentOf(_ p: UnsafeMutablePointer<Double>) -> Int32 {
        fftw_alignment_of(p)
    }
    @inlinable
    public static func _allocate(_ count: Int) -> UnsafeMutablePointer<Double> {
        guard let raw = fftw_malloc(max(count, 1) * MemoryLayout<Double>.stride) else {
            fatalError("fftw_malloc failed for \(count) doubles")
        }
        return raw.bindMemory(to: Double.self, capacity: max(count, 1))
    }
    @inlinable
    public static func _free(_ p: UnsafeMutablePointer<Double>) { fftw_free(p) }
    public static func _importWisdom(_ text: String) -> Bool {
        fftw_import_wisdom_from_string(text) != 0
    }
    public static func _exportWisdom() -> String {
        guard let c = fftw_export_wisdom_to_string() else { return "" }
        defer { free(c) }
        return String(cString: c)
    }
}

extension Float: FFTScalar {
    public static func _destroyPlan(_ plan: OpaquePointer) { fftwf_destroy_plan(plan) }
    @inlinable
    public static func _planR2C(
        _ n: Int32, _ i: UnsafeMutablePointer<Float>,
        _ o: UnsafeMutablePointer<Float>, _ f: UInt32
    ) -> OpaquePointer? {
        o.withMemoryRebound(to: fftwf_complex.self, capacity: Int(n / 2 + 1)) {
            fftwf_plan_dft_r2c_1d(n, i, $0, f)
        }
    }
    @inlinable
    public static func _planC2R(
        _ n: Int32, _ i: UnsafeMutablePointer<Float>,
        _ o: UnsafeMutablePointer<Float>, _ f: UInt32
    ) -> OpaquePointer? {
        i.withMemoryRebound(to: fftwf_complex.self, capacity: Int(n / 2 + 1)) {
            fftwf_plan_dft_c2r_1d(n, $0, o, f)
        }
    }
    @inlinable
    public static func _planC2C(
        _ n: Int32, _ i: UnsafeMutablePointer<Float>,
        _ o: UnsafeMutablePointer<Float>, _ s: Int32,
        _ f: UInt32
    ) -> OpaquePointer? {
        i.withMemoryRebound(to: fftwf_complex.self, capacity: Int(n)) { ci in
            o.withMemoryRebound(to: fftwf_complex.self, capacity: Int(n)) { co in
                fftwf_plan_dft_1d(n, ci, co, s, f)
            }
        }
    }
    @inlinable
    public static func _executeR2C(
        _ p: OpaquePointer, _ i: UnsafeMutablePointer<Float>,
        _ o: UnsafeMutablePointer<Float>
    ) {
        fftwf_execute_dft_r2c(p, i, UnsafeMutablePointer<fftwf_complex>(OpaquePointer(o)))
    }
    @inlinable
    public static func _executeC2R(
        _ p: OpaquePointer, _ i: UnsafeMutablePointer<Float>,
        _ o: UnsafeMutablePointer<Float>
    ) {
        fftwf_execute_dft_c2r(p, UnsafeMutablePointer<fftwf_complex>(OpaquePointer(i)), o)
    }
    @inlinable
    public static func _executeC2C(
        _ p: OpaquePointer, _ i: UnsafeMutablePointer<Float>,
        _ o: UnsafeMutablePointer<Float>
    ) {
        fftwf_execute_dft(
            p, UnsafeMutablePointer<fftwf_complex>(OpaquePointer(i)),
            UnsafeMutablePointer<fftwf_complex>(OpaquePointer(o)))
    }
    @inlinable
    public static func _alignmentOf(_ p: UnsafeMutablePointer<Float>) -> Int32 {
        fftwf_alignment_of(p)
    }
    @inlinable
    public static func _allocate(_ count: Int) -> UnsafeMutablePointer<Float> {
        guard let raw = fftwf_malloc(max(count, 1) * MemoryLayout<Float>.stride) else {
            fatalError("fftwf_malloc failed for \(count) floats")
        }
        return raw.bindMemory(to: Float.self, capacity: max(count, 1))
    }
    @inlinable
    public static func _free(_ p: UnsafeMutablePointer<Float>) { fftwf_free(p) }
    public static func _importWisdom(_ text: String) -> Bool {
        fftwf_import_wisdom_from_string(text) != 0
    }
    public static func _exportWisdom() -> String {
        guard let c = fftwf_export_wisdom_to_string() else { return "" }
        defer { free(c) }
        return String(cString: c)
    }
}
