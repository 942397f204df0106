import Foundation

/// Holds the final epochs of one accelerometer stream by clock day (ENMO of worn epochs,
/// intensity class, steps) and its nights' sleep bouts, for the day- and recording-level
/// outcomes computed at the end of the stream: ``MotionDayOutcomes`` per valid day and
/// ``MotionRhythm`` per resolution. Epochs arrive in time order, each once, whatever the block
/// sizes, so the outcomes are the same for any chunking.
///
/// Worn: the epoch's 15-min block is judged worn (`non_wear = 0`); undecided and non-worn epochs
/// never count as rest, activity or sleep.
///
/// - Complexity: memory 7 bytes per epoch slot of every day with an epoch (≈ 121 kB a day at 5 s).
struct ActivityAccumulator {
    let epochSeconds: Double
    let slotsPerDay: Int
    /// Why no outcome is computed (epoch length), or `nil`.
    let unsupported: String?

    private struct Day {
        /// ENMO (mg) of worn epochs with metrics, `NaN` otherwise.
        var enmo: [Float]
        /// 0 none (not worn or no metrics), 1 sedentary, 2 light, 3 moderate, 4 vigorous.
        var intensity: [UInt8]
        var steps: [UInt16]
        /// 0 no night analysed, 1 in a night with a sleep period window, 2 in one of its sleep bouts.
        var sleep: [UInt8]
    }
    private var days: [Int: Day] = [:]
    private var nights: [MotionNight] = []

    init(epochSeconds: Double) {
        self.epochSeconds = epochSeconds
        let e = Int(epochSeconds)
        if Double(e) != epochSeconds || e < 1 || e > 60 || 60 % e != 0 {
            unsupported = "day outcomes and the rhythm need an epoch of whole seconds dividing 1 min"
            slotsPerDay = 0
        } else {
            unsupported = nil
            slotsPerDay = 86_400 / e
        }
    }

    private func emptyDay() -> Day {
        Day(
            enmo: [Float](repeating: .nan, count: slotsPerDay), intensity: [UInt8](repeating: 0, count: slotsPerDay),
            steps: [UInt16](repeating: 0, count: slotsPerDay), sleep: [UInt8](repeating: 0, count: slotsPerDay))
    }

    private func locate(_ seconds: Double) -> (day: Int, slot: Int) {
        let day = Int((seconds / 86_400).rounded(.down))
        let slot = Int(((seconds - Double(day) * 86_400) / epochSeconds).rounded(.down))
        return (day, min(max(slot, 0), slotsPerDay - 1))
    }

    /// Adds a final epoch (its non-wear decided).
    mutating func add(_ e: MotionEpoch) {
        guard unsupported == nil else { return }
        let (d, i) = locate(e.startSeconds)
        if days[d] == nil { days[d] = emptyDay() }
        let worn = e.nonWear == false
        if worn, let v = e.enmoMilliG { days[d]!.enmo[i] = Float(v) }
        if worn, let c = e.intensity {
            switch c {
            case .sedentary: days[d]!.intensity[i] = 1
            case .light: days[d]!.intensity[i] = 2
            case .moderate: days[d]!.intensity[i] = 3
            case .vigorous: days[d]!.intensity[i] = 4
            }
        }
        days[d]!.steps[i] = UInt16(clamping: e.steps)
    }

    /// Adds a night (its sleep bouts mark the epochs as asleep for the sleep regularity index).
    mutating func add(night: MotionNight) {
        guard unsupported == nil, night.onsetSeconds != nil else { return }
        nights.append(night)
    }

