import Signals

/// The motion analysis family: every accelerometer stream of a recording (a phone's or watch's
/// `acceleration` channel, an ActiGraph's, and the accelerometer embedded in a PPG recording) gets
/// its own ``MotionStreamAnalyzer``: clock-aligned regularisation, 5-s epochs (ENMO, MAD, HFEN,
/// BFEN, angles, intensity, ActiGraph counts, steps), a daily summary and a per-stream summary.
/// Every rotation-rate stream gets epochs of angular speed on the same clock-aligned grid; it is
/// paired with the accelerometer of the same device (its `acceleration` channel first, else the
/// PPG's embedded accelerometer), whose blocks also feed the rotation stream's gyroscope-aided
/// gravity estimate and turn detector. Without a rotation rate, gravity is the accelerometer
/// low-passed (the epoch mean: `motion_epochs`' angles). Epoch rows are emitted as they become
/// final.
public enum MotionFamily: AnalysisFamily {
    public static let name = "motion"
    public static let summary =
        "accelerometer auto-calibration, epochs (ENMO, MAD, HFEN, BFEN, angles, intensity), ActiGraph counts, steps, sleep"
    public static var tables: [ResultTable] { MotionTables.all }
    /// Steps, wear, time per intensity class, ENMO and sleep (``MotionTables/summaryFigures``).
    public static var summaryFigures: [SummaryFigure] { MotionTables.summaryFigures }
    public static var publishes: [DerivedSeries] { [MotionEvents.enmo] }
    public static var defaultOptions: MotionOptions { MotionOptions() }
    public static var options: [AnalysisOption<MotionOptions>] {
        [
            .number(
                "epoch_s", unit: "s", "epoch length (whole seconds; GGIR's default 5 s)", range: 1...3600,
                get: { $0.epochSeconds }, set: { $0.epochSeconds = $1.rounded() }),
            .flag(
                "calibrate", "auto-calibrate accelerometers against gravity (van Hees 2014) before the epochs",
                get: { $0.autoCalibrate }, set: { $0.autoCalibrate = $1 }),
            .choice(
                "acceleration_unit",
                "unit of accelerometer values: declared (as the stream says), g or m/s^2 (fixes an export of m/s^2 labelled g)",
                choices: MotionOptions.AccelerationUnit.allCases.map(\.rawValue),
                get: { $0.accelerationUnit.rawValue },
                set: { $0.accelerationUnit = MotionOptions.AccelerationUnit(rawValue: $1) ?? .declared }),
            .number(
                "sedentary_below_mg", unit: "mg", "ENMO below which an epoch is sedentary (Hildebrand 2017: 44.8)",
                range: 0...10_000, get: { $0.sedentaryBelowMilliG }, set: { $0.sedentaryBelowMilliG = $1 }),
            .number(
                "moderate_from_mg", unit: "mg", "ENMO from which an epoch is moderate (Hildebrand 2014: 100.6)",
                range: 0...10_000, get: { $0.moderateFromMilliG }, set: { $0.moderateFromMilliG = $1 }),
            .number(
                "vigorous_from_mg", unit: "mg", "ENMO from which an epoch is vigorous (Hildebrand 2014: 428.8)",
                range: 0...10_000, get: { $0.vigorousFromMilliG }, set: { $0.vigorousFromMilliG = $1 }),
            .number(
                "valid_day_wear_h", unit: "h",
                "worn hours a clock day needs for the day outcomes and the rest-activity rhythm (GGIR's includedaycrit: 16)",
                range: 0...24, get: { $0.validDayWearHours }, set: { $0.validDayWearHours = $1 }),
            .flag(
                "rhythm_hourly", "motion_rhythm row on hourly bins", get: { $0.rhythmHourly }, set: { $0.rhythmHourly = $1 }),
            .flag(
                "rhythm_1min", "motion_rhythm row on 1-min bins (with the sleep regularity index)",
                get: { $0.rhythmMinute }, set: { $0.rhythmMinute = $1 }),
            .number(
                "awakening_min", unit: "min", "shortest wake interval between sleep bouts counted as an awakening",
                range: 0...1440, get: { $0.awakeningMinutes }, set: { $0.awakeningMinutes = $1 }),
            .text(
                "time_in_bed",
                "time-in-bed window HH:MM-HH:MM from a sleep diary, every night (gives the sleep onset latency; empty: unknown)",
                get: { $0.timeInBed }, set: { $0.timeInBed = $1 }),
            .flag(
                "naps",
                "detect naps: sustained-inactivity bouts outside the sleep period, 09:00-18:00, 15-240 min (GGIR's possible_nap_window/dur)",
                get: { $0.naps }, set: { $0.naps = $1 }),
        ]
    }

    public static func makeAnalyzer(options: MotionOptions) -> Analyzer { Analyzer(options: options) }

