/// Sleep per noon-to-noon window from the epochs' z-angle.
///
/// - Sleep period time (SPT) window: HDCZA, van Hees et al. 2018, "Estimating sleep parameters
///   using an accelerometer without sleep diary", Sci Rep 8:12975, doi:10.1038/s41598-018-31266-z,
///   with GGIR's defaults: the absolute change of the z-angle between successive epochs, its
///   median over a rolling 5-min window, threshold = 10th percentile × 15 bounded to
///   0.13…0.50°, runs below the threshold longer than 30 min, gaps shorter than 60 min between them
///   joined, the longest run per noon-to-noon window.
/// - Sustained inactivity bouts: van Hees et al. 2015, "A novel, open access method to assess
///   sleep duration using a wrist-worn accelerometer", PLoS ONE 10(11):e0142533,
///   doi:10.1371/journal.pone.0142533: a posture change is a z-angle change of more than 5°
///   between successive epochs; the time between two posture changes more than 5 min apart is a
///   bout (GGIR's `vanHees2015`). The window's edges and missing or non-worn epochs count as
///   posture changes, and bouts hold worn epochs only.
///
/// Differences from GGIR, stated: the z-angle is that of the epoch's mean acceleration (GGIR
/// takes the angle of a 5-s rolling median); non-worn epochs never count as no movement (GGIR's
/// `HASPT.ignore.invalid = TRUE`) instead of imputing them; a window needs 16 h of worn data
/// (GGIR's `includenightcrit`), otherwise it has no SPT window and says why.
///
/// Streaming: a window is evaluated once its epochs and its non-wear blocks are final, so at most
/// two windows of epochs are held.
///
/// - Complexity: O(epochs · window) for the rolling median (window = 5 min of epochs); memory
///   O(epochs per day).
struct SleepDetector {
    static let minimumValidSeconds = 16.0 * 3600
    let epochSeconds: Double
    let epochsPerDay: Int
    /// Why sleep is not analysed (epoch length), or `nil`.
    let unsupported: String?

    private struct Day {
        var angle: [Float]
        /// 0: no decision, 1: worn, 2: not worn.
        var wear: [UInt8]
    }
    private var days: [Int: Day] = [:]
    private var latestEpochDay = Int.min
    private var nonWearDecidedUntil = -Double.infinity

    /// Evaluated windows, drained by the caller: noon-day index and result.
    var finished: [(day: Int, night: NightResult)] = []

    /// The numbers of one window (labels are added by the caller).
    struct NightResult: Equatable {
        var validSeconds = 0.0
        var nonWearSeconds = 0.0
        var threshold: Double?
        var onsetEpoch: Int?
        var wakeEpoch: Int?
        var sleepEpochs: Int?
        var bouts: Int?
        /// The sustained-inactivity bouts inside the SPT window, as epoch ranges of the window.
        var boutEpochs: [Range<Int>] = []
        /// Every sustained-inactivity bout of the window (maximal runs of inactive worn epochs,
        /// in or out of the SPT window), for the sleep onset latency and the naps.
        var inactiveRuns: [Range<Int>] = []
        /// For each of ``inactiveRuns``: whether the epoch just before or just after it is judged
        /// not worn (the stillness goes on into non-wear: the edge of an off-wrist period that the
        /// 15-min blocks judged worn, not a nap).
        var runTouchesNonWear: [Bool] = []
        var note: String?
    }

    init(epochSeconds: Double) {
        self.epochSeconds = epochSeconds
        let e = Int(epochSeconds)
        if e < 1 || e > 60 || 86_400 % e != 0 || 300 % e != 0 {
            unsupported = "sleep needs an epoch of at most 60 s dividing 5 min"
            epochsPerDay = 0
        } else {
            unsupported = nil
            epochsPerDay = 86_400 / e
        }
    }

    /// The noon-to-noon window of a time in s and the epoch's position in it.
    private func locate(_ seconds: Double) -> (day: Int, index: Int) {
        let shifted = seconds - 43_200
        let day = Int((shifted / 86_400).rounded(.down))
        let index = Int(((shifted - Double(day) * 86_400) / epochSeconds).rounded(.down))
        return (day, min(max(index, 0), epochsPerDay - 1))
    }

