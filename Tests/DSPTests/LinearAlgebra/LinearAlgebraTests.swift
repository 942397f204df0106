import CLAPACKE
import DSP
import Foundation
import Testing
import _TestSupport

/// Loads a row-major `.npy` matrix fixture from `linalg/`.
func linalgMatrix(_ name: String) throws -> Matrix {
    let a = try NPY.read(Fixtures.url("DSPTests", "linalg/\(name).npy"))
    let rows = a.shape.first ?? 1
    let columns = a.shape.count > 1 ? a.shape[1] : 1
    return Matrix(rows: rows, columns: columns, elements: a.doubles)
}

func linalgVector(_ name: String) throws -> [Double] {
    try Fixtures.doubles("DSPTests", "linalg/\(name).npy")
}

/// Flips `got` to the sign that best matches `expected` (vectors are defined up to sign) and
/// returns the flipped copy and the sign used.
func alignSign(_ got: [Double], to expected: [Double]) -> ([Double], Double) {
    let dot = zip(got, expected).reduce(0) { $0 + $1.0 * $1.1 }
    let sign: Double = dot < 0 ? -1 : 1
    return (got.map { $0 * sign }, sign)
}

func linalgNames(_ kind: String) -> [String] {
    guard let json = try? Fixtures.json("DSPTests", "linalg/params.json"),
        let list = json[kind] as? [[String: Any]]
    else { return [] }
    return list.compactMap { $0["name"] as? String }
}

@Suite("LAPACK wrappers against numpy.linalg")
struct LinearAlgebraTests {
    @Test("LeastSquaresSolution matches numpy.linalg.lstsq", arguments: linalgNames("lstsq"))
    func leastSquares(name: String) throws {
        let json = try Fixtures.json("DSPTests", "linalg/params.json")
        let meta = try #require((json["lstsq"] as? [[String: Any]])?.first { $0["name"] as? String == name })
        let a = try linalgMatrix("lstsq_\(name)_a")
        let b = try linalgMatrix("lstsq_\(name)_b")
        let expectedX = try linalgMatrix("lstsq_\(name)_x")
        let expectedResiduals = try linalgVector("lstsq_\(name)_res")
        let expectedS = try linalgVector("lstsq_\(name)_s")

        let fit =
            (meta["vector_rhs"] as? Bool) == true
            ? try LeastSquaresSolution(a, b.elements) : try LeastSquaresSolution(a, b)
        #expect(fit.rank == (meta["rank"] as? NSNumber)?.intValue)
        #expect(fit.solution.rows == expectedX.rows && fit.solution.columns == expectedX.columns)
        #expect(Compare.maxErrorRelativeToPeak(fit.solution.elements, expectedX.elements) < 1e-10)
        #expect(Compare.maxErrorRelativeToPeak(fit.singularValues, expectedS) < 1e-10)
        try #require(fit.residualSumsOfSquares.count == expectedResiduals.count)
        #expect(Compare.maxRelativeError(fit.residualSumsOfSquares, expectedResiduals) < 1e-10)
    }

    @Test(
        "SymmetricEigendecomposition matches numpy.linalg.eigh (sign-invariant)",
        arguments: linalgNames("eigh"))
    func eigen(name: String) throws {
        let a = try linalgMatrix("eigh_\(name)_a")
        let expectedW = try linalgVector("eigh_\(name)_w")
        let expectedV = try linalgMatrix("eigh_\(name)_v")
        let e = try SymmetricEigendecomposition(a)
        #expect(Compare.maxErrorRelativeToPeak(e.eigenvalues, expectedW) < 1e-10)
        #expect(zip(e.eigenvalues, e.eigenvalues.dropFirst()).allSatisfy { $0 <= $1 })
        for j in 0..<a.rows {
            let (v, _) = alignSign(e.eigenvectors.column(j), to: expectedV.column(j))
            #expect(Compare.maxErrorRelativeToPeak(v, expectedV.column(j)) < 1e-10, "vector \(j)")
        }
    }

    @Test(
        "SingularValueDecomposition matches numpy.linalg.svd (thin, sign-invariant)",
        arguments: linalgNames("svd"))
    func svd(name: String) throws {
        let a = try linalgMatrix("svd_\(name)_a")
        let expectedU = try linalgMatrix("svd_\(name)_u")
        let expectedS = try linalgVector("svd_\(name)_s")
        let expectedVt = try linalgMatrix("svd_\(name)_vt")
        let d = try SingularValueDecomposition(a)
        let k = min(a.rows, a.columns)
        #expect(d.u.rows == a.rows && d.u.columns == k && d.vt.rows == k && d.vt.columns == a.columns)
        #expect(Compare.maxErrorRelativeToPeak(d.singularValues, expectedS) < 1e-10)
        var reconstruction = [Double](repeating: 0, count: a.rows * a.columns)
        for j in 0..<k {
            // The pair (u_j, v_j) shares one sign.
            let (u, sign) = alignSign(d.u.column(j), to: expectedU.column(j))
            let v = d.vt.row(j).map { $0 * sign }
            #expect(Compare.maxErrorRelativeToPeak(u, expectedU.column(j)) < 1e-10, "u \(j)")
            #expect(Compare.maxErrorRelativeToPeak(v, expectedVt.row(j)) < 1e-10, "v \(j)")
            for r in 0..<a.rows {
                for c in 0..<a.columns { reconstruction[r * a.columns + c] += u[r] * d.singularValues[j] * v[c] }
            }
        }
        #expect(Compare.maxErrorRelativeToPeak(reconstruction, a.elements) < 1e-12)
    }

    @Test("Non-finite input throws a typed error naming the routine")
    func nonFinite() {
        let bad = Matrix(rows: 2, columns: 2, elements: [1, .nan, 0, 1])
        #expect(throws: LinearAlgebraError.self) { try SingularValueDecomposition(bad) }
        do {
            _ = try LeastSquaresSolution(bad, [1, 2])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .nonFiniteInput)
            #expect(error.message.contains("dgelsd"))
        }
        // The NaN sits in the upper triangle, which eigh ignores.
        #expect(throws: Never.self) { try SymmetricEigendecomposition(bad) }
    }

    @Test("Concurrent calls from many tasks agree (OpenBLAS set to one thread once)")
    func concurrent() async throws {
        let a = try linalgMatrix("svd_square_a")
        let reference = try SingularValueDecomposition(a).singularValues
        let results = await withTaskGroup(of: [Double]?.self) { group in
            for _ in 0..<8 { group.addTask { try? SingularValueDecomposition(a).singularValues } }
            var all = [[Double]?]()
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.allSatisfy { $0 == reference })
        #expect(openblas_get_num_threads() == 1)
    }

    @Test("Matrix basics")
    func matrix() {
        var m = Matrix(rows: 2, columns: 3, elements: [1, 2, 3, 4, 5, 6])
        #expect(m[1, 2] == 6)
        m[0, 1] = 7
        #expect(m.row(0) == [1, 7, 3] && m.column(2) == [3, 6])
        #expect(m.transposed.elements == [1, 4, 7, 5, 3, 6])
    }
}
