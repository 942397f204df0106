/// Conversion of a digital zero-pole-gain description to second-order sections, reproducing
/// `scipy.signal.zpk2sos(z, p, k, pairing='nearest')` (SciPy ≥ 1.2 default for digital filters):
/// poles are taken from the one closest to the unit circle outwards, each paired with its nearest
/// zero(s), sections are filled from the last backwards (so the poles closest to the unit circle
/// end up in the last section), and the overall gain multiplies the first section's numerator.
extension IIRZeroPoleGain {
    /// Second-order sections, rows `[b0, b1, b2, 1, a1, a2]`.
    func secondOrderSections() -> [[Double]] {
        var z = zeros, p = poles
        if z.isEmpty && p.isEmpty { return [[gain, 0, 0, 1, 0, 0]] }
        // Same number of poles and zeros, padded at the origin; then an even count.
        if z.count < p.count { z += Array(repeating: .zero, count: p.count - z.count) }
        if p.count < z.count { p += Array(repeating: .zero, count: z.count - p.count) }
        let sectionCount = (max(p.count, z.count) + 1) / 2
        if p.count % 2 == 1 {
            p.append(.zero)
            z.append(.zero)
        }
        z = Self.conjugatePairsThenReals(z)
        p = Self.conjugatePairsThenReals(p)

        func worstIndex(_ values: [IIRComplex]) -> Int {
            // Closest to the unit circle (np.argmin: first of equals).
            var best = 0
            var bestDistance = Double.infinity
            for (i, v) in values.enumerated() {
                let d = abs(1 - v.magnitude)
                if d < bestDistance {
                    bestDistance = d
                    best = i
                }
            }
            return best
        }
        enum Which { case real, complex, any }
        func nearestIndex(_ from: [IIRComplex], to target: IIRComplex, _ which: Which) -> Int {
            let order = from.indices.sorted { i, j in
                let di = (from[i] - target).magnitude, dj = (from[j] - target).magnitude
                return di < dj || (di == dj && i < j)
            }
            switch which {
            case .any: return order[0]
            case .real: return order.first { from[$0].isReal }!
            case .complex: return order.first { !from[$0].isReal }!
            }
        }

        var sections = [[Double]](repeating: [0, 0, 0, 0, 0, 0], count: sectionCount)
        for si in stride(from: sectionCount - 1, through: 0, by: -1) {
            let p1 = p.remove(at: worstIndex(p))
            let realPolesLeft = p.filter(\.isReal).count
            if p1.isReal && realPolesLeft == 0 {
                // Special case 1: last remaining real pole, paired with the nearest real zero.
                let z1 = z.remove(at: nearestIndex(z, to: p1, .real))
                sections[si] = Self.section(zeros: [z1, .zero], poles: [p1, .zero])
            } else if p.count + 1 == z.count && !p1.isReal && realPolesLeft == 1
                && z.filter(\.isReal).count == 1
            {
                // Special case 2: one real pole and one real zero left; pair with a complex zero.
                let z1 = z.remove(at: nearestIndex(z, to: p1, .complex))
                sections[si] = Self.section(zeros: [z1, z1.conjugate], poles: [p1, p1.conjugate])
            } else {
                let p2: IIRComplex
                if p1.isReal {
                    let realIndices = p.indices.filter { p[$0].isReal }
                    p2 = p.remove(at: realIndices[worstIndex(realIndices.map { p[$0] })])
                } else {
                    p2 = p1.conjugate
                }
                if !z.isEmpty {
                    let z1 = z.remove(at: nearestIndex(z, to: p1, .any))
                    if !z1.isReal {
                        sections[si] = Self.section(zeros: [z1, z1.conjugate], poles: [p1, p2])
                    } else if !z.isEmpty {
                        let z2 = z.remove(at: nearestIndex(z, to: p1, .real))
                        sections[si] = Self.section(zeros: [z1, z2], poles: [p1, p2])
                    } else {
                        sections[si] = Self.section(zeros: [z1], poles: [p1, p2])
                    }
                } else {
                    sections[si] = Self.section(zeros: [], poles: [p1, p2])
                }
            }
        }
        precondition(p.isEmpty && z.isEmpty, "zpk2sos: unpaired poles or zeros")
        for j in 0..<3 { sections[0][j] *= gain }
        return sections
    }