    /// The outcomes of one day, or why there are none.
    /// - Parameters:
    ///   - day: the day index (days since the time origin).
    ///   - wearSeconds: the day's worn time (``MotionDay/wearSeconds``).
    ///   - options: the family's options (valid-day rule, epoch length, cut-points).
    func outcomes(day: Int, wearSeconds: Double, options: MotionOptions) -> (MotionDayOutcomes?, String?) {
        if let unsupported { return (nil, unsupported) }
        let needed = options.validDayWearHours * 3600
        guard wearSeconds >= needed else {
            return (nil, "\(Self.hours(wearSeconds)) h worn (\(Self.hours(needed)) h needed for a valid day)")
        }
        guard let d = days[day] else { return (nil, "no epoch in the day") }
        let e = epochSeconds
        var worn = [Double]()
        worn.reserveCapacity(slotsPerDay)
        for v in d.enmo where v.isFinite { worn.append(Double(v)) }
        let sorted = worn.sorted(by: >)
        let ig = DailyActivityMeasures.intensityGradient(worn, epochSeconds: e)
        let mvpa = d.intensity.map { $0 >= 3 }
        let perMinute = Int(60 / e)
        func boutMinutes(_ minutes: Int) -> Double {
            let c = DailyActivityMeasures.boutCoverage(mvpa, length: minutes * perMinute, criterion: 0.8, maximumBreak: perMinute)
            return Double(c.lazy.filter { $0 }.count) * e / 60
        }
        let runs = DailyActivityMeasures.runLengths(d.intensity.map { $0 == 1 })
        let sedentaryEpochs = runs.reduce(0, +)
        let meanRun = runs.isEmpty ? nil : Double(sedentaryEpochs) * e / 60 / Double(runs.count)
        // Cadence per worn clock minute: steps of the minute's epochs; a minute counts when at
        // least half of its epochs are worn with ENMO.
        var cadence = [Double]()
        for m in 0..<(slotsPerDay / perMinute) {
            var wornEpochs = 0, steps = 0
            for i in (m * perMinute)..<((m + 1) * perMinute) {
                if d.enmo[i].isFinite { wornEpochs += 1 }
                steps += Int(d.steps[i])
            }
            if 2 * wornEpochs >= perMinute { cadence.append(Double(steps)) }
        }
        cadence.sort()
        let top30 = cadence.count >= 30 ? cadence.suffix(30).reduce(0, +) / 30 : nil
        let out = MotionDayOutcomes(
            accelTop60MilliG: DailyActivityMeasures.accelerationAboveTop(sorted, minutes: 60, epochSeconds: e),
            accelTop30MilliG: DailyActivityMeasures.accelerationAboveTop(sorted, minutes: 30, epochSeconds: e),
            accelTop15MilliG: DailyActivityMeasures.accelerationAboveTop(sorted, minutes: 15, epochSeconds: e),
            accelTop5MilliG: DailyActivityMeasures.accelerationAboveTop(sorted, minutes: 5, epochSeconds: e),
            intensityGradient: ig?.gradient, intensityIntercept: ig?.intercept, intensityR2: ig?.r2,
            mvpaBout1Minutes: boutMinutes(1), mvpaBout5Minutes: boutMinutes(5), mvpaBout10Minutes: boutMinutes(10),
            sedentaryBouts: runs.count, sedentaryBoutMeanMinutes: meanRun,
            sedentaryInBouts30Minutes: Double(runs.filter { $0 >= 30 * perMinute }.reduce(0, +)) * e / 60,
            sedentaryToActiveProbability: meanRun.map { 1 / $0 },
            cadencePeak1: cadence.last, cadencePeak30: top30,
            cadenceMinutesAtLeast100: cadence.isEmpty ? nil : cadence.filter { $0 >= 100 }.count,
            cadenceP95: DailyActivityMeasures.quantile(sortedAscending: cadence, 0.95))
        return (out, nil)
    }

    /// Marks every epoch of the nights with a sleep period window (1), and those in its sleep
    /// bouts (2).
    private mutating func markSleep() {
        for n in nights {
            mark(n.windowStartSeconds, n.windowStartSeconds + 86_400, as: 1)
            for b in n.boutSpans { mark(b.startSeconds, b.endSeconds, as: 2) }
        }
        nights = []
    }

    private mutating func mark(_ start: Double, _ end: Double, as value: UInt8) {
        var t = start
        while t < end {
            let (d, i) = locate(t)
            if days[d] != nil { days[d]!.sleep[i] = max(days[d]!.sleep[i], value) }
            t += epochSeconds
        }
    }

