import Signals

/// The respiration family: breathing rate per window from the respiratory modulations of the
/// ECG beats (`ecg_beats`: R amplitude above the PR baseline, QRS area, RR intervals) and the
/// PPG pulses (`ppg_pulses`: RIAV, RIIV, RIFV), each modulation's rate the periodogram peak of
/// the modulation resampled to a uniform grid (``RespiratorySpectrum``), fused per source and
/// across sources by smart fusion (Karlen et al. 2013). It reads only the derived series the ECG
/// and PPG families publish and claims no stream.
///
/// Windows are aligned to multiples of the window length on each stream's time scale; a
/// stream's window is computed once a beat 4 s past its end has arrived (or at the end of the
/// recording), so rows are final as the recording is read. Fused rows (one per window that has
/// a source row) are written at the end of the recording from the window's source rows
/// (``fused(_:options:)``; streams of one recording share a time scale).
///
/// Sources: W. Karlen, S. Raman, J. M. Ansermino, G. A. Dumont, "Multiparameter respiratory rate
/// estimation from the photoplethysmogram", IEEE Trans Biomed Eng 60(7):1946–1953 (2013),
/// doi:10.1109/TBME.2013.2246160; P. H. Charlton et al., "An assessment of algorithms to
/// estimate respiratory rate from the electrocardiogram and photoplethysmogram", Physiol Meas
/// 37(4):610–626 (2016), doi:10.1088/0967-3334/37/4/610.
public enum RespirationFamily: AnalysisFamily {
    public static let name = "respiration"
    public static let summary = "breathing rate per window from the ECG beats' and PPG pulses' respiratory modulations, fused"
    /// The `method` column's value.
    public static let method = "spectral_peak+smart_fusion"
    public static var tables: [ResultTable] { [RespirationTables.respiration.table] }
    public static var summaryFigures: [SummaryFigure] { RespirationTables.summaryFigures }
    public static var defaultOptions: RespirationOptions { RespirationOptions() }
    public static var options: [AnalysisOption<RespirationOptions>] {
        [
            .number(
                "window_s", unit: "s", "respiration window length (windows aligned to its multiples, no overlap)", range: 8...600,
                get: { $0.windowSeconds }, set: { $0.windowSeconds = $1 }),
            .number(
                "grid_hz", unit: "Hz", "uniform grid the respiratory signals are resampled to (linear interpolation)", range: 2...25,
                get: { $0.gridHz }, set: { $0.gridHz = $1 }),
            .number(
                "min_purity", unit: nil, "a modulation's rate is used only when its spectral purity reaches this", range: 0...1,
                get: { $0.minimumPurity }, set: { $0.minimumPurity = $1 }),
            .number(
                "agreement_bpm", unit: "1/min", "rates fuse only when their standard deviation is below this (Karlen et al. 2013)",
                range: 0.5...20, get: { $0.agreementBreathsPerMinute }, set: { $0.agreementBreathsPerMinute = $1 }),
        ]
    }

    public static func makeAnalyzer(options: RespirationOptions) -> Analyzer { Analyzer(options: options) }

