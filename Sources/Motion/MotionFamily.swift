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
            for e in turns { try output.emit(MotionTables.rotationEpochs, Streamed(stream: name, value: e)) }
            for n in nights { try emit(n, stream: name, output) }
        }

        /// A night's row and the rows of its bouts.
        private func emit(_ n: MotionNight, stream: String, _ output: any ResultOutput) throws {
            try output.emit(MotionTables.nights, Streamed(stream: stream, value: n))
            for b in n.boutSpans {
                try output.emit(MotionTables.sleepBouts, Streamed(stream: stream, value: SleepBout(night: n.night, span: b)))
            }
        }

        public mutating func finish(output: any ResultOutput) throws {
            for index in analyzers.order {
                guard var a = analyzers.remove(index) else { continue }
                let name = a.streamName
                let (days, summary) = try a.finish { epochs in
                    for e in epochs { try output.emit(MotionTables.epochs, Streamed(stream: name, value: e)) }
                }
                for e in a.takeRotationEpochs() {
                    try output.emit(MotionTables.rotationEpochs, Streamed(stream: name, value: e))
                }
                for n in a.takeNights() { try emit(n, stream: name, output) }
                for d in days { try output.emit(MotionTables.daily, Streamed(stream: name, value: d)) }
                for r in a.takeRhythm() { try output.emit(MotionTables.rhythm, Streamed(stream: name, value: r)) }
                try output.emit(MotionTables.streams, Streamed(stream: name, value: summary))
                if let p = summary.note { streamIssues.append(AnalysisIssue(family: MotionFamily.name, stream: name, message: p)) }
            }
        }
    }
}
