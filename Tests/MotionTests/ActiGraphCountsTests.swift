import Foundation
import Motion
import Recordings
import Testing
import _TestSupport

/// ActiGraph counts against ActiGraph's own `agcounts` package (fixtures written by
/// `scripts/motion/make-counts-fixtures.py`: synthetic 4-minute signals at 30, 50 and 100 Hz and
/// 150-s ones at 40, 60, 70, 80 and 90 Hz, in 1/256 g, counts per 5-s epoch from
/// `agcounts.extract.get_counts`).
@Suite("ActiGraph counts (Neishabouri et al. 2022) against agcounts")
struct ActiGraphCountsTests {
    static func fixture(_ rate: Int) throws -> (input: [Int], counts: [Int]) {
        (
            try Fixtures.ints("MotionTests", "counts/synthetic_\(rate)hz_input.npy"),
            try Fixtures.ints("MotionTests", "counts/synthetic_\(rate)hz_counts.npy")
        )
    }

    @Test("per-axis counts of every epoch equal agcounts", arguments: [30, 40, 50, 60, 70, 80, 90, 100])
    func perAxis(rate: Int) throws {
        let (input, reference) = try Self.fixture(rate)
        let n = input.count / 3
        let times = (0..<n).map { Double($0) / Double(rate) + 1_700_000_000 }
        let axis = (0..<3).map { a in (0..<n).map { Float(input[$0 * 3 + a]) / 256 } }
        let epochs = MotionTestSupport.analyze(
            times: times, x: axis[0], y: axis[1], z: axis[2], info: MotionTestSupport.info(rate: Double(rate))
        ).epochs
        #expect(epochs.count == reference.count / 3)
        var worst = 0
        for (i, e) in epochs.enumerated() where i < reference.count / 3 {
            let got = [e.countsX, e.countsY, e.countsZ].map { $0 ?? -1 }
            for a in 0..<3 { worst = max(worst, abs(got[a] - reference[i * 3 + a])) }
        }
        #expect(worst == 0, "largest per-epoch difference \(worst) counts at \(rate) Hz")
    }

    @Test("counts, metrics and steps do not depend on block sizes")
    func chunkedEqualsWhole() throws {
        let (input, _) = try Self.fixture(50)
        let n = input.count / 3
        let times = (0..<n).map { Double($0) / 50 + 1_700_000_000.013 + 0.002 * sin(Double($0)) }
        let axis = (0..<3).map { a in (0..<n).map { Float(input[$0 * 3 + a]) / 256 } }
        let info = MotionTestSupport.info()
        let whole = MotionTestSupport.analyze(times: times, x: axis[0], y: axis[1], z: axis[2], info: info)
        var rng = SeededGenerator(seed: 7)
        for maxBlock in [1, 7, 300, 4096] {
            let sizes = rng.blockSizes(total: n, maxBlock: maxBlock)
            let chunked = MotionTestSupport.analyze(
                times: times, x: axis[0], y: axis[1], z: axis[2], info: info, blockSizes: sizes)
            #expect(chunked.epochs == whole.epochs, "block sizes up to \(maxBlock)")
            #expect(chunked.days == whole.days)
        }
        #expect(whole.summary.gridRateHz == 50)
        #expect(whole.summary.gridRateSource == "median interval")
    }
}

/// ActiLife 6.13.4's own counts for a real wrist GT3X (`../shared/datasets/actigraph-counts-example`):
/// the whole chain GT3X decoder → grid → counts, every axis of every 5-s epoch.
@Suite(
    "ActiGraph counts against ActiLife on a real GT3X",
    .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent: ActiLife counts validation skipped"))
struct ActiLifeCountsValidationTests {
    @Test("per-epoch counts equal ActiLife's for every axis")
    func actiLife() throws {
        let folder = try #require(Fixtures.sharedDatasets).appendingPathComponent("actigraph-counts-example")
        let opened = try RecordingOpener.open(path: folder.appendingPathComponent("example.gt3x").path)
        var analyzer: MotionStreamAnalyzer? = nil
        var index = -1
        var utcOffset = 0.0
        var epochs = [MotionEpoch]()
        while let event = try opened.decoder.next() {
            switch event {
            case .stream(let i, let info) where analyzer == nil && MotionFamily.isAccelerometer(info):
                index = i
                utcOffset = info.attributes[StreamAttribute.utcOffsetSeconds].flatMap { Double($0) } ?? 0
                analyzer = MotionStreamAnalyzer(streamName: "gt3x", info: info, options: MotionOptions())
            case .block(let b) where b.stream == index:
                analyzer?.consume(b)
                epochs += analyzer?.takeEpochs() ?? []
            default: break
            }
        }
        var a = try #require(analyzer)
        let summary = a.finish().summary
        epochs += a.takeEpochs()
        #expect(summary.note == nil, "\(summary.note ?? "")")
        #expect(summary.gridSamples == 18_000, "grid samples \(summary.gridSamples) of \(summary.inputSamples)")
        let text = try String(contentsOf: folder.appendingPathComponent("example5sec_actilife_counts.csv"), encoding: .utf8)
        let rows = text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
        #expect(rows.count == 36)
        var byStart = [Double: MotionEpoch]()
        // ActiLife's epoch times are the device's local clock; the decoder gives UTC (its TimeZone line).
        for e in epochs { byStart[e.startSeconds + utcOffset] = e }
        var worst = 0
        var matched = 0
        var totals = [0, 0, 0]
        for r in rows {
            guard let e = byStart[r[0]] else {
                Issue.record("no epoch at \(r[0])")
                continue
            }
            // ActiLife: axis1 = y, axis2 = x, axis3 = z.
            let got = [e.countsY ?? -1, e.countsX ?? -1, e.countsZ ?? -1]
            for a in 0..<3 {
                worst = max(worst, abs(got[a] - Int(r[a + 1])))
                totals[a] += got[a]
            }
            matched += 1
        }
        print(
            "ActiLife counts: \(matched) of \(epochs.count) epochs matched (first \(epochs.first?.startSeconds ?? 0)), largest difference \(worst) counts; axis1 total \(totals[0]) (ActiLife 6513)"
        )
        #expect(matched == 36)
        #expect(worst <= 1)
    }
}