    /// One section from ≤ 2 zeros and ≤ 2 poles (`_single_zpksos`): the polynomials are
    /// right-aligned, so a single zero gives `b = [0, 1, −z]`.
    static func section(zeros: [IIRComplex], poles: [IIRComplex]) -> [Double] {
        let b = polynomial(zeros), a = polynomial(poles)
        var row = [Double](repeating: 0, count: 6)
        for (i, c) in b.enumerated() { row[3 - b.count + i] = c }
        for (i, c) in a.enumerated() { row[6 - a.count + i] = c }
        return row
    }

    /// Monic polynomial with the given roots (`np.poly`: successive convolution by [1, −r]);
    /// the roots come in conjugate pairs or are real, so the imaginary parts cancel.
    static func polynomial(_ roots: [IIRComplex]) -> [Double] {
        var c: [IIRComplex] = [.one]
        for r in roots {
            var next = [IIRComplex](repeating: .zero, count: c.count + 1)
            for i in 0..<c.count {
                next[i] = next[i] + c[i]
                next[i + 1] = next[i + 1] + c[i] * (-r)
            }
            c = next
        }
        return c.map(\.re)
    }

    /// SciPy's `_cplxreal`: the upper member of each conjugate pair (averaged with its partner),
    /// sorted by real part then |imag|, followed by the real values sorted ascending.
    static func conjugatePairsThenReals(_ values: [IIRComplex]) -> [IIRComplex] {
        if values.isEmpty { return [] }
        let tol = 100 * Double.ulpOfOne
        // np.lexsort((|imag|, real)): stable, primary key real, secondary |imag|.
        let sorted = values.enumerated().sorted { x, y in
            if x.element.re != y.element.re { return x.element.re < y.element.re }
            if abs(x.element.im) != abs(y.element.im) { return abs(x.element.im) < abs(y.element.im) }
            return x.offset < y.offset
        }.map(\.element)
        let isRealValue = sorted.map { abs($0.im) <= tol * $0.magnitude }
        let reals = zip(sorted, isRealValue).filter { $0.1 }.map { IIRComplex($0.0.re) }
        let complexes = zip(sorted, isRealValue).filter { !$0.1 }.map(\.0)
        if complexes.isEmpty { return reals }
        var upper = complexes.filter { $0.im > 0 }
        var lower = complexes.filter { $0.im < 0 }
        precondition(upper.count == lower.count, "complex value with no matching conjugate")
        // Runs of (approximately) equal real part are sorted by |imag|.
        if upper.count > 1 {
            var start = 0
            while start < upper.count {
                var stop = start
                while stop + 1 < upper.count
                    && upper[stop + 1].re - upper[stop].re <= tol * upper[stop].magnitude
                {
                    stop += 1
                }
                if stop > start {
                    for k in 0..<2 {
                        var chunk = k == 0 ? Array(upper[start...stop]) : Array(lower[start...stop])
                        chunk = chunk.enumerated().sorted { x, y in
                            abs(x.element.im) != abs(y.element.im)
                                ? abs(x.element.im) < abs(y.element.im) : x.offset < y.offset
                        }.map(\.element)
                        if k == 0 {
                            upper.replaceSubrange(start...stop, with: chunk)
                        } else {
                            lower.replaceSubrange(start...stop, with: chunk)
                        }
                    }
                }
                start = stop + 1
            }
        }
        var pairs = [IIRComplex]()
        for (u, l) in zip(upper, lower) {
            precondition(
                (u - l.conjugate).magnitude <= tol * l.magnitude,
                "complex value with no matching conjugate")
            pairs.append((u + l.conjugate) / 2)
        }
        return pairs + reals
    }
}