    /// The fused row of one window from its source rows (every lead and optical stream): the
    /// ECG rate (mean over the leads with a rate) and the PPG rate (likewise); with both, their
    /// mean when their standard deviation is below the agreement limit (smart fusion, Karlen et
    /// al. 2013, over the sources), else none; with one, that rate.
    static func fused(_ rows: [RespirationWindow], options: RespirationOptions) -> RespirationWindow {
        let first = rows[0]
        var out = RespirationWindow(
            source: .fused, startSeconds: first.startSeconds, endSeconds: first.endSeconds, breathsPerMinute: nil, quality: nil,
            used: [:], nullReason: nil)
        var rates = [(source: RespirationSource, rate: Double, quality: Double)]()
        for source in [RespirationSource.ecg, .ppg] {
            let rated = rows.filter { $0.source == source && $0.breathsPerMinute != nil }
            guard !rated.isEmpty else { continue }
            let n = Double(rated.count)
            rates.append(
                (
                    source, rated.map { $0.breathsPerMinute! }.reduce(0, +) / n,
                    rated.map { $0.quality ?? 0 }.reduce(0, +) / n
                ))
        }
        guard !rates.isEmpty else {
            out.nullReason = "no ECG or PPG row of the window has a rate"
            return out
        }
        out.quality = rates.map(\.quality).reduce(0, +) / Double(rates.count)
        let mean = rates.map(\.rate).reduce(0, +) / Double(rates.count)
        if rates.count == 2 {
            let sd = abs(rates[0].rate - rates[1].rate) / 2.0.squareRoot()
            guard sd < options.agreementBreathsPerMinute else {
                out.nullReason =
                    "ECG and PPG rates disagree: standard deviation \(Double(Int(sd * 10)) / 10) ≥ \(options.agreementBreathsPerMinute) breaths/min"
                return out
            }
        }
        out.breathsPerMinute = mean
        for r in rates { out.used[r.source.rawValue] = r.rate }
        return out
    }

    /// The subscriptions: ECG beats (class, R above baseline, QRS area, quality) and PPG pulses
    /// (peak, foot, amplitude, quality).
    static let subscriptions = [
        DerivedSubscription(series: "ecg_beats", attributes: ["class", "r_above_baseline", "qrs_area", "quality"]),
        DerivedSubscription(series: "ppg_pulses", attributes: ["peak_value", "foot_value", "pulse_amplitude", "quality"]),
    ]

    /// The respiration analysis of one recording: one ``RespirationStream`` per ECG lead and
    /// optical stream that publishes beats.
    public struct Analyzer: RecordingAnalyzer {
        let options: RespirationOptions
        var streams = AnalyzerTable<String, RespirationStream>()
        public private(set) var issues: [String] = []

        init(options: RespirationOptions) { self.options = options }

        /// Claims nothing: the family reads derived series only.
        public mutating func claim(_ stream: AnnouncedStream) -> Bool { false }

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {}

        public var subscriptions: [DerivedSubscription] { RespirationFamily.subscriptions }

        public mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {
            let isECG = event.series == "ecg_beats"
            guard isECG || event.series == "ppg_pulses" else { return }
            let key = event.series + "\u{0}" + event.stream
            if !streams.contains(key) {
                streams.add(RespirationStream(source: isECG ? .ecg : .ppg, stream: event.stream, options: options), for: key)
            }
            let v = event.values
            let usable: Bool, values: [Double]
            if isECG {
                usable = v[0].label == "N" && (v[3].label == "excellent" || v[3].label == "barely_acceptable")
                values = [v[1].number, v[2].number]
            } else {
                usable = v[3].label == "good" || v[3].label == "acceptable"
                values = [v[2].number, (v[0].number + v[1].number) / 2]
            }
            let stream = event.stream
            try streams.update(key) { s in
                try s.append(time: event.time, usable: usable, values: values) { row in
                    try output.emit(RespirationTables.respiration, Streamed(stream: stream, value: row))
                }
            }
        }

        public mutating func finish(output: any ResultOutput) throws {
            var byWindow: [Int: [(stream: String, row: RespirationWindow)]] = [:]
            for key in streams.order.sorted() {
                guard var s = streams.remove(key) else { continue }
                let stream = s.stream
                try s.flush { row in try output.emit(RespirationTables.respiration, Streamed(stream: stream, value: row)) }
                for (k, row) in s.rows { byWindow[k, default: []].append((stream, row)) }
            }
            for k in byWindow.keys.sorted() {
                let rows = byWindow[k]!.sorted { $0.stream < $1.stream }
                try output.emit(
                    RespirationTables.respiration,
                    Streamed(stream: rows[0].stream, value: RespirationFamily.fused(rows.map(\.row), options: options)))
            }
        }
    }
}
