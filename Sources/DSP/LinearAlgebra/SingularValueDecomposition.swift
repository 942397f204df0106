import CLAPACKE

/// The thin singular value decomposition `A = U·diag(σ)·Vᵀ`, as
/// `numpy.linalg.svd(a, full_matrices=False)`.
///
/// For an `m × n` matrix with `k = min(m, n)`: `U` is `m × k` with orthonormal columns, `σ` has
/// `k` non-negative values in decreasing order, `Vᵀ` is `k × n` with orthonormal rows. Computed
/// with LAPACK `dgesdd` (bidiagonalisation and divide and conquer; Anderson et al. 1999,
/// *LAPACK Users' Guide*, 3rd ed., SIAM, §2.3.4.4; Golub & Van Loan 2013, *Matrix
/// Computations*, 4th ed., §8.6).
///
/// Singular vectors are defined up to a common sign per pair (`U[:, j]`, `Vᵀ[j, :]`), and up to
/// a rotation for repeated singular values.
///
/// ```swift
/// let svd = try SingularValueDecomposition(a)
/// let conditionNumber = svd.singularValues.first! / svd.singularValues.last!
/// ```
public struct SingularValueDecomposition: Sendable, Hashable {
    /// Left singular vectors as columns, `m × k`.
    public let u: Matrix
    /// Singular values, `k` of them, in decreasing order.
    public let singularValues: [Double]
    /// Right singular vectors as rows, `k × n`.
    public let vt: Matrix

    /// Decomposes `a`.
    /// - Parameter a: an `m × n` matrix, m, n ≥ 1.
    /// - Throws: ``LinearAlgebraError`` with `.nonFiniteInput` for NaN/∞ in `a`,
    ///   `.noConvergence` if the algorithm fails to converge.
    /// - Complexity: O(m·n·min(m, n)) time, O(m·n + min(m, n)²) memory.
    public init(_ a: Matrix) throws(LinearAlgebraError) {
        precondition(a.rows >= 1 && a.columns >= 1, "SingularValueDecomposition: A must be at least 1×1")
        try LinearAlgebraError.requireFinite(a.elements, routine: "dgesdd", input: "A")
        let m = a.rows, n = a.columns, k = min(m, n)
        var work = a.elements
        var s = [Double](repeating: 0, count: k)
        var uWork = [Double](repeating: 0, count: m * k)
        var vtWork = [Double](repeating: 0, count: k * n)
        LAPACKRuntime.prepare()
        let info = LAPACKE_dgesdd(
            Int32(LAPACK_ROW_MAJOR), CChar(UInt8(ascii: "S")), Int32(m), Int32(n),
            &work, Int32(n), &s, &uWork, Int32(k), &vtWork, Int32(n))
        try LinearAlgebraError.check(info, routine: "dgesdd", input: "A (\(m)×\(n))")
        u = Matrix(rows: m, columns: k, elements: uWork)
        singularValues = s
        vt = Matrix(rows: k, columns: n, elements: vtWork)
    }
}
