import Testing

@testable import Cardio

/// The combined boundaries of two leads (``ECGWavesFamily/Combiner``) on constructed per-lead
/// boundaries: a lead's lone jump away from its own recent beats is not taken, a change both leads
/// show at once is. Expected values are the construction's.
@Suite("Waves combined rows: coherence with each lead's recent beats")
struct WaveCombinerTests {
    /// Lead rows of one beat at `time`: P onset, P offset and T offset at the given offsets (s)
    /// from the beat time, QRS at ±40 ms.
    static func lead(_ time: Double, pOn: Double, pOff: Double, tOff: Double) -> BeatWaves {
        var b = BeatWaves(beatTime: time)
        b.qrsStatus = .present
        b.qrsOnset = time - 0.04
        b.qrsOffset = time + 0.04
        b.pStatus = .present
        b.pOnset = time + pOn
        b.pOffset = time + pOff
        b.tStatus = .present
        b.tOffset = time + tOff
        return b
    }

    @Test("a lone jump of one lead's P onset, P offset or T offset is not taken; a jump of both leads is")
    func loneJump() throws {
        var c = ECGWavesFamily.Combiner(name: "combined")
        var rows: [BeatWaves] = []
        for k in 0..<14 {
            let t = Double(k)
            // Lead 0: steady. Lead 1: steady, except beat 10 (P 120 ms earlier and ending 60 ms
            // later, T end 150 ms later); from beat 12 on both leads' P starts 100 ms earlier.
            let shift = k >= 12 ? -0.1 : 0
            let a = Self.lead(t, pOn: -0.2 + shift, pOff: -0.1, tOff: 0.4)
            var b = Self.lead(t, pOn: -0.19 + shift, pOff: -0.11, tOff: 0.42)
            if k == 10 { b = Self.lead(t, pOn: -0.31, pOff: -0.05, tOff: 0.57) }
            rows.append(c.combine([a, b], leads: [0, 1]))
        }
        func rel(_ v: Double?, _ k: Int) throws -> Double { try #require(v) - Double(k) }
        // Steady beats: earliest onset, latest offset, the median (mean of two) T offset.
        #expect(abs(try rel(rows[5].pOnset, 5) + 0.2) < 1e-9)
        #expect(abs(try rel(rows[5].pOffset, 5) + 0.1) < 1e-9)
        #expect(abs(try rel(rows[5].tOffset, 5) - 0.41) < 1e-9)
        // Beat 10: lead 1's jump is left out; lead 0's values are taken.
        #expect(abs(try rel(rows[10].pOnset, 10) + 0.2) < 1e-9, "P onset \(String(describing: rows[10].pOnset))")
        #expect(abs(try rel(rows[10].pOffset, 10) + 0.1) < 1e-9)
        #expect(abs(try rel(rows[10].tOffset, 10) - 0.4) < 1e-9)
        // Beat 12: both leads moved together (no lead is coherent): the earliest of both.
        #expect(abs(try rel(rows[12].pOnset, 12) + 0.3) < 1e-9, "P onset \(String(describing: rows[12].pOnset))")
        // QRS keeps the plain earliest / latest rule.
        #expect(abs(try rel(rows[10].qrsOnset, 10) + 0.04) < 1e-9)
    }

    @Test("a P onset masked by an overlapping T in one lead gives way to the other lead's; when both or none are masked, the earliest")
    func maskedOnset() throws {
        func combined(masked0: Bool, masked1: Bool) throws -> Double {
            var c = ECGWavesFamily.Combiner(name: "combined")
            var last: BeatWaves?
            for k in 0..<6 {
                let t = Double(k)
                var a = Self.lead(t, pOn: -0.2, pOff: -0.1, tOff: 0.4)
                var b = Self.lead(t, pOn: -0.26, pOff: -0.1, tOff: 0.4)
                a.pOnsetMasked = masked0
                b.pOnsetMasked = masked1
                last = c.combine([a, b], leads: [0, 1])
            }
            return try #require(last?.pOnset) - 5
        }
        #expect(abs(try combined(masked0: false, masked1: true) + 0.2) < 1e-9)
        #expect(abs(try combined(masked0: true, masked1: false) + 0.26) < 1e-9)
        #expect(abs(try combined(masked0: true, masked1: true) + 0.26) < 1e-9)
        #expect(abs(try combined(masked0: false, masked1: false) + 0.26) < 1e-9)
    }
}