    /// The rhythm rows over the valid days.
    /// - Parameters:
    ///   - validDays: the day indices that meet the wear rule, ascending.
    ///   - options: the family's options (resolutions).
    ///   - label: a day's label (`motion_daily.day`).
    ///   - timeBasis: what the labels count on.
    mutating func rhythm(validDays: [Int], options: MotionOptions, label: (Int) -> String, timeBasis: String) -> [MotionRhythm] {
        var resolutions = [(String, Double)]()
        if options.rhythmHourly { resolutions.append(("hourly", 3600)) }
        if options.rhythmMinute { resolutions.append(("1min", 60)) }
        guard !resolutions.isEmpty else { return [] }
        markSleep()
        return resolutions.map { name, binSeconds in
            var row = MotionRhythm(
                resolution: name, binSeconds: binSeconds, timeBasis: timeBasis, validDays: validDays.count,
                firstDay: validDays.first.map(label), lastDay: validDays.last.map(label), bins: 0)
            if let unsupported {
                row.nullReason = unsupported
                return row
            }
            guard let first = validDays.first, let last = validDays.last else {
                row.nullReason = "no valid day (\(Self.hours(options.validDayWearHours * 3600)) h worn needed)"
                return row
            }
            fill(&row, first: first, last: last, valid: Set(validDays), binSeconds: binSeconds)
            return row
        }
    }

    private func fill(_ row: inout MotionRhythm, first: Int, last: Int, valid: Set<Int>, binSeconds: Double) {
        let perBin = Int(binSeconds / epochSeconds)
        let p = slotsPerDay / perBin
        var x = [Double](repeating: .nan, count: (last - first + 1) * p)
        var states = [UInt8](repeating: 255, count: x.count)
        for day in first...last where valid.contains(day) {
            guard let d = days[day] else { continue }
            for b in 0..<p {
                var sum = 0.0, n = 0, asleep = 0, known = true
                for i in (b * perBin)..<((b + 1) * perBin) where d.enmo[i].isFinite {
                    sum += Double(d.enmo[i])
                    n += 1
                    if d.sleep[i] == 0 { known = false }
                    if d.sleep[i] == 2 { asleep += 1 }
                }
                guard 2 * n >= perBin, n > 0 else { continue }
                let k = (day - first) * p + b
                x[k] = sum / Double(n)
                if known { states[k] = 2 * asleep > n ? 1 : 0 }
            }
        }
        row.bins = x.lazy.filter(\.isFinite).count
        var reasons = [String]()
        if row.validDays >= 2 {
            row.interdailyStability = RestActivityRhythm.interdailyStability(x, binsPerDay: p)
            if row.interdailyStability == nil { reasons.append("interdaily_stability: no variance") }
        } else {
            reasons.append("interdaily_stability: 1 valid day (2 needed)")
        }
        row.intradailyVariability = RestActivityRhythm.intradailyVariability(x)
        if row.intradailyVariability == nil { reasons.append("intradaily_variability: no variance or no pair of bins") }
        let profile = RestActivityRhythm.profile(x, binsPerDay: p)
        let l5 = RestActivityRhythm.extremeWindow(profile, bins: Int(5 * 3600 / binSeconds), lowest: true)
        let m10 = RestActivityRhythm.extremeWindow(profile, bins: Int(10 * 3600 / binSeconds), lowest: false)
        row.l5MilliG = l5?.mean
        row.l5OnsetHours = l5.map { Double($0.start) * binSeconds / 3600 }
        row.m10MilliG = m10?.mean
        row.m10OnsetHours = m10.map { Double($0.start) * binSeconds / 3600 }
        if l5 == nil || m10 == nil { reasons.append("l5/m10: every window of the average day misses a bin") }
        if let l = l5?.mean, let m = m10?.mean, l + m > 0 {
            row.relativeAmplitude = (m - l) / (m + l)
        } else {
            reasons.append("relative_amplitude: no L5 and M10")
        }
        if let c = RestActivityRhythm.cosinor(x, binSeconds: binSeconds) {
            row.cosinorMesorMilliG = c.mesor
            row.cosinorAmplitudeMilliG = c.amplitude
            row.cosinorAcrophaseHours = c.acrophaseHours
        } else {
            reasons.append("cosinor: fewer than 3 bins")
        }
        if binSeconds == 60 {
            let sri = RestActivityRhythm.sleepRegularity(states, binsPerDay: p)
            if let sri, sri.pairs >= p {
                row.sleepRegularityIndex = sri.index
                row.sleepRegularityPairs = sri.pairs
            } else {
                row.sleepRegularityPairs = sri?.pairs ?? 0
                reasons.append("sri: \(sri?.pairs ?? 0) minute pairs 24 h apart with a sleep/wake state (\(p) needed)")
            }
        } else {
            reasons.append("sri: on the 1min row only")
        }
        row.nullReason = reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    static func hours(_ seconds: Double) -> String { "\((seconds / 360).rounded() / 10)" }
}
