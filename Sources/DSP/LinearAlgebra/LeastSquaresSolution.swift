import CLAPACKE

/// The minimum-norm linear least-squares solution of `A·X ≈ B`, as `numpy.linalg.lstsq`.
///
/// Minimises `‖B − A·X‖₂` column by column; when `A` is rank-deficient (or has fewer rows than
/// columns) the solution of smallest norm is returned. Computed with LAPACK `dgelsd`: the SVD
/// of `A` by divide and conquer, singular values `σᵢ ≤ relativeCutoff·σ₁` treated as zero
/// (Anderson et al. 1999, *LAPACK Users' Guide*, 3rd ed., SIAM, §2.3.2; Golub & Van Loan 2013,
/// *Matrix Computations*, 4th ed., §5.5).
///
/// ```swift
/// // Fit y ≈ c0 + c1·t
/// let design = Matrix(rows: t.count, columns: 2, elements: t.flatMap { [1, $0] })
/// let fit = try LeastSquaresSolution(design, Matrix(column: y))
/// let (c0, c1) = (fit.solution[0, 0], fit.solution[1, 0])
/// ```
public struct LeastSquaresSolution: Sendable, Hashable {
    /// The solution `X`, `A.columns × B.columns`.
    public let solution: Matrix
    /// Sum of squared residuals `‖B[:, j] − A·X[:, j]‖²` for each column of `B`, in the squared
    /// units of `B`. Empty unless `A` has full column rank and more rows than columns (as NumPy).
    public let residualSumsOfSquares: [Double]
    /// Effective rank of `A` (number of singular values above the cut-off).
    public let rank: Int
    /// Singular values of `A`, `min(rows, columns)` of them, in decreasing order.
    public let singularValues: [Double]

    /// Solves `A·X ≈ B` in the least-squares sense.
    /// - Parameters:
    ///   - a: the `m × n` coefficient (design) matrix, m, n ≥ 1.
    ///   - b: the `m × k` right-hand sides, k ≥ 1.
    ///   - relativeCutoff: singular values `≤ relativeCutoff · σ_max` count as zero; `nil` uses
    ///     NumPy's default `ε · max(m, n)` (ε = 2.2e-16).
    /// - Throws: ``LinearAlgebraError`` with `.nonFiniteInput` for NaN/∞ in `a` or `b`,
    ///   `.noConvergence` if the SVD fails to converge.
    /// - Complexity: O(m·n·min(m, n) + max(m, n)·n·k); O(m·n + max(m, n)·k) memory.
    public init(_ a: Matrix, _ b: Matrix, relativeCutoff: Double? = nil) throws(LinearAlgebraError) {
        precondition(a.rows >= 1 && a.columns >= 1, "LeastSquaresSolution: A must be at least 1×1")
        precondition(b.rows == a.rows, "LeastSquaresSolution: B has \(b.rows) rows, A has \(a.rows)")
        precondition(b.columns >= 1, "LeastSquaresSolution: B needs at least one column")
        try LinearAlgebraError.requireFinite(a.elements, routine: "dgelsd", input: "A")
        try LinearAlgebraError.requireFinite(b.elements, routine: "dgelsd", input: "B")
        let m = a.rows, n = a.columns, k = b.columns
        let ldb = max(m, n)
        var aWork = a.elements
        // dgelsd needs room for the n-row solution when n > m.
        var bWork = [Double](repeating: 0, count: ldb * k)
        for i in 0..<m * k { bWork[i] = b.elements[i] }
        var s = [Double](repeating: 0, count: min(m, n))
        var rank: Int32 = 0
        let cutoff = relativeCutoff ?? Double.ulpOfOne * Double(max(m, n))
        LAPACKRuntime.prepare()
        let info = LAPACKE_dgelsd(
            Int32(LAPACK_ROW_MAJOR), Int32(m), Int32(n), Int32(k),
            &aWork, Int32(n), &bWork, Int32(k), &s, cutoff, &rank)
        try LinearAlgebraError.check(info, routine: "dgelsd", input: "A (\(m)×\(n)), B (\(m)×\(k))")
        solution = Matrix(rows: n, columns: k, elements: Array(bWork[0..<n * k]))
        self.rank = Int(rank)
        singularValues = s
        if Int(rank) == n && m > n {
            // Rows n..<m of the transformed B hold the residual components (dgelsd documentation).
            var sums = [Double](repeating: 0, count: k)
            for r in n..<m {
                for c in 0..<k { sums[c] += bWork[r * k + c] * bWork[r * k + c] }
            }
            residualSumsOfSquares = sums
        } else {
            residualSumsOfSquares = []
        }
    }

    /// Solves `A·x ≈ b` for one right-hand side.
    /// - Parameters:
    ///   - a: the `m × n` coefficient matrix.
    ///   - b: `m` observations.
    ///   - relativeCutoff: as in ``init(_:_:relativeCutoff:)-(Matrix,Matrix,_)``.
    /// - Throws: as ``init(_:_:relativeCutoff:)-(Matrix,Matrix,_)``.
    /// - Complexity: O(m·n·min(m, n)).
    public init(_ a: Matrix, _ b: [Double], relativeCutoff: Double? = nil) throws(LinearAlgebraError) {
        try self.init(a, Matrix(column: b), relativeCutoff: relativeCutoff)
    }
}
