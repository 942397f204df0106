import DSP
import Features
import Foundation
import Recordings
import Testing
import _TestSupport

/// Features of derived series (NN intervals, ENMO epochs) against NumPy/SciPy
/// (scripts/make-derived-feature-fixtures.py): the windows (present and valid counts, rate, valid
/// fraction, which windows get features) and every feature within 1e-6 relative; the NN series is
/// an event series and has no spectral features.
@Suite struct DerivedSeriesFeatureTests {
    static var reference: [String: Any] { (try? Fixtures.json("FeaturesTests", "reference/derived.json")) ?? [:] }

    /// A derived sample: the event and its series' declaration (one attribute `value`).
    typealias Sample = (event: DerivedEvent, series: DerivedSeries)

    static func samples(_ series: String, family: String, unit: String, rate: Double?, event: Bool) throws -> [Sample] {
        let flat = try Fixtures.doubles("FeaturesTests", "reference/derived_\(series).npy")
        let declaration = DerivedSeries(
            source: family, name: series, summary: "test series", isEventSeries: event,
            attributes: [.number("value", unit: unit, "the value")])
        return (0..<(flat.count / 2)).map { i in
            (
                DerivedEvent(
                    series: declaration.id, stream: "dev/\(family)", time: flat[2 * i], nominalRate: rate,
                    values: [.number(flat[2 * i + 1])]), declaration
            )
        }
    }

    static var options: FeaturesOptions {
        var o = FeaturesOptions()
        o.derivedWindowSeconds = 60
        o.derivedStepSeconds = 60
        return o
    }

    /// Feeds samples (in the given order) to one analyzer; returns its output.
    static func run(_ samples: [Sample], options: FeaturesOptions = options) throws -> CollectingOutput {
        var analyzer = FeaturesFamily.makeAnalyzer(options: options)
        #expect(!analyzer.subscriptions.isEmpty)
        let output = CollectingOutput()
        for s in samples { try analyzer.consume(derived: s.event, series: s.series, output: output) }
        try analyzer.finish(output: output)
        return output
    }

    @Test(arguments: [("nn", "ecg", "ms"), ("enmo", "acc", "mg")])
    func windowsAndFeaturesAgreeWithNumPy(_ series: String, _ family: String, _ unit: String) throws {
        let ref = try #require(Self.reference[series] as? [String: Any], "fixture series \(series) missing")
        let event = try #require(ref["event"] as? Bool)
        let rate = (ref["nominal_rate"] as? NSNumber)?.doubleValue
        let samples = try Self.samples(series, family: family, unit: unit, rate: rate, event: event)
        let out = try Self.run(samples)
        let refWindows = try #require(ref["windows"] as? [[String: Any]])
        let windows = out.table("feature_windows")
        try #require(windows.count == refWindows.count, "\(series): \(windows.count) windows, NumPy \(refWindows.count)")
        let rows = out.table("features")
        var worst = 0.0
        for (w, r) in zip(windows, refWindows) {
            let start = try #require((r["start"] as? NSNumber)?.doubleValue)
            #expect(w[0].string == "dev/\(family)" && w[9].string == series)
            #expect(w[1].double == start && w[2].double == start + 60)
            #expect(w[3].double == (r["present"] as? NSNumber)?.doubleValue, "\(series) \(start): present")
            #expect(w[4].double == (r["valid"] as? NSNumber)?.doubleValue, "\(series) \(start): valid")
            let refRate = try #require((r["rate"] as? NSNumber)?.doubleValue)
            let refFraction = try #require((r["fraction"] as? NSNumber)?.doubleValue)
            #expect(abs((w[6].double ?? .nan) - refRate) <= 1e-12 * refRate, "\(series) \(start): rate")
            #expect(abs((w[5].double ?? .nan) - refFraction) <= 1e-12, "\(series) \(start): fraction")
            let values = rows.filter { $0[1].double == start }
            guard let features = r["features"] as? [String: Any] else {
                #expect(w[8].string != nil, "\(series) \(start): a window without features needs a reason")
                #expect(values.isEmpty)
                continue
            }
            #expect(w[8] == .null)
            var named = [String: Double]()
            let prefix = "\(family)_\(series)_"
            for v in values {
                let name = try #require(v[3].string)
                #expect(name.hasPrefix(prefix), "\(name)")
                named[String(name.dropFirst(prefix.count))] = v[4].double ?? .nan
            }
            let scale = features["max"].flatMap { ($0 as? NSNumber)?.doubleValue } ?? 1
            worst = max(
                worst, FeatureReferenceTests.check(named, reference: features, scale: scale * scale, label: "\(series) \(start)"))
        }
        if event { #expect(!rows.contains { $0[3].string?.contains("spectral") == true }, "event series: no spectral features") }
        print("derived \(series): \(windows.count) windows, worst relative error against NumPy \(worst)")
    }

    /// Two series of one stream interleaved sample by sample give each series the rows it gets alone.
    @Test func interleavedSeriesAreIndependent() throws {
        let nn = try Self.samples("nn", family: "ecg", unit: "ms", rate: nil, event: true)
        let enmo = try Self.samples("enmo", family: "acc", unit: "mg", rate: 0.2, event: false).map {
            var s = $0
            s.event.stream = "dev/ecg"
            return s
        }
        var mixed = [Sample]()
        var i = 0, j = 0
        while i < nn.count || j < enmo.count {
            if i < nn.count { mixed.append(nn[i]); i += 1 }
            if i < nn.count && i % 3 == 0 { mixed.append(nn[i]); i += 1 }
            if j < enmo.count { mixed.append(enmo[j]); j += 1 }
        }
        let together = try Self.run(mixed)
        let alone = try Self.run(nn).table("features") + Self.run(enmo).table("features")
        func key(_ r: [ResultValue]) -> String { "\(r[0].string ?? "")|\(r[1].double ?? 0)|\(r[3].string ?? "")" }
        let a = Dictionary(uniqueKeysWithValues: together.table("features").map { (key($0), $0) })
        let b = Dictionary(uniqueKeysWithValues: alone.map { (key($0), $0) })
        #expect(a.count == b.count && a.count > 0)
        for (k, v) in b { #expect(a[k] == v, "\(k)") }
    }

    /// Off (`derived` false, or the catalog `none`): no derived series consumed.
    @Test func derivedSeriesCanBeTurnedOff() throws {
        var o = Self.options
        o.derivedSeries = false
        #expect(FeaturesFamily.makeAnalyzer(options: o).subscriptions.isEmpty)
        o.derivedSeries = true
        o.catalog = "none"
        #expect(FeaturesFamily.makeAnalyzer(options: o).subscriptions.isEmpty)
    }

    /// `features --list` names every derived column: NN without spectral features, ENMO with.
    @Test func listNamesTheDerivedSeries() {
        let names = Set(FeatureColumns.list(FeatureExtractor.Configuration()).map(\.name))
        #expect(names.contains("ecg_nn_mean") && names.contains("ppg_nn_mean_abs_diff") && names.contains("ecg_hr_p95"))
        #expect(names.contains("acc_enmo_spectral_entropy") && names.contains("ppg_hrSpectralOffline_median"))
        #expect(!names.contains("ecg_nn_spectral_entropy") && !names.contains("ppg_nn_dominant_frequency"))
    }
}
