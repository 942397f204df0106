import DSP
import Foundation
import Testing
import _TestSupport

/// Shared fixture access for the IIR filtering tests.
enum IIRFixtures {
    struct Params: Decodable {
        struct Design: Decodable {
            var order: Int
            var edges: [Double]
            var btype: String
            var fs: Double
        }
        var count: Int
        var prefix: Int
        var short: Int
        var others: [String: Design]
        var pads: [Int]
        var bp4: Design
        var general: [[Double]]
    }

    static func params() throws -> Params {
        try JSONDecoder().decode(Params.self, from: Data(contentsOf: Fixtures.url("DSPTests", "iir/params.json")))
    }

    static func design(_ d: Params.Design) throws -> SOS {
        let band: FilterBand
        switch d.btype {
        case "lowpass": band = .lowPass(cutoff: d.edges[0])
        case "highpass": band = .highPass(cutoff: d.edges[0])
        case "bandpass": band = .bandPass(low: d.edges[0], high: d.edges[1])
        default: band = .bandStop(low: d.edges[0], high: d.edges[1])
        }
        return try ButterworthDesign(order: d.order, band: band, sampleRate: d.fs).sos
    }

    static func bandPass4() throws -> SOS {
        try ButterworthDesign(order: 4, band: .bandPass(low: 0.5, high: 40), sampleRate: 512).sos
    }

    static func signal() throws -> [Float] {
        try NPY.read(Fixtures.url("DSPTests", "iir/x.npy")).floats
    }

    static func doubles(_ name: String) throws -> [Double] {
        try Fixtures.doubles("DSPTests", "iir/\(name).npy")
    }

    static let otherNames = ["lp5", "hp2", "bs10", "bp8low", "lp20"]
}

@Suite("SOSFilter (causal) against scipy.signal.sosfilt")
struct SOSFilterTests {
    @Test("Float, 1e5 samples, order-4 band-pass: within 1e-5 of float64 sosfilt")
    func floatBandPass() throws {
        let x = try IIRFixtures.signal()
        var filter = SOSFilter<Float>(try IIRFixtures.bandPass4())
        let y = filter.process(x).map(Double.init)
        let error = Compare.maxErrorRelativeToPeak(y, try IIRFixtures.doubles("bp4_sosfilt"))
        #expect(error < 1e-5, "max error / peak = \(error)")
    }

    @Test("Float with steady-state start: matches sosfilt(zi = sosfilt_zi * x[0])")
    func floatSteadyState() throws {
        let x = try IIRFixtures.signal()
        var filter = SOSFilter<Float>(try IIRFixtures.bandPass4(), initialization: .steadyState)
        let y = filter.process(x).map(Double.init)
        let error = Compare.maxErrorRelativeToPeak(y, try IIRFixtures.doubles("bp4_sosfilt_zi"))
        #expect(error < 1e-5, "max error / peak = \(error)")
    }

    @Test("Double, order-4 band-pass: within 1e-10 of float64 sosfilt (plain and steady-state)")
    func doubleBandPass() throws {
        let p = try IIRFixtures.params()
        let x = try IIRFixtures.signal().prefix(p.prefix).map(Double.init)
        let sos = try IIRFixtures.bandPass4()
        var plain = SOSFilter<Double>(sos)
        var steady = SOSFilter<Double>(sos, initialization: .steadyState)
        let e1 = Compare.maxErrorRelativeToPeak(plain.process(x), try IIRFixtures.doubles("bp4_sosfilt_f64"))
        let e2 = Compare.maxErrorRelativeToPeak(steady.process(x), try IIRFixtures.doubles("bp4_sosfilt_zi_f64"))
        #expect(e1 < 1e-10, "plain: max error / peak = \(e1)")
        #expect(e2 < 1e-10, "steady state: max error / peak = \(e2)")
    }

