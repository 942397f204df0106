import DSP
import Features
import Foundation
import Recordings
import Testing
import _TestSupport

/// The catalog's names: unique, stable in form, documented in docs/FEATURES.md.
@Suite struct FeatureCatalogTests {
    @Test func namesAreUniqueAndDocumented() throws {
        let list = FeatureColumns.list(FeatureExtractor.Configuration())
        #expect(Set(list.map(\.name)).count == list.count)
        let doc = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/FEATURES.md"), encoding: .utf8)
        for d in FeatureExtractor().features + [FeatureCatalog.signalMagnitudeArea] {
            #expect(doc.contains("`\(d.name)`"), "docs/FEATURES.md does not list \(d.name)")
        }
        #expect(doc.contains("version \(FeatureCatalog.version)"))
        for name in list.map(\.name) {
            #expect(name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }, "\(name)")
        }
    }

    @Test func catalogChoicesSelectGroups() {
        var options = FeaturesOptions()
        options.catalog = "statistical+spectral"
        #expect(options.groups == [.statistical, .spectral])
        #expect(FeaturesFamily.catalogChoices.contains("statistical+spectral"))
        let extractor = FeatureExtractor(configuration: options.configuration)
        #expect(!extractor.features.contains { $0.group == .temporal })
        options.catalog = "none"
        options.rawStreams = true
        var analyzer = FeaturesFamily.makeAnalyzer(options: options)
        let info = StreamInfo(
            key: StreamKey(deviceID: "d", sensor: .accelerometer, channel: "a"), columns: [ColumnInfo(name: "x", unit: .standardGravity)])
        let claimed = analyzer.claim(AnnouncedStream(index: 0, info: info, file: "f"))
        #expect(!claimed)
    }

    @Test("raw streams are analysed only with rawStreams (--features-raw true); the derived series by default")
    func rawStreamsAreOptIn() {
        let info = StreamInfo(
            key: StreamKey(deviceID: "d", sensor: .accelerometer, channel: "a"), columns: [ColumnInfo(name: "x", unit: .standardGravity)])
        var byDefault = FeaturesFamily.makeAnalyzer(options: FeaturesOptions())
        let claimedByDefault = byDefault.claim(AnnouncedStream(index: 0, info: info, file: "f"))
        #expect(!claimedByDefault)
        #expect(!byDefault.subscriptions.isEmpty)
        var options = FeaturesOptions()
        options.rawStreams = true
        var optedIn = FeaturesFamily.makeAnalyzer(options: options)
        let claimedOptedIn = optedIn.claim(AnnouncedStream(index: 0, info: info, file: "f"))
        #expect(claimedOptedIn)
        #expect(FeaturesFamily.options.contains { $0.key == "raw" })
    }
}