    /// A window with no epoch yet. Its arrays grow to the last epoch set and are completed
    /// to the whole window when it is evaluated: a stream of a few samples holds a few bytes,
    /// not 86 KB per window (10,000 five-sample devices took 844 MB).
    private func emptyDay() -> Day { Day(angle: [], wear: []) }

    /// Grows window `d`'s arrays to hold epoch `i`.
    private mutating func reach(_ d: Int, _ i: Int) {
        if days[d] == nil { days[d] = emptyDay() }
        let n = days[d]!.angle.count
        guard i >= n else { return }
        days[d]!.angle.append(contentsOf: repeatElement(.nan, count: i + 1 - n))
        days[d]!.wear.append(contentsOf: repeatElement(0, count: i + 1 - n))
    }

    /// Adds an epoch (its start in s, its z-angle in degrees or `nil`).
    mutating func add(epochStart: Double, angleZ: Double?) {
        guard unsupported == nil else { return }
        let (d, i) = locate(epochStart)
        latestEpochDay = max(latestEpochDay, d)
        guard let a = angleZ else { return }
        reach(d, i)
        days[d]!.angle[i] = Float(a)
    }

    /// Adds a decided non-wear block (start and length in s; blocks lie on 15-min boundaries).
    mutating func add(blockStart: Double, seconds: Double, nonWear: Bool) {
        guard unsupported == nil else { return }
        nonWearDecidedUntil = max(nonWearDecidedUntil, blockStart + seconds)
        let (d, first) = locate(blockStart)
        let count = Int((seconds / epochSeconds).rounded(.up))
        let last = min(first + count, epochsPerDay)
        reach(d, max(first, last - 1))
        for i in first..<last { days[d]!.wear[i] = nonWear ? 2 : 1 }
    }

    /// Evaluates every window whose epochs and non-wear blocks are final.
    mutating func advance() {
        for d in days.keys.sorted() {
            let end = Double(d) * 86_400 + 43_200 + 86_400
            guard latestEpochDay > d, nonWearDecidedUntil >= end else { break }
            evaluate(d)
        }
    }

    /// Ends the stream: evaluates every window left.
    mutating func finish() {
        for d in days.keys.sorted() { evaluate(d) }
    }

    private mutating func evaluate(_ d: Int) {
        guard var day = days.removeValue(forKey: d) else { return }
        let n = day.angle.count
        if n < epochsPerDay {
            day.angle.append(contentsOf: repeatElement(.nan, count: epochsPerDay - n))
            day.wear.append(contentsOf: repeatElement(0, count: epochsPerDay - n))
        }
        finished.append((d, Self.analyse(day.angle, day.wear, epochSeconds: epochSeconds)))
    }

