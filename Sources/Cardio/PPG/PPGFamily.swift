import Signals

/// The PPG analysis family: for every device with photoplethysmogram streams, the optical
/// channels and that device's accelerometer go to one ``PPGDeviceAnalysis`` (motion-robust heart
/// rate, systolic pulses into the shared beat series, PPG quality per window).
///
/// **Claims.** Every stream of sensor `photoplethysmogram` with role ``StreamRole/optical`` (each
/// optical channel, or a stream of several optical columns such as SPC 2015's `ppg1`/`ppg2`) or
/// ``StreamRole/embeddedAccelerometer`` (the PPG sample's own accelerometer; not its auxiliary
/// ``StreamRole/temperature``), plus `accelerometer` streams of a device that has announced a PPG
/// stream before them (SPC 2015's wrist accelerometer). Streams of different sessions of a
/// device are analysed apart.
public enum PPGFamily: AnalysisFamily {
    public static let name = "ppg"
    public static let summary = "PPG pulses, pulse-rate variability, PPG quality and accelerometer-assisted heart rate"
    public static var tables: [ResultTable] { BeatSeriesTables.all + [PPGTables.quality.table] }
    /// Quality figures and the beat-series figures of source `ppg` (heart rate from the
    /// recommended `spectral_offline` rows), and those of source `device` (the beat lists the
    /// device detected itself, ``SensorKind/heartbeat``).
    public static var summaryFigures: [SummaryFigure] {
        PPGTables.summaryFigures + BeatSeriesTables.summaryFigures(for: .ppg) + BeatSeriesTables.summaryFigures(for: .device)
    }
    /// A device beat list (``SensorKind/heartbeat``) is summarised as source `device`, the rest
    /// as `ppg`.
    public static func summaryName(for sensor: SensorKind) -> String {
        sensor == .heartbeat ? BeatSource.device.rawValue : name
    }
    public static var publishes: [DerivedSeries] {
        [BeatSeriesEvents.nn(source: "ppg")] + HeartRateMethod.allCases.map { BeatSeriesEvents.heartRate(source: "ppg", method: $0) }
            + [PPGPulseEvents.series]
            + [BeatSeriesEvents.nn(source: "device"), BeatSeriesEvents.heartRate(source: "device", method: .beats)]
            + [DeviceBeatEvents.series]
    }
    public static var defaultOptions: PPGOptions { PPGOptions() }
    public static var options: [AnalysisOption<PPGOptions>] {
        [
            .number(
                "heart_rate_window_s", unit: "s", "heart-rate and quality window length (SPC 2015: 8 s)", range: 2...600,
                get: { $0.heartRateWindowSeconds }, set: { $0.heartRateWindowSeconds = $1 }),
            .number(
                "heart_rate_step_s", unit: "s", "heart-rate and quality window step (SPC 2015: 2 s)", range: 0.2...600,
                get: { $0.heartRateStepSeconds }, set: { $0.heartRateStepSeconds = $1 }),
            .number(
                "hrv_window_s", unit: "s", "pulse-rate variability window length", range: 10...86_400,
                get: { $0.hrvWindowSeconds }, set: { $0.hrvWindowSeconds = $1 }),
        ]
    }

    public static func makeAnalyzer(options: PPGOptions) -> Analyzer { Analyzer(options: options) }

    /// The PPG analysis of one recording: one ``PPGDeviceAnalysis`` per device.
    public struct Analyzer: RecordingAnalyzer {
        let options: PPGOptions
        var devices = AnalyzerTable<String, PPGDeviceAnalysis>()
        var deviceOf: [Int: String] = [:]
        /// Beat streams the device detected (``SensorKind/heartbeat``), by stream index.
        var deviceBeats: [Int: DeviceBeatChannel] = [:]
        var deviceBeatOrder: [Int] = []
        var extraIssues: [String] = []

        init(options: PPGOptions) { self.options = options }

        public var streamIssues: [AnalysisIssue] {
            extraIssues.map { AnalysisIssue(family: PPGFamily.name, message: $0) } + devices.order.flatMap { devices[$0]?.issues ?? [] }
        }
        public var issues: [String] { streamIssues.map(\.description) }

        public mutating func claim(_ stream: AnnouncedStream) -> Bool {
            let key = stream.info.key
            // Streams of one device and session analyse together (a BUT PPG record is its own
            // session; Apple Watch optical channels and accelerometer have none).
            let device = key.deviceID + (key.session.map { "/session=\($0)" } ?? "")
            switch key.sensor {
            case .photoplethysmogram:
                // The PPG sample's temperature is not a signal of this analysis.
                guard stream.info.role == .optical || stream.info.role == .embeddedAccelerometer else { return false }
                if !devices.contains(device) { devices.add(PPGDeviceAnalysis(deviceID: device, options: options), for: device) }
                devices.update(device) { $0.announce(stream) }
            case .accelerometer:
                guard devices.update(device, { $0.announce(stream) }) != nil else { return false }
            case .heartbeat:
                deviceBeats[stream.index] = DeviceBeatChannel(name: key.description, options: options.series)
                deviceBeatOrder.append(stream.index)
                return true
            default:
                return false
            }
            deviceOf[stream.index] = device
            return true
        }

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            if deviceBeats[block.stream] != nil {
                try deviceBeats[block.stream]!.consume(block, output: output)
                return
            }
            guard let d = deviceOf[block.stream] else { return }
            try devices.update(d) { analysis in
                try analysis.consume(block, output: output)
                try analysis.publishPulses(output: output, final: false)
            }
        }

        public mutating func finish(output: any ResultOutput) throws {
            for d in devices.order {
                try devices.update(d) { analysis in
                    try analysis.finish(output: output)
                    try analysis.publishPulses(output: output, final: true)
                }
            }
            for k in deviceBeatOrder { try deviceBeats[k]!.finish(output: output) }
        }
    }
}

/// The PPG options' former name.
@available(*, deprecated, renamed: "PPGOptions")
public typealias PPGAnalysisOptions = PPGOptions