    @Test(
        "Other designs (1, 3, 8, 10 sections; sub-hertz poles): Double within 1e-10, Float within 1e-5",
        arguments: IIRFixtures.otherNames)
    func otherDesigns(name: String) throws {
        let p = try IIRFixtures.params()
        let sos = try IIRFixtures.design(p.others[name]!)
        let xf = Array(try IIRFixtures.signal().prefix(p.short))
        let expected = try IIRFixtures.doubles("\(name)_sosfilt")
        var fd = SOSFilter<Double>(sos)
        var ff = SOSFilter<Float>(sos)
        let ed = Compare.maxErrorRelativeToPeak(fd.process(xf.map(Double.init)), expected)
        let ef = Compare.maxErrorRelativeToPeak(ff.process(xf).map(Double.init), expected)
        #expect(ed < 1e-10, "\(name) Double: max error / peak = \(ed)")
        #expect(ef < 1e-5, "\(name) Float: max error / peak = \(ef)")
    }

    @Test("A section with b0 = 0 (general numerator path), five sections: Double 1e-10, Float 1e-5")
    func generalNumerator() throws {
        let p = try IIRFixtures.params()
        let sos = SOS(rows: p.general)
        let xf = Array(try IIRFixtures.signal().prefix(p.short))
        let expected = try IIRFixtures.doubles("general_sosfilt")
        var fd = SOSFilter<Double>(sos)
        var ff = SOSFilter<Float>(sos)
        let ed = Compare.maxErrorRelativeToPeak(fd.process(xf.map(Double.init)), expected)
        let ef = Compare.maxErrorRelativeToPeak(ff.process(xf).map(Double.init), expected)
        #expect(ed < 1e-10, "Double: max error / peak = \(ed)")
        #expect(ef < 1e-5, "Float: max error / peak = \(ef)")
    }

    @Test("SOS(rows:) divides each row by its a0")
    func rowNormalisation() {
        let sos = SOS(rows: [[2, 4, 2, 2, -1, 0.5], [1, 0, -1, 1, 0.25, 0.125]])
        #expect(sos.sections[0] == SOS.Section(b0: 1, b1: 2, b2: 1, a1: -0.5, a2: 0.25))
        #expect(sos.rows[1] == [1, 0, -1, 1, 0.25, 0.125])
        #expect(sos.count == 2)
    }

    @Test("Arbitrary initial conditions (SciPy zi layout) and final conditions zf")
    func arbitraryConditions() throws {
        let p = try IIRFixtures.params()
        let x = try IIRFixtures.signal().prefix(p.short).map(Double.init)
        let flat = try IIRFixtures.doubles("zi_arbitrary")
        let zi = stride(from: 0, to: flat.count, by: 2).map { [flat[$0], flat[$0 + 1]] }
        var filter = SOSFilter<Double>(try IIRFixtures.bandPass4(), initialization: .conditions(zi))
        let y = filter.process(x)
        let e = Compare.maxErrorRelativeToPeak(y, try IIRFixtures.doubles("zi_sosfilt"))
        let zf = filter.finalConditions.flatMap { $0 }
        let ez = Compare.maxErrorRelativeToPeak(zf, try IIRFixtures.doubles("zi_zf"))
        #expect(e < 1e-10, "output: max error / peak = \(e)")
        #expect(ez < 1e-10, "zf: max error / peak = \(ez)")
        // finalConditions round-trips through .conditions.
        var again = SOSFilter<Double>(filter.sos, initialization: .conditions(filter.finalConditions))
        var cont = filter
        let tail = Array(x.prefix(500))
        let diff = Compare.maxErrorRelativeToPeak(again.process(tail), cont.process(tail))
        #expect(diff < 1e-12, "continuation via zf: \(diff)")
    }

    /// Designs covering every kernel shape: one and two sections (a two-section group), four,
    /// six (four + two), ten (four + four + two) and twenty sections; plus "general" (b0 = 0).
    static let chunkDesigns: [String: (order: Int, band: FilterBand)] = [
        "lp2": (2, .lowPass(cutoff: 40)), "lp4": (4, .lowPass(cutoff: 40)),
        "bp4": (4, .bandPass(low: 0.5, high: 40)), "hp11": (11, .highPass(cutoff: 0.5)),
        "bs10": (10, .bandStop(low: 45, high: 55)), "bp20": (20, .bandPass(low: 0.5, high: 40)),
    ]