    /// HDCZA and sustained inactivity on one window of epochs.
    static func analyse(_ angle: [Float], _ wear: [UInt8], epochSeconds: Double) -> NightResult {
        let n = angle.count
        var r = NightResult()
        var valid = [Bool](repeating: false, count: n)
        var validCount = 0, nonWearCount = 0
        for i in 0..<n {
            if wear[i] == 2 { nonWearCount += 1 }
            valid[i] = angle[i].isFinite && wear[i] != 2
            if valid[i] { validCount += 1 }
        }
        r.validSeconds = Double(validCount) * epochSeconds
        r.nonWearSeconds = Double(nonWearCount) * epochSeconds
        guard r.validSeconds >= minimumValidSeconds else {
            r.note =
                "\(hours(r.validSeconds)) h of worn data in the noon-to-noon window (\(hours(minimumValidSeconds)) h needed)"
            return r
        }
        let e = Int(epochSeconds)
        let window = 300 / e // epochs in 5 min
        // Absolute z-angle change between epoch i and i + 1 (NaN when either is missing).
        var change = [Float](repeating: .nan, count: max(n - 1, 0))
        for i in 0..<(n - 1) where valid[i] && valid[i + 1] { change[i] = abs(angle[i + 1] - angle[i]) }
        // Rolling median of the changes inside a 5-min window of epochs centred on i.
        var rolling = [Float](repeating: .nan, count: n)
        var scratch = [Float](repeating: 0, count: window)
        let half = window / 2
        if window >= 2 {
            for i in 0..<n {
                let lo = i - half, hi = lo + window - 1 // angles lo…hi, changes lo…hi−1
                guard lo >= 0, hi < n else { continue }
                var m = 0
                var complete = true
                for j in lo..<hi {
                    let c = change[j]
                    if !c.isFinite {
                        complete = false
                        break
                    }
                    scratch[m] = c
                    m += 1
                }
                guard complete, m > 0 else { continue }
                scratch[0..<m].sort()
                rolling[i] = m % 2 == 1 ? scratch[m / 2] : (scratch[m / 2 - 1] + scratch[m / 2]) / 2
            }
        }
        let finite = rolling.filter(\.isFinite).sorted()
        guard !finite.isEmpty else {
            r.note = "no complete 5-min window of z-angle in the noon-to-noon window"
            return r
        }
        // R's quantile type 7.
        let h = Double(finite.count - 1) * 0.1
        let lower = Int(h.rounded(.down))
        let upper = min(lower + 1, finite.count - 1)
        let q = Double(finite[lower]) + (h - Double(lower)) * Double(finite[upper] - finite[lower])
        let threshold = min(max(q * 15, 0.13), 0.50)
        r.threshold = threshold
        var still = rolling.map { $0.isFinite && Double($0) < threshold }
        // Runs of `still`: drop those of 30 min or less, fill interior gaps under 60 min.
        let minimumBlock = 30 * 60 / e, maximumGap = 60 * 60 / e
        for run in runs(still) where run.value && run.count <= minimumBlock {
            for i in run.start..<(run.start + run.count) { still[i] = false }
        }
        let afterDrop = runs(still)
        for (k, run) in afterDrop.enumerated() where !run.value && k > 0 && k < afterDrop.count - 1 && run.count < maximumGap {
            for i in run.start..<(run.start + run.count) { still[i] = true }
        }
        var longest: (start: Int, count: Int)? = nil
        for run in runs(still) where run.value && run.count > (longest?.count ?? 0) { longest = (run.start, run.count) }
        guard let spt = longest else {
            r.note = "no block of low z-angle variability longer than 30 min"
            return r
        }
        r.onsetEpoch = spt.start
        r.wakeEpoch = spt.start + spt.count
        // Sustained inactivity: posture changes at changes > 5°, at missing data and at the edges.
        var inactive = [Bool](repeating: false, count: n)
        var previous = -1 // a posture change "before" the first epoch
        let minimumGap = 5 * 60 / e
        func close(_ p: Int, _ q: Int) {
            // Epochs p … q (GGIR marks both ends) when the posture changes are over 5 min apart.
            guard q - p > minimumGap else { return }
            for i in max(p, 0)...min(q, n - 1) where valid[i] { inactive[i] = true }
        }
        for i in 0..<(n - 1) {
            let c = change[i]
            if !c.isFinite || c > 5 {
                close(previous, i)
                previous = i
            }
        }
        close(previous, n)
        for run in runs(inactive) where run.value {
            r.inactiveRuns.append(run.start..<(run.start + run.count))
            let before = run.start - 1, after = run.start + run.count
            r.runTouchesNonWear.append((before >= 0 && wear[before] == 2) || (after < n && wear[after] == 2))
        }
        var sleep = 0, bouts = 0
        var inBout = false
        for i in spt.start..<(spt.start + spt.count) {
            if inactive[i] {
                sleep += 1
                if !inBout {
                    bouts += 1
                    r.boutEpochs.append(i..<(i + 1))
                } else {
                    r.boutEpochs[r.boutEpochs.count - 1] = r.boutEpochs[r.boutEpochs.count - 1].lowerBound..<(i + 1)
                }
                inBout = true
            } else {
                inBout = false
            }
        }
        r.sleepEpochs = sleep
        r.bouts = bouts
        return r
    }

    private static func runs(_ values: [Bool]) -> [(value: Bool, start: Int, count: Int)] {
        var out = [(value: Bool, start: Int, count: Int)]()
        var i = 0
        while i < values.count {
            var j = i
            while j < values.count && values[j] == values[i] { j += 1 }
            out.append((values[i], i, j - i))
            i = j
        }
        return out
    }

    private static func hours(_ seconds: Double) -> String {
        let h = (seconds / 360).rounded() / 10
        return "\(h)"
    }
}