    /// Whether the motion family analyses a stream as an accelerometer: an accelerometer's own
    /// signal or an accelerometer embedded in another sensor's samples (``StreamRole``).
    /// - Parameter info: the stream's description.
    /// - Complexity: O(1).
    public static func isAccelerometer(_ info: StreamInfo) -> Bool {
        info.role == .embeddedAccelerometer || (info.key.sensor == .accelerometer && info.role == .signal)
    }

    /// The motion analysis of one recording.
    public struct Analyzer: RecordingAnalyzer {
        let options: MotionOptions
        var analyzers = AnalyzerTable<Int, MotionStreamAnalyzer>()
        /// Rotation-rate stream index → the accelerometer stream index paired with it.
        var pairedAccelerometer: [Int: Int] = [:]
        /// Accelerometer stream index → the rotation-rate stream indices it feeds.
        var rotationStreams: [Int: [Int]] = [:]
        var announced: [Int: AnnouncedStream] = [:]
        /// Announced stream indices by device (pairing looks at one device's streams only).
        var announcedOfDevice: [String: [Int]] = [:]
        /// Rotation-rate stream index → its epochs' angular speed, for the nights' rotation rate.
        var rotationLedgers: [Int: RotationLedger] = [:]
        /// Nights of accelerometers with a paired rotation-rate stream, emitted at the end (the
        /// rotation epochs over their sleep period may come later than the night).
        var heldNights: [(accelerometer: Int, stream: String, night: MotionNight)] = []
        public private(set) var streamIssues: [AnalysisIssue] = []
        public var issues: [String] { streamIssues.map(\.description) }

        init(options: MotionOptions) { self.options = options }

        public mutating func claim(_ stream: AnnouncedStream) -> Bool {
            guard MotionFamily.isAccelerometer(stream.info) || stream.info.key.sensor == .rotationRate else { return false }
            analyzers.add(MotionStreamAnalyzer(streamName: stream.name, info: stream.info, options: options), for: stream.index)
            announced[stream.index] = stream
            announcedOfDevice[stream.info.key.deviceID, default: []].append(stream.index)
            for index in announcedOfDevice[stream.info.key.deviceID] ?? [] {
                guard let other = announced[index] else { continue }
                let (gyro, accel) = stream.info.key.sensor == .rotationRate ? (stream, other) : (other, stream)
                guard gyro.info.key.sensor == .rotationRate, accel.info.key.sensor != .rotationRate, index != stream.index
                else { continue }
                pair(rotation: gyro, accelerometer: accel)
            }
            return true
        }

        /// Pairs a rotation-rate stream with an accelerometer of its device, before any block of
        /// the accelerometer: the `acceleration` channel of an accelerometer sensor wins over a
        /// PPG's embedded accelerometer; the first announced wins among equals.
        private mutating func pair(rotation gyro: AnnouncedStream, accelerometer accel: AnnouncedStream) {
            if let current = pairedAccelerometer[gyro.index] {
                let better = accel.info.key.sensor == .accelerometer && announced[current]?.info.key.sensor != .accelerometer
                guard better, startedAccelerometers.contains(current) == false else { return }
                rotationStreams[current]?.removeAll { $0 == gyro.index }
            }
            guard !startedAccelerometers.contains(accel.index),
                analyzers.update(gyro.index, { $0.pair(accelerometer: accel.name, info: accel.info) }) == true
            else { return }
            pairedAccelerometer[gyro.index] = accel.index
            rotationStreams[accel.index, default: []].append(gyro.index)
        }

        /// Accelerometer streams that have delivered a block (too late to pair).
        var startedAccelerometers = Set<Int>()

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            if let gyros = rotationStreams[block.stream] {
                for g in gyros {
                    let taken = analyzers.update(g) { r in
                        r.consumeDeviceAcceleration(block)
                        return (name: r.streamName, turns: r.takeRotationEpochs())
                    }
                    guard let (name, turns) = taken else { continue }
                    record(turns, rotation: g)
                    for e in turns { try output.emit(MotionTables.rotationEpochs, Streamed(stream: name, value: e)) }
                }
            }
            if announced[block.stream]?.info.key.sensor != .rotationRate { startedAccelerometers.insert(block.stream) }
            let taken = analyzers.update(block.stream) { a in
                a.consume(block)
                return (name: a.streamName, epochs: a.takeEpochs(), turns: a.takeRotationEpochs(), nights: a.takeNights())
            }
            guard let (name, epochs, turns, nights) = taken else { return }
            for e in epochs { try output.emit(MotionTables.epochs, Streamed(stream: name, value: e)) }
            record(turns, rotation: block.stream)
            for e in turns { try output.emit(MotionTables.rotationEpochs, Streamed(stream: name, value: e)) }
            for n in nights { try emit(n, accelerometer: block.stream, stream: name, output) }
        }

        /// Keeps a paired rotation-rate stream's epochs for the nights' rotation rate.
        private mutating func record(_ epochs: [RotationEpoch], rotation index: Int) {
            guard !epochs.isEmpty, pairedAccelerometer[index] != nil else { return }
            for e in epochs { rotationLedgers[index, default: RotationLedger(epochSeconds: e.lengthSeconds)].add(e) }
        }

