import Signals

/// The motion analysis family: every accelerometer stream of a recording (a phone's or watch's
/// `acceleration` channel, an ActiGraph's, and the accelerometer embedded in a PPG recording) gets
/// its own ``MotionStreamAnalyzer``: clock-aligned regularisation, 5-s epochs (ENMO, MAD, HFEN,
/// BFEN, angles, intensity, ActiGraph counts, steps), a daily summary and a per-stream summary.
/// Every rotation-rate stream gets epochs of angular speed on the same clock-aligned grid.
/// Epoch rows are emitted as they become final.
public enum MotionFamily: AnalysisFamily {
    public static let name = "motion"
    public static let summary =
        "accelerometer auto-calibration, epochs (ENMO, MAD, HFEN, BFEN, angles, intensity), ActiGraph counts, steps, sleep"
    public static var tables: [ResultTable] { MotionTables.all }
    public static var defaultOptions: MotionOptions { MotionOptions() }
    public static var options: [AnalysisOption<MotionOptions>] {
        [
            .number(
                "epoch_s", unit: "s", "epoch length (whole seconds; GGIR's default 5 s)", range: 1...3600,
                get: { $0.epochSeconds }, set: { $0.epochSeconds = $1.rounded() }),
            .flag(
                "calibrate", "auto-calibrate accelerometers against gravity (van Hees 2014) before the epochs",
                get: { $0.autoCalibrate }, set: { $0.autoCalibrate = $1 }),
            .number(
                "sedentary_below_mg", unit: "mg", "ENMO below which an epoch is sedentary (Hildebrand 2017: 44.8)",
                range: 0...10_000, get: { $0.sedentaryBelowMilliG }, set: { $0.sedentaryBelowMilliG = $1 }),
            .number(
                "moderate_from_mg", unit: "mg", "ENMO from which an epoch is moderate (Hildebrand 2014: 100.6)",
                range: 0...10_000, get: { $0.moderateFromMilliG }, set: { $0.moderateFromMilliG = $1 }),
            .number(
                "vigorous_from_mg", unit: "mg", "ENMO from which an epoch is vigorous (Hildebrand 2014: 428.8)",
                range: 0...10_000, get: { $0.vigorousFromMilliG }, set: { $0.vigorousFromMilliG = $1 }),
        ]
    }

    public static func makeAnalyzer(options: MotionOptions) -> Analyzer { Analyzer(options: options) }

    /// Whether the motion family analyses a stream.
    /// - Complexity: O(1).
    public static func isAccelerometer(_ key: StreamKey) -> Bool {
        switch key.sensor {
        case .accelerometer: return true
        case .photoplethysmogram: return key.channel == "accelerometer"
        default: return false
        }
    }

    /// The motion analysis of one recording.
    public struct Analyzer: RecordingAnalyzer {
        let options: MotionOptions
        var analyzers: [Int: MotionStreamAnalyzer] = [:]
        var order: [Int] = []
        public private(set) var issues: [String] = []

        init(options: MotionOptions) { self.options = options }

        public mutating func claim(_ stream: AnnouncedStream) -> Bool {
            guard MotionFamily.isAccelerometer(stream.info.key) || stream.info.key.sensor == .rotationRate else { return false }
            analyzers[stream.index] = MotionStreamAnalyzer(streamName: stream.name, info: stream.info, options: options)
            order.append(stream.index)
            return true
        }

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            guard var a = analyzers.removeValue(forKey: block.stream) else { return }
            a.consume(block)
            let epochs = a.takeEpochs()
            let turns = a.takeRotationEpochs()
            let name = a.streamName
            analyzers[block.stream] = a
            for e in epochs { try output.emit(MotionTables.epochs, Streamed(stream: name, value: e)) }
            for e in turns { try output.emit(MotionTables.rotationEpochs, Streamed(stream: name, value: e)) }
            for n in a.takeNights() { try output.emit(MotionTables.nights, Streamed(stream: name, value: n)) }
        }

        public mutating func finish(output: any ResultOutput) throws {
            for index in order {
                guard var a = analyzers.removeValue(forKey: index) else { continue }
                let name = a.streamName
                let (days, summary) = try a.finish { epochs in
                    for e in epochs { try output.emit(MotionTables.epochs, Streamed(stream: name, value: e)) }
                }
                for e in a.takeRotationEpochs() {
                    try output.emit(MotionTables.rotationEpochs, Streamed(stream: name, value: e))
                }
                for n in a.takeNights() { try output.emit(MotionTables.nights, Streamed(stream: name, value: n)) }
                for d in days { try output.emit(MotionTables.daily, Streamed(stream: name, value: d)) }
                try output.emit(MotionTables.streams, Streamed(stream: name, value: summary))
                if let p = summary.note { issues.append("\(name): \(p)") }
            }
        }
    }
}