    @Test(
        "Chunked feeding with random block sizes equals whole, bitwise",
        arguments: [
            ("bp4", 1), ("bp4", 40), ("bp4", 5000), ("lp2", 13), ("lp4", 300), ("hp11", 37),
            ("bs10", 2000), ("bp20", 7), ("bp20", 3000), ("general", 77),
        ])
    func chunked(name: String, maxBlock: Int) throws {
        let sos: SOS
        if let d = Self.chunkDesigns[name] {
            sos = try ButterworthDesign(order: d.order, band: d.band, sampleRate: 512).sos
        } else {
            sos = SOS(rows: try IIRFixtures.params().general) // b0 = 0: general numerator path
        }
        let x = Array(try IIRFixtures.signal().prefix(sos.count > 4 ? 8_000 : 30_000))
        for initialization in [SOSFilter<Float>.Initialization.zero, .steadyState] {
            var whole = SOSFilter<Float>(sos, initialization: initialization)
            let expected = whole.process(x)
            var chunked = SOSFilter<Float>(sos, initialization: initialization)
            var got = [Float]()
            var rng = SeededGenerator(seed: UInt64(sos.count * 1000 + maxBlock))
            var start = 0
            for size in rng.blockSizes(total: x.count, maxBlock: maxBlock) {
                x[start..<(start + size)].withUnsafeBufferPointer { chunked.process($0, into: &got) }
                start += size
            }
            chunked.finish(into: &got)
            #expect(got.count == expected.count)
            let mismatches = zip(got, expected).filter { $0.0.bitPattern != $0.1.bitPattern }.count
            #expect(mismatches == 0, "\(name): \(mismatches) samples differ (\(initialization))")
        }
        // Double too.
        let xd = x.map(Double.init)
        var whole = SOSFilter<Double>(sos)
        let expected = whole.process(xd)
        var chunked = SOSFilter<Double>(sos)
        var got = [Double]()
        var rng = SeededGenerator(seed: UInt64(maxBlock))
        var start = 0
        for size in rng.blockSizes(total: xd.count, maxBlock: maxBlock) {
            chunked.process(Array(xd[start..<(start + size)]), into: &got)
            start += size
        }
        let mismatches = zip(got, expected).filter { $0.0.bitPattern != $0.1.bitPattern }.count
        #expect(got.count == expected.count && mismatches == 0, "\(name): \(mismatches) Double samples differ")
    }

    @Test("A decayed state is flushed to exact zeros (no subnormal numbers after an impulse)")
    func subnormalFlush() throws {
        // The slowest section's poles have radius 0.9977: 1 → 1e-290 takes ~290,000 samples.
        var x = [Float](repeating: 0, count: 400_000)
        x[0] = 1
        var filter = SOSFilter<Float>(try IIRFixtures.bandPass4())
        let y = filter.process(x)
        let state = filter.finalConditions.flatMap { $0 }
        #expect(state.allSatisfy { $0 == 0 }, "state \(state)")
        #expect(y.suffix(1000).allSatisfy { $0 == 0 })
        #expect(y[100] != 0)
    }

    @Test("finish resets: a second segment is filtered exactly like the first")
    func finishResets() throws {
        let x = Array(try IIRFixtures.signal().prefix(3000))
        var filter = SOSFilter<Float>(try IIRFixtures.bandPass4(), initialization: .steadyState)
        var first = [Float](), second = [Float]()
        filter.process(x, into: &first)
        filter.finish(into: &first)
        filter.process(x, into: &second)
        #expect(first.count == x.count)
        #expect(zip(first, second).filter { $0.0 != $0.1 }.count == 0)
    }

    @Test("In-place pointer form equals the out-of-place form")
    func inPlace() throws {
        var x = Array(try IIRFixtures.signal().prefix(4000))
        var a = SOSFilter<Float>(try IIRFixtures.bandPass4())
        let expected = a.process(x)
        var b = SOSFilter<Float>(try IIRFixtures.bandPass4())
        x.withUnsafeMutableBufferPointer { p in b.process(p.baseAddress!, into: p.baseAddress!, count: p.count) }
        #expect(zip(x, expected).filter { $0.0 != $0.1 }.count == 0)
    }
}
