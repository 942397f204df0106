/// Beat-by-beat comparison of detected beats against reference annotations, as specified by
/// ANSI/AAMI EC57 (*Testing and reporting performance results of cardiac rhythm and ST segment
/// measurement algorithms*, 1998/R2008, §3 and §4.3) and implemented by the WFDB `bxb` program.
///
/// A detection matches a reference beat when it lies within the match window (150 ms) of it;
/// each reference beat and each detection is used at most once, and of two competing partners
/// the nearer one wins. Reference beats outside the scored interval or inside an excluded
/// interval (ventricular flutter/fibrillation episodes, which EC57 leaves out of QRS detection
/// statistics) are ignored, and so are detections there.
///
/// `scripts/ecg/compare-detectors.py` implements the same rule (`ec57_match`) for the peers.
public enum BeatMatching {
    /// EC57's match window, seconds.
    public static let windowSeconds = 0.150

    /// WFDB beat annotation codes (PhysioBank "Beat annotations"; `isqrs` in the WFDB library):
    /// `N L R B A a J S V r F e j n E / f Q ?`.
    public static let beatCodes: Set<Character> = Set("NLRBAaJSVrFejnE/fQ?")

    /// Matches `detections` against `reference`.
    /// - Parameters:
    ///   - reference: reference beat sample indices (any order).
    ///   - detections: detected beat sample indices (any order).
    ///   - sampleRate: Hz, for the 150 ms window and the offsets in milliseconds.
    ///   - scoredRange: sample interval that is scored (default: everything); EC57 scores from
    ///     5:00 on records with a learning period (NSTDB).
    ///   - excluded: closed sample intervals left out (VF episodes between `[` and `]`).
    ///   - windowSeconds: match window, seconds (default 0.150).
    /// - Returns: counts and detection − reference offsets of the matched pairs.
    /// - Complexity: O((n + m) log(n + m)) for n reference beats and m detections.
    public static func match(
        reference: [Int], detections: [Int], sampleRate: Double,
        scoredRange: Range<Int> = Int.min..<Int.max,
        excluded: [ClosedRange<Int>] = [],
        windowSeconds: Double = windowSeconds
    ) -> DetectionScore {
        precondition(sampleRate > 0, "sample rate \(sampleRate)")
        let w = Int((windowSeconds * sampleRate).rounded())
        func keep(_ x: [Int]) -> [Int] {
            x.filter { i in scoredRange.contains(i) && !excluded.contains { $0.contains(i) } }.sorted()
        }
        let r = keep(reference), d = keep(detections)
        var i = 0, j = 0
        var score = DetectionScore(sampleRate: sampleRate)
        while i < r.count && j < d.count {
            let dt = d[j] - r[i]
            if dt < -w {
                score.falsePositives += 1; j += 1
            } else if dt > w {
                score.falseNegatives += 1; i += 1
            } else if j + 1 < d.count && abs(d[j + 1] - r[i]) < abs(dt) {
                score.falsePositives += 1; j += 1
            } else if i + 1 < r.count && abs(d[j] - r[i + 1]) < abs(dt) {
                score.falseNegatives += 1; i += 1
            } else {
                score.truePositives += 1
                score.offsets.append(dt)
                i += 1; j += 1
            }
        }
        score.falseNegatives += r.count - i
        score.falsePositives += d.count - j
        return score
    }

    /// Excluded intervals from annotation symbols: each `[` … `]` pair (an unterminated `[`
    /// runs to `end`).
    /// - Parameters:
    ///   - samples: annotation sample indices.
    ///   - symbols: annotation codes, same count.
    ///   - end: index used to close an unterminated episode.
    /// - Returns: the closed intervals.
    /// - Complexity: O(n).
    public static func flutterEpisodes(samples: [Int], symbols: [Character], end: Int) -> [ClosedRange<Int>] {
        precondition(samples.count == symbols.count, "\(samples.count) samples, \(symbols.count) symbols")
        var out = [ClosedRange<Int>]()
        var open: Int?
        for (s, c) in zip(samples, symbols) {
            if c == "[" { open = s } else if c == "]", let o = open { out.append(o...max(o, s)); open = nil }
        }
        if let o = open { out.append(o...max(o, end)) }
        return out
    }
}
