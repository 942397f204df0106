import Cardio
import Testing

@Suite("HRV analysis and windows")
struct HRVAnalysisTests {
    @Test("whole-recording table has every metric in order")
    func whole() throws {
        let c = try HRVFixtures.load("syn1200q")
        let metrics = HRVAnalysis().metrics(c.series)
        #expect(metrics.names == HRVAnalysis.metricNames)
        #expect(metrics[.rmssd] == HRVTimeDomain(c.series).rmssd)
        #expect(metrics[.hf] == (try HRVFrequencyDomain(c.series)).hf)
        #expect(metrics[.sampEn] == (try HRVNonlinear(c.series)).sampEn)
    }

    @Test("5-minute windows are complete, ordered and analysed as slices")
    func windows() throws {
        let c = try HRVFixtures.load("syn5000") // ~75 min
        let analysis = HRVAnalysis()
        let windows = analysis.windows(c.series)
        let t = c.series.closingBeatTimesSeconds
        let origin = t[0] - c.series.intervalsMilliseconds[0] / 1000
        #expect(windows.count == Int(((t.last! - origin) / 300).rounded(.down)))
        var next = 0
        for (k, w) in windows.enumerated() {
            #expect(w.intervals.lowerBound == next)
            next = w.intervals.upperBound
            #expect(abs(w.startSeconds - (origin + 300 * Double(k))) < 1e-9)
            #expect(t[w.intervals].allSatisfy { $0 >= w.startSeconds && $0 < w.endSeconds })
            #expect(w.failure == nil)
        }
        let third = windows[2]
        let direct = analysis.metrics(try c.series.slice(third.intervals))
        #expect(third.metrics.names == direct.names)
        #expect(zip(third.metrics.values, direct.values).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) })
    }

    @Test("a window without enough beats is kept, with NaN and a reason")
    func sparseWindow() throws {
        // 2 intervals in the first 5 minutes, a gap, then 400 beats from 400 s to 720 s.
        var nn: [Double] = [800, 800]
        var times: [Double] = [0.8, 1.6]
        for i in 0...400 { nn.append(800); times.append(400 + Double(i) * 0.8) }
        let s = try NNIntervalSeries(intervalsMilliseconds: nn, closingBeatTimesSeconds: times)
        let windows = HRVAnalysis().windows(s)
        #expect(windows.count == 2) // [0, 300), [300, 600); [600, 900) incomplete
        #expect(windows[0].intervals == 0..<2)
        #expect(windows[0].metrics[.meanNN] == 800)
        #expect(windows[0].metrics[.hf]!.isNaN && windows[0].metrics[.sampEn]!.isNaN)
        #expect(windows[0].failure != nil)
        #expect(windows[1].intervals == 2..<252) // 250 beats with 400 ≤ t < 600
        #expect(windows[1].failure == nil)
    }
}
