import CLAPACKE

/// Eigenvalues and eigenvectors of a real symmetric matrix, as `numpy.linalg.eigh`.
///
/// `A = V·diag(λ)·Vᵀ` with orthonormal `V`. Computed with LAPACK `dsyevd` (tridiagonal
/// reduction, then Cuppen's divide and conquer; Anderson et al. 1999, *LAPACK Users' Guide*,
/// 3rd ed., SIAM, §2.3.4.1; Golub & Van Loan 2013, *Matrix Computations*, 4th ed., §8.4).
/// Only the **lower triangle** of the input is read (NumPy's default `UPLO='L'`).
///
/// Each eigenvector is defined up to its sign (and, for repeated eigenvalues, up to a rotation
/// within the eigenspace); compare them accordingly.
///
/// ```swift
/// let e = try SymmetricEigendecomposition(covariance)
/// let principalAxis = e.eigenvectors.column(e.eigenvalues.count - 1)
/// ```
public struct SymmetricEigendecomposition: Sendable, Hashable {
    /// Eigenvalues in ascending order.
    public let eigenvalues: [Double]
    /// Orthonormal eigenvectors as **columns**: column `j` belongs to `eigenvalues[j]`.
    public let eigenvectors: Matrix

    /// Decomposes a symmetric matrix.
    /// - Parameter a: an `n × n` matrix, n ≥ 1; only its lower triangle (with the diagonal) is used.
    /// - Throws: ``LinearAlgebraError`` with `.nonFiniteInput` for NaN/∞ in the lower triangle,
    ///   `.noConvergence` if the algorithm fails to converge.
    /// - Complexity: O(n³) time, O(n²) memory.
    public init(_ a: Matrix) throws(LinearAlgebraError) {
        precondition(
            a.rows == a.columns && a.rows >= 1,
            "SymmetricEigendecomposition: A must be square and non-empty, is \(a.rows)×\(a.columns)")
        let n = a.rows
        var work = a.elements
        // Only the lower triangle is read; clear the upper one so stray NaNs there are harmless.
        for r in 0..<n {
            for c in (r + 1)..<max(r + 1, n) { work[r * n + c] = 0 }
        }
        try LinearAlgebraError.requireFinite(work, routine: "dsyevd", input: "A (lower triangle)")
        var w = [Double](repeating: 0, count: n)
        LAPACKRuntime.prepare()
        let info = LAPACKE_dsyevd(
            Int32(LAPACK_ROW_MAJOR), CChar(UInt8(ascii: "V")),
            CChar(UInt8(ascii: "L")), Int32(n), &work, Int32(n), &w)
        try LinearAlgebraError.check(info, routine: "dsyevd", input: "A (\(n)×\(n))")
        eigenvalues = w
        eigenvectors = Matrix(rows: n, columns: n, elements: work)
    }
}
