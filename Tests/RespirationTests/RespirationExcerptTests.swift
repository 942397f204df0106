import Foundation
import Pipeline
import Recordings
import Respiration
import Testing
import _TestSupport

/// The reference rate per 32-s window from breath annotations (sample numbers at 125 Hz): 60 /
/// mean breath-to-breath interval of the breaths inside the window, for windows holding two or
/// more intervals (issue 31). Derived from the annotations only.
func annotatedRates(breathSamples: [Int], windows: Int, windowSeconds: Double = 32) -> [Int: Double] {
    var out = [Int: Double]()
    let times = breathSamples.map { Double($0) / 125 }
    for k in 0..<windows {
        let a = Double(k) * windowSeconds, b = a + windowSeconds
        let inside = times.filter { $0 >= a && $0 < b }
        guard inside.count >= 3 else { continue }
        let mean = (inside.last! - inside.first!) / Double(inside.count - 1)
        out[k] = 60 / mean
    }
    return out
}

/// Reads a BIDMC `*_Breaths.csv`: annotator 1's (column 0) or 2's breath sample numbers.
func breathSamples(_ url: URL, annotator: Int = 1) throws -> [Int] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n").dropFirst().compactMap { line in
        let f = line.split(separator: ",", omittingEmptySubsequences: false)
        guard f.count >= annotator else { return nil }
        return Int(f[annotator - 1].trimmingCharacters(in: .whitespaces))
    }
}

/// The committed BIDMC excerpt (Datasets/respiration: the first 160 s of bidmc_01, PhysioNet
/// `bidmc`, ODC-By 1.0), through the whole pipeline (`--preset bidmc`: lead II, PLETH).
@Suite struct RespirationExcerptTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Datasets/respiration")

    func rows(blockCapacity: Int = 65_536) throws -> [Streamed<RespirationWindow>] {
        let path = Self.folder.appendingPathComponent("bidmc_01_excerpt_Signals.csv.xz").path
        let analysis = AnalysisConfiguration(decode: DecodeOptions(blockCapacity: blockCapacity, preset: .bidmc))
        return try RecordingAnalysis.results(of: RecordingInput(path: path), analysis: analysis).rows(RespirationTables.respiration)
    }

    @Test func ratesAgainstTheAnnotations() throws {
        let reference = annotatedRates(
            breathSamples: try breathSamples(Self.folder.appendingPathComponent("bidmc_01_excerpt_Breaths.csv")), windows: 5)
        #expect(reference.count == 5)
        let all = try rows()
        for source in [RespirationSource.ecg, .ppg, .fused] {
            let r = all.filter { $0.value.source == source }
            #expect(r.count == 5, "\(source)")
            var rated = 0
            for w in r {
                let k = Int(w.value.startSeconds / 32)
                guard let rate = w.value.breathsPerMinute, let ref = reference[k] else { continue }
                rated += 1
                #expect(abs(rate - ref) < 2.5, "\(source) window \(k): \(rate) vs annotated \(ref)")
            }
            print("excerpt \(source): \(rated) of \(r.count) windows with a rate")
            for w in r where w.value.breathsPerMinute == nil { #expect(w.value.nullReason != nil, "\(source) \(w.value.startSeconds)") }
            // Known miss (issue 31): with the respiratory quality indices that keep noise from
            // giving a rate, few BIDMC windows pass (development part: fused 53.9 %, ECG 24.9 %,
            // PPG 40.7 % coverage; this excerpt: ECG 0, PPG 1, fused 1 of 5 windows;
            // docs/VALIDATION.md, Respiration). Rates given are checked against the annotations
            // above.
            withKnownIssue("\(source) coverage below 3 of 5 windows on the excerpt", isIntermittent: true) {
                #expect(rated >= 3, "\(source): \(rated) windows with a rate")
            }
        }
    }

    /// Chunked = whole through the decoder and the ECG/PPG families.
    @Test func blockSizeDoesNotChangeRows() throws {
        // Rows of one stream and source come in window order; how the ECG and PPG streams'
        // rows interleave follows when their beats are published, so each is compared on its own.
        func bySource(_ rows: [Streamed<RespirationWindow>]) -> [String: [RespirationWindow]] {
            Dictionary(grouping: rows) { "\($0.stream) \($0.value.source)" }.mapValues { $0.map(\.value) }
        }
        let whole = bySource(try rows())
        #expect(whole.count == 3)
        for capacity in [1_000, 4_096] {
            let chunked = bySource(try rows(blockCapacity: capacity))
            #expect(chunked == whole, "capacity \(capacity)")
        }
    }
}