        /// A night's row and the rows of its bouts, or held to the end when a rotation-rate
        /// stream is paired with its accelerometer.
        private mutating func emit(_ n: MotionNight, accelerometer: Int, stream: String, _ output: any ResultOutput) throws {
            if rotationStreams[accelerometer]?.isEmpty == false {
                heldNights.append((accelerometer, stream, n))
                return
            }
            try Self.emit(n, stream: stream, output)
        }

        private static func emit(_ n: MotionNight, stream: String, _ output: any ResultOutput) throws {
            try output.emit(MotionTables.nights, Streamed(stream: stream, value: n))
            for b in n.boutSpans {
                try output.emit(MotionTables.sleepBouts, Streamed(stream: stream, value: SleepBout(night: n.night, span: b)))
            }
            for b in n.napSpans {
                try output.emit(
                    MotionTables.sleepBouts, Streamed(stream: stream, value: SleepBout(night: n.night, span: b, kind: "nap")))
            }
        }

        /// The held nights with the mean rotation rate of their accelerometer's first paired
        /// rotation-rate stream over the sleep period.
        private mutating func emitHeldNights(_ output: any ResultOutput) throws {
            for (accelerometer, stream, night) in heldNights {
                var n = night
                if let onset = n.onsetSeconds, let wake = n.wakeSeconds, let g = rotationStreams[accelerometer]?.first {
                    let mean = rotationLedgers[g]?.mean(from: onset, to: wake)
                    n.rotationRateMeanDegreesPerSecond = mean
                    n.rotationNote =
                        mean == nil
                        ? "rotation_rate: rotation epochs with a value cover under half of the sleep period window" : nil
                }
                try Self.emit(n, stream: stream, output)
            }
            heldNights.removeAll()
            rotationLedgers.removeAll()
        }

        public mutating func finish(output: any ResultOutput) throws {
            for index in analyzers.order {
                guard var a = analyzers.remove(index) else { continue }
                let name = a.streamName
                let (days, summary) = try a.finish { epochs in
                    for e in epochs { try output.emit(MotionTables.epochs, Streamed(stream: name, value: e)) }
                }
                let rotationEpochs = a.takeRotationEpochs()
                record(rotationEpochs, rotation: index)
                for e in rotationEpochs {
                    try output.emit(MotionTables.rotationEpochs, Streamed(stream: name, value: e))
                }
                for n in a.takeNights() { try emit(n, accelerometer: index, stream: name, output) }
                for d in days { try output.emit(MotionTables.daily, Streamed(stream: name, value: d)) }
                for r in a.takeRhythm() { try output.emit(MotionTables.rhythm, Streamed(stream: name, value: r)) }
                try output.emit(MotionTables.streams, Streamed(stream: name, value: summary))
                if let p = summary.note { streamIssues.append(AnalysisIssue(family: MotionFamily.name, stream: name, message: p)) }
            }
            try emitHeldNights(output)
        }
    }
}

/// A rotation-rate stream's angular speed per epoch, kept for the nights' mean rotation rate:
/// the sum of |ω| over each epoch's grid samples and their count, from the first epoch on.
///
/// - Complexity: O(1) amortised per epoch; memory 12 bytes per epoch of the span (≈ 5.8 MB for
///   28 days of 5-s epochs).
struct RotationLedger {
    let epochSeconds: Double
    private var first: Int?
    private var speedSum: [Double] = []
    private var samples: [Int32] = []

    init(epochSeconds: Double) { self.epochSeconds = epochSeconds }

    /// Adds an epoch (ignored without a mean speed, or before the first epoch kept).
    mutating func add(_ e: RotationEpoch) {
        guard let speed = e.meanSpeedDegreesPerSecond, e.samples > 0, epochSeconds > 0 else { return }
        let k = Int((e.startSeconds / epochSeconds).rounded(.down))
        if first == nil { first = k }
        let i = k - first!
        guard i >= 0 else { return }
        if i >= speedSum.count {
            speedSum.append(contentsOf: repeatElement(0, count: i + 1 - speedSum.count))
            samples.append(contentsOf: repeatElement(0, count: i + 1 - samples.count))
        }
        speedSum[i] += speed * Double(e.samples)
        samples[i] += Int32(clamping: e.samples)
    }

    /// Mean angular speed over the epochs starting in [start, end), weighted by grid samples, or
    /// `nil` when epochs with a value cover under half of the span's epochs.
    func mean(from start: Double, to end: Double) -> Double? {
        guard let first, end > start else { return nil }
        let a = Int((start / epochSeconds).rounded(.down)) - first
        let b = Int((end / epochSeconds).rounded(.up)) - first
        let span = b - a
        var sum = 0.0, n = 0, with = 0
        for i in max(a, 0)..<max(min(b, speedSum.count), max(a, 0)) where samples[i] > 0 {
            sum += speedSum[i]
            n += Int(samples[i])
            with += 1
        }
        guard n > 0, 2 * with >= span else { return nil }
        return sum / Double(n)
    }
}
