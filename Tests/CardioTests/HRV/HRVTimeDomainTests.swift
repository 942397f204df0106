import Cardio
import Testing

@Suite("HRV time domain")
struct HRVTimeDomainTests {
    /// Every metric but TINN against NeuroKit2's `hrv_time` (the tolerance: 1e-6
    /// relative; measured ≤ 1e-14).
    @Test("matches NeuroKit2 hrv_time", arguments: HRVFixtures.seriesNames)
    func neuroKit2(_ name: String) throws {
        let c = try HRVFixtures.load(name)
        let metrics = HRVTimeDomain(c.series).metrics
        let names = HRVTimeDomain.metricNames.filter { $0 != "TINN" }
        let worst = HRVFixtures.worst(metrics, c.reference("time"), names: names)
        #expect(worst.error <= 1e-6, "\(name): \(worst.name) off by \(worst.error)")
        #expect(metrics.names == HRVTimeDomain.metricNames)
    }

    /// TINN against the Task Force definition computed by brute force in the fixture script
    /// (NeuroKit2's own TINN only tries the first N; see HRVTimeDomain).
    @Test("TINN is the Task Force least-squares triangle", arguments: HRVFixtures.seriesNames)
    func tinn(_ name: String) throws {
        let c = try HRVFixtures.load(name)
        let expected = c.reference("extra")["TINN_task_force"]!
        let tinn = HRVTimeDomain(c.series).tinn
        #expect(abs(tinn - expected) <= 1e-9 * expected)
    }

    @Test("pNN50 divides by the number of differences + 1, as NeuroKit2")
    func pnnDenominator() throws {
        // Differences: +60, −60, +10 → 2 of 3 above 50 ms → 2/(3+1) = 50 %.
        let s = try NNIntervalSeries(intervalsMilliseconds: [800, 860, 800, 810])
        let t = HRVTimeDomain(s)
        #expect(t.pnn50 == 50)
        #expect(t.pnn20 == 50)
    }

    @Test("differences across a gap in the beat times are not successive")
    func gaps() throws {
        // Interval 2 closes at 2.4 s, but interval 3 (800 ms) closes at 10 s: a gap.
        let s = try NNIntervalSeries(
            intervalsMilliseconds: [800, 800, 800, 800, 900],
            closingBeatTimesSeconds: [0.8, 1.6, 2.4, 10.0, 10.9])
        #expect(s.isSuccessive == [true, true, false, true])
        let t = HRVTimeDomain(s)
        // Successive differences: 0, 0, 100 → RMSSD = √(10000/3).
        #expect(abs(t.rmssd - (10_000.0 / 3).squareRoot()) < 1e-12)
    }

    @Test("bad intervals and times are rejected")
    func validation() {
        #expect(throws: HRVError.self) { try NNIntervalSeries(intervalsMilliseconds: [800]) }
        #expect(throws: HRVError.self) { try NNIntervalSeries(intervalsMilliseconds: [800, -1, 700]) }
        #expect(throws: HRVError.self) { try NNIntervalSeries(intervalsMilliseconds: [800, .nan, 700]) }
        #expect(throws: HRVError.self) {
            try NNIntervalSeries(intervalsMilliseconds: [800, 800], closingBeatTimesSeconds: [1.0, 1.0])
        }
    }
}
