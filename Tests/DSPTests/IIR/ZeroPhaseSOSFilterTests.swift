import DSP
import Testing
import _TestSupport

@Suite("ZeroPhaseSOSFilter against scipy.signal.sosfiltfilt")
struct ZeroPhaseSOSFilterTests {
    @Test("Float, 1e5 samples, order-4 band-pass: within 1e-5 of float64 sosfiltfilt")
    func floatBandPass() throws {
        let x = try IIRFixtures.signal()
        let y = try ZeroPhaseSOSFilter(try IIRFixtures.bandPass4()).apply(x).map(Double.init)
        let error = Compare.maxErrorRelativeToPeak(y, try IIRFixtures.doubles("bp4_sosfiltfilt"))
        #expect(error < 1e-5, "max error / peak = \(error)")
    }

    @Test("Double, order-4 band-pass: within 1e-10 of float64 sosfiltfilt")
    func doubleBandPass() throws {
        let p = try IIRFixtures.params()
        let x = try IIRFixtures.signal().prefix(p.prefix).map(Double.init)
        let y = try ZeroPhaseSOSFilter(try IIRFixtures.bandPass4()).apply(x)
        let error = Compare.maxErrorRelativeToPeak(y, try IIRFixtures.doubles("bp4_sosfiltfilt_f64"))
        #expect(error < 1e-10, "max error / peak = \(error)")
    }

    /// Double tolerance against SciPy. For bp8low (0.05–0.5 Hz at 512 Hz, 1 + a1 + a2 ≈ 1e-7)
    /// SciPy's own `sosfilt_zi` solve is off by ~1.5e-10 relative, which moves its result by
    /// ~1.2e-10 of the peak; ``extendedPrecision()`` checks our accuracy for that design.
    static func doubleTolerance(_ name: String) -> Double { name == "bp8low" ? 1e-9 : 1e-10 }

    @Test(
        "Other designs: Double within 1e-10 (bp8low 1e-9), Float within 1e-5",
        arguments: IIRFixtures.otherNames)
    func otherDesigns(name: String) throws {
        let p = try IIRFixtures.params()
        let filter = ZeroPhaseSOSFilter(try IIRFixtures.design(p.others[name]!))
        let xf = Array(try IIRFixtures.signal().prefix(p.short))
        let expected = try IIRFixtures.doubles("\(name)_sosfiltfilt")
        let ed = Compare.maxErrorRelativeToPeak(try filter.apply(xf.map(Double.init)), expected)
        let ef = Compare.maxErrorRelativeToPeak(try filter.apply(xf).map(Double.init), expected)
        #expect(ed < Self.doubleTolerance(name), "\(name) Double: max error / peak = \(ed)")
        #expect(ef < 1e-5, "\(name) Float: max error / peak = \(ef)")
    }

    @Test("bp8low: within 2e-11 of an extended-precision sosfiltfilt with exact steady state")
    func extendedPrecision() throws {
        let p = try IIRFixtures.params()
        let filter = ZeroPhaseSOSFilter(try IIRFixtures.design(p.others["bp8low"]!))
        let x = try IIRFixtures.signal().prefix(p.short).map(Double.init)
        let truth = try IIRFixtures.doubles("bp8low_sosfiltfilt_longdouble")
        let error = Compare.maxErrorRelativeToPeak(try filter.apply(x), truth)
        #expect(error < 2e-11, "max error / peak = \(error)")
    }

    @Test("A section with b0 = 0 (general numerator path): Double 1e-10, Float 1e-5")
    func generalNumerator() throws {
        let p = try IIRFixtures.params()
        let filter = ZeroPhaseSOSFilter(SOS(rows: p.general))
        let xf = Array(try IIRFixtures.signal().prefix(p.short))
        let expected = try IIRFixtures.doubles("general_sosfiltfilt")
        let ed = Compare.maxErrorRelativeToPeak(try filter.apply(xf.map(Double.init)), expected)
        let ef = Compare.maxErrorRelativeToPeak(try filter.apply(xf).map(Double.init), expected)
        #expect(ed < 1e-10, "Double: max error / peak = \(ed)")
        #expect(ef < 1e-5, "Float: max error / peak = \(ef)")
    }

    @Test("Explicit padLength (0, 1, 200) matches sosfiltfilt(padlen=…)", arguments: [0, 1, 200])
    func padLength(pad: Int) throws {
        let p = try IIRFixtures.params()
        let x = try IIRFixtures.signal().prefix(p.short).map(Double.init)
        let y = try ZeroPhaseSOSFilter(try IIRFixtures.bandPass4(), padLength: pad).apply(x)
        let error = Compare.maxErrorRelativeToPeak(y, try IIRFixtures.doubles("pad_\(pad)"))
        #expect(error < 1e-10, "padlen \(pad): max error / peak = \(error)")
    }

    @Test("Default padLength is SciPy's (27 for four second-order sections)")
    func defaultPad() throws {
        #expect(ZeroPhaseSOSFilter(try IIRFixtures.bandPass4()).padLength == 27)
    }

    @Test("Signals not longer than padLength throw signalTooShort; padLength + 1 samples work")
    func tooShort() throws {
        let filter = ZeroPhaseSOSFilter(try IIRFixtures.bandPass4())
        #expect(throws: IIRError.self) { try filter.apply([Float](repeating: 1, count: 27)) }
        #expect(throws: IIRError.self) { try filter.apply([Double]()) }
        do {
            _ = try filter.apply([Float](repeating: 1, count: 10))
        } catch {
            #expect(error.code == .signalTooShort)
        }
        let y = try filter.apply((0..<28).map { Double($0) })
        #expect(y.count == 28 && y.allSatisfy(\.isFinite))
    }

    @Test("In place equals out of place, bitwise (Float and Double, 4 and 10 sections)")
    func inPlace() throws {
        let p = try IIRFixtures.params()
        for sos in [try IIRFixtures.bandPass4(), try IIRFixtures.design(p.others["bs10"]!)] {
            let filter = ZeroPhaseSOSFilter(sos)
            var x = Array(try IIRFixtures.signal().prefix(5000))
            let expected = try filter.apply(x)
            try x.withUnsafeMutableBufferPointer { (b) throws(IIRError) in
                try filter.apply(UnsafeBufferPointer(b), into: b)
            }
            #expect(zip(x, expected).filter { $0.0.bitPattern != $0.1.bitPattern }.count == 0)
            var xd = x.map(Double.init)
            let expectedD = try filter.apply(xd)
            try xd.withUnsafeMutableBufferPointer { (b) throws(IIRError) in
                try filter.apply(UnsafeBufferPointer(b), into: b)
            }
            #expect(zip(xd, expectedD).filter { $0.0.bitPattern != $0.1.bitPattern }.count == 0)
        }
    }
}
