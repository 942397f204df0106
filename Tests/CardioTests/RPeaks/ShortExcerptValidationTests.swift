import Cardio
import Foundation
import Testing
import _TestSupport

/// Short recordings (Apple Watch ECG sessions are 30 s): `RPeakDetector` on 10-s and 30-s
/// excerpts cut at seeded random offsets from the 48 MIT-BIH records (channel 0), each excerpt
/// analysed on its own from a fresh detector, every annotated beat inside scored under EC57
/// (150 ms). A detection matching an annotated beat just outside the excerpt (within 150 ms of
/// its edge) is neither a true nor a false positive; ventricular flutter episodes are excluded
/// as in the whole-record validation. Misses of each excerpt's first and last annotated beat are
/// counted separately. Target (issue 10): gross Se and +P ≥ 99.7 % on the 10-s excerpts.
/// Writes the table to docs/VALIDATION.md (between the `excerpts` markers) in release builds.
/// `EXCERPT_DETAIL=1` prints each excerpt's false positives and negatives (seconds from its start).
/// Full run: `swift test -c release --filter ShortExcerpt`.
@Suite("R-peaks on short excerpts of MIT-BIH (10 s and 30 s)")
struct ShortExcerptValidationTests {
    static let enabled = Fixtures.sharedDatasets != nil && ECGRecord.xzAvailable

    struct Tally {
        var excerpts = 0, tp = 0, fn = 0, fp = 0
        var firstBeats = 0, firstMissed = 0, lastBeats = 0, lastMissed = 0
        /// Beats whose R apex lies at least 0.1 s inside both edges (the QRS complete), and their misses.
        var complete = 0, completeMissed = 0
        var completeSe: Double { complete > 0 ? Double(complete - completeMissed) / Double(complete) : .nan }
        var se: Double { tp + fn > 0 ? Double(tp) / Double(tp + fn) : .nan }
        var pp: Double { tp + fp > 0 ? Double(tp) / Double(tp + fp) : .nan }
    }

    /// SplitMix64 (Steele, Lea & Flood 2014): a fixed seed gives the same offsets everywhere.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Scores one excerpt `[start, start + length)` of record `r` (absolute samples).
    static func score(_ r: ECGRecord, start: Int, length: Int, into t: inout Tally) {
        let end = start + length
        let w = Int((BeatMatching.windowSeconds * r.sampleRate).rounded())
        if r.flutter.contains(where: { $0.lowerBound < end && $0.upperBound >= start }) { return }
        let peaks = RPeakDetector.detect(
            Array(r.samples[start..<end]), sampleRate: r.sampleRate, flags: Array(r.flags[start..<end])
        ).map { $0 + start }
        let refs = r.beats.filter { $0 >= start - w && $0 < end + w }
        var used = [Bool](repeating: false, count: peaks.count)
        var matched = [Bool](repeating: false, count: refs.count)
        // Nearest unused detection within the window, reference beats in order.
        for (i, ref) in refs.enumerated() {
            var best = -1
            for (j, p) in peaks.enumerated() where !used[j] && abs(p - ref) <= w {
                if best < 0 || abs(p - ref) < abs(peaks[best] - ref) { best = j }
            }
            if best >= 0 { used[best] = true; matched[i] = true }
        }
        let inside = refs.indices.filter { refs[$0] >= start && refs[$0] < end }
        t.excerpts += 1
        let edge = Int((0.1 * r.sampleRate).rounded())
        for i in inside {
            if matched[i] { t.tp += 1 } else { t.fn += 1 }
            if refs[i] - start >= edge && end - 1 - refs[i] >= edge {
                t.complete += 1
                if !matched[i] { t.completeMissed += 1 }
            }
        }
        t.fp += used.filter { !$0 }.count
        if ProcessInfo.processInfo.environment["EXCERPT_DETAIL"] != nil {
            let fps = peaks.indices.filter { !used[$0] }.map { Double(peaks[$0] - start) / r.sampleRate }
            let fns = inside.filter { !matched[$0] }.map { Double(refs[$0] - start) / r.sampleRate }
            if !fps.isEmpty || !fns.isEmpty { print("EXCERPT \(r.name) \(length) @\(start): FP \(fps) FN \(fns)") }
        }
        if let f = inside.first {
            t.firstBeats += 1
            if !matched[f] { t.firstMissed += 1 }
        }
        if let l = inside.last {
            t.lastBeats += 1
            if !matched[l] { t.lastMissed += 1 }
        }
    }

    static func pct(_ v: Double) -> String { v.isNaN ? "–" : String(format: "%.2f", 100 * v) }

    @Test("gross Se and +P on 10-s and 30-s excerpts", .enabled(if: enabled, "needs ../shared/datasets and xz"))
    func excerpts() throws {
        var rng = SplitMix(state: 20_261_202)
        var tallies = [10: Tally(), 30: Tally()]
        #if DEBUG
            let perRecord = 2
        #else
            let perRecord = 20
        #endif
        for name in MITBIHValidationTests.mitRecords {
            let r = try ECGRecord.load(set: "mitdb", name: name)
            for seconds in [10, 30] {
                let length = Int(Double(seconds) * r.sampleRate)
                for _ in 0..<perRecord {
                    let start = Int(rng.next() % UInt64(r.samples.count - length))
                    Self.score(r, start: start, length: length, into: &tallies[seconds]!)
                }
            }
        }
        var doc = "## R-peaks on short excerpts (issue 10 item 5)\n\n"
        doc += "Generated by `swift test -c release --filter ShortExcerpt` (Tests/CardioTests/RPeaks/ShortExcerptValidationTests.swift): "
        doc += "\(perRecord) excerpts of each length per MIT-BIH record (48 records, channel 0) at SplitMix64-seeded offsets, each "
        doc += "analysed by a fresh `RPeakDetector`; every annotated beat inside scored under EC57 (150 ms); detections of a "
        doc += "beat annotated just outside the excerpt are not counted; excerpts touching a ventricular flutter episode skipped. "
        doc += "Target: gross Se and +P ≥ 99.7 % on 10-s excerpts.\n\n"
        doc += "| excerpt | excerpts | beats | TP | FN | FP | Se % | +P % | first beat missed | last beat missed "
        doc += "| Se % of complete beats (apex ≥ 0.1 s inside) |\n"
        doc += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for seconds in [10, 30] {
            let t = tallies[seconds]!
            doc +=
                "| \(seconds) s | \(t.excerpts) | \(t.tp + t.fn) | \(t.tp) | \(t.fn) | \(t.fp) | \(Self.pct(t.se)) | \(Self.pct(t.pp)) | "
            doc += "\(t.firstMissed) of \(t.firstBeats) | \(t.lastMissed) of \(t.lastBeats) | \(Self.pct(t.completeSe)) |\n"
        }
        print(doc)
        #if !DEBUG
            writeDoc(doc)
            let t = tallies[10]!
            // The target (today 99.73 / 99.77 %; docs/VALIDATION.md).
            #expect(t.se >= 0.9970, "10-s excerpts: Se \(Self.pct(t.se)) %")
            #expect(t.pp >= 0.9970, "10-s excerpts: +P \(Self.pct(t.pp)) %")
        #else
            #expect(tallies[10]!.tp > 0)
        #endif
    }

    func writeDoc(_ section: String) {
        ValidationDocument.replaceBlock("excerpts", writtenBy: "ShortExcerptValidationTests", with: section)
    }
}
