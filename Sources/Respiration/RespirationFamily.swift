import Signals

/// The respiration family: breathing rate per window from the respiratory modulations of the
/// ECG beats (`ecg_beats`: R amplitude above the PR baseline, QRS area, RR intervals) and the
/// PPG pulses (`ppg_pulses`: RIAV, RIIV, RIFV; RIAV and RIIV also of pulses whose window is
/// unacceptable for its rhythm only, `unacceptable_cause` `rhythm`), each modulation's rate the
/// periodogram peak of the modulation resampled to a uniform grid (``RespiratorySpectrum``),
/// fused per source and
/// across sources by smart fusion (Karlen et al. 2013). It reads only the derived series the ECG
/// and PPG families publish; with ``RespirationOptions/usesAccelerometer`` it also claims
/// accelerometers and gives a rate where the wearer is still (``AccelerometerRespiration``).
/// Each modulation's rate is used only when it passes respiratory quality indices (spectral
/// purity, autocorrelation at the rate's period, a time-domain breath count agreeing with the
/// peak: Birrenkott et al. 2016/2018, Schäfer & Kratky 2008).
///
/// Windows are aligned to multiples of the window length on each stream's time scale; a
/// stream's window is computed once a beat 4 s past its end has arrived (or at the end of the
/// recording), so rows are final as the recording is read. Fused rows (one per window that has
/// a source row) are written once the recording is ``RespirationOptions/fusionLagSeconds`` past
/// the window, from what the window's source rows added up (``FusionWindow``, bounded whatever
/// the number of streams; ``fused(_:span:options:)``; streams of one recording share a
/// time scale). The summary figures (`mean_breaths_per_min`, `rate_share`) are the fused rows':
/// a fused row has a rate wherever a source row of its window has one, unless their rates
/// disagree (``agreeingSources(_:into:options:)``).
///
/// Sources: W. Karlen, S. Raman, J. M. Ansermino, G. A. Dumont, "Multiparameter respiratory rate
/// estimation from the photoplethysmogram", IEEE Trans Biomed Eng 60(7):1946–1953 (2013),
/// doi:10.1109/TBME.2013.2246160; P. H. Charlton et al., "An assessment of algorithms to
/// estimate respiratory rate from the electrocardiogram and photoplethysmogram", Physiol Meas
/// 37(4):610–626 (2016), doi:10.1088/0967-3334/37/4/610.
public enum RespirationFamily: AnalysisFamily {
    public static let name = "respiration"
    public static let summary = "breathing rate per window from the ECG beats' and PPG pulses' respiratory modulations, fused"
    /// The `method` column's value of ECG, PPG and fused rows whose rate is the fused spectrum's
    /// peak.
    public static let spectralMethod = "spectral_fusion"
    /// The `method` column's value of ECG, PPG and fused rows whose rate is smart fusion's.
    public static let smartMethod = "smart_fusion"
    /// The `method` column's value of fused rows whose rate is the mean of the window's agreeing
    /// source rows' rates (``agreeingSources(_:into:options:)``).
    public static let sourcesMethod = "agreeing_sources"
    /// The `method` column's value of ECG, PPG and fused rows without a rate (both tried).
    public static let method = "spectral_fusion+smart_fusion"
    /// The `method` column's value of accelerometer rows.
    public static let accelerometerMethod = "principal_axis+spectral_peak"
    public static var tables: [ResultTable] { [RespirationTables.respiration.table, RespirationTables.signal.table] }
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
                "min_autocorrelation", unit: nil,
                "a modulation's rate is used only when its autocorrelation at the rate's period reaches this", range: 0...1,
                get: { $0.minimumAutocorrelation }, set: { $0.minimumAutocorrelation = $1 }),
            .number(
                "count_agreement_bpm", unit: "1/min",
                "a modulation's rate is used only when the breaths counted in the time domain agree with it within this",
                range: 0.5...20, get: { $0.countAgreementBreathsPerMinute }, set: { $0.countAgreementBreathsPerMinute = $1 }),
            .number(
                "spectral_span", unit: "windows",
                "windows each side averaged into a window's fused spectrum (centred: rows wait for this many later windows; the concentration defaults are no-breathing maxima at 2)",
                range: 0...4, get: { Double($0.spectralSpan) }, set: { $0.spectralSpan = Int($1.rounded()) }),
            .number(
                "min_concentration_ecg", unit: nil,
                "an ECG lead's rate is the peak of its modulations' fused spectrum when the peak's concentration reaches this (else smart fusion)",
                range: 0...1, get: { $0.minimumConcentrationECG }, set: { $0.minimumConcentrationECG = $1 }),
            .number(
                "min_concentration_ppg", unit: nil,
                "an optical stream's rate is the peak of its modulations' fused spectrum when the peak's concentration reaches this (else smart fusion)",
                range: 0...1, get: { $0.minimumConcentrationPPG }, set: { $0.minimumConcentrationPPG = $1 }),
            .number(
                "min_concentration_fused", unit: nil,
                "the fused rate is the peak of every modulation's fused spectrum when the peak's concentration reaches this (else smart fusion)",
                range: 0...1, get: { $0.minimumConcentrationFused }, set: { $0.minimumConcentrationFused = $1 }),
            .number(
                "min_local_concentration_ecg", unit: nil,
                "an ECG lead's rate is also the fused spectrum's peak when the peak's local concentration (within ±3/window) reaches this",
                range: 0...1, get: { $0.minimumLocalConcentrationECG }, set: { $0.minimumLocalConcentrationECG = $1 }),
            .number(
                "min_local_concentration_ppg", unit: nil,
                "an optical stream's rate is also the fused spectrum's peak when the peak's local concentration (within ±3/window) reaches this",
                range: 0...1, get: { $0.minimumLocalConcentrationPPG }, set: { $0.minimumLocalConcentrationPPG = $1 }),
            .number(
                "min_local_concentration_fused", unit: nil,
                "the fused rate is also the fused spectrum's peak when the peak's local concentration (within ±3/window) reaches this",
                range: 0...1, get: { $0.minimumLocalConcentrationFused }, set: { $0.minimumLocalConcentrationFused = $1 }),
            .flag(
                "modulation_indices",
                "a peak is also the rate when one modulation's own spectrum (peak-conditioned, Bailón et al. 2006) or, fused rows, the product of the modulations' spectra (Nemati et al. 2010) is concentrated beyond its no-breathing maximum",
                get: { $0.modulationIndices }, set: { $0.modulationIndices = $1 }),
            .flag(
                "rate_bands",
                "spectral fusion's concentration thresholds are lowered above 12, 16 and 20 breaths/min to the no-breathing maxima of peaks at those rates (coloured noise; span 2 only)",
                get: { $0.rateBands }, set: { $0.rateBands = $1 }),
            .flag(
                "joint_index",
                "a peak is also the rate when its concentration times its local concentration reaches that product's no-breathing maximum at the peak's rate band (span 2 only)",
                get: { $0.jointIndex }, set: { $0.jointIndex = $1 }),
            .number(
                "fusion_lag_s", unit: "s", "fused rows are written once the recording is this far past the window's look-ahead",
                range: 64...86400, get: { $0.fusionLagSeconds }, set: { $0.fusionLagSeconds = $1 }),
            .flag(
                "accelerometer",
                "still accelerometers give rows of source accelerometer (principal axis at rest; not validated, never fused)",
                get: { $0.usesAccelerometer }, set: { $0.usesAccelerometer = $1 }),
            .number(
                "agreement_bpm", unit: "1/min", "rates fuse only when their standard deviation is below this (Karlen et al. 2013)",
                range: 0.5...20, get: { $0.agreementBreathsPerMinute }, set: { $0.agreementBreathsPerMinute = $1 }),
        ]
    }

    public static func makeAnalyzer(options: RespirationOptions) -> Analyzer { Analyzer(options: options) }

    /// The fused row of one window from what its source rows added up (``FusionWindow``; every
    /// lead and optical stream): spectral fusion over the window's and its neighbours' mean
    /// spectra per modulation (`span`: the windows within ``RespirationOptions/spectralSpan`` of
    /// it that have source rows, itself included, in window order; `nil`: itself only), at the threshold of the
    /// set of modulations the window's own spectra come from (``FusionWindow/threshold(_:)``),
    /// else smart fusion (``smartFused(_:options:)``).
    /// - Complexity: O(keys × bins × windows), whatever the number of streams.
    static func fused(_ now: FusionWindow, span: [FusionWindow]? = nil, options: RespirationOptions) -> RespirationWindow {
        var out = smartFused(now, options: options)
        let windows = span ?? [now]
        let spectra = windows.flatMap(\.meanSpectra)
        // Each key's mean spectrum averaged over the span (its Welch spectrum), in key order:
        // computed only when the mean spectrum's indices fail and the span is full.
        let full =
            options.modulationIndices && options.spectralSpan == SpectralThreshold.modulationSpan
            && windows.count == 2 * options.spectralSpan + 1
        let perModulation = { () -> [(own: Bool, spectrum: [Double])] in
            guard full else { return [] }
            var spectra = [(key: String, spectrum: [Double])]()
            for w in windows {
                for (k, e) in w.spectra where e.count > 0 { spectra.append((k, e.sum.map { $0 / Double(e.count) })) }
            }
            return RespirationStream.spanAverages(spectra) { now.spectra[$0] != nil }
        }
        // As a source row's: without the beat interval (its key), only amplitude modulations,
        // judged at thresholds derived with it (fused 133 of 7,200 simulated no-breathing
        // windows reach them without it): no spectral rate.
        let keys = now.spectra["frequency"] != nil ? now.spectra.count : min(now.spectra.count, 1)
        RespirationStream.spectralFusion(
            &out, ownKeys: keys, spectra: spectra, perModulation: perModulation,
            threshold: now.threshold(options, fullSpan: windows.count == 2 * options.spectralSpan + 1),
            seconds: options.windowSeconds,
            used: {
                var used = [String: Double]()
                for (source, p) in now.peaks { used[source.rawValue] = p.sum / Double(p.count) }
                return used
            })
        if out.breathsPerMinute == nil { agreeingSources(now, into: &out, options: options) }
        return out
    }

    /// The last resort of a fused row neither fusion gave a rate: the window's ECG and PPG rows
    /// that have a rate (each passed its own stream's rule: a spectral concentration at least
    /// that source's threshold, or smart fusion of its own gated modulations) give theirs — the
    /// mean when they agree (standard deviation below the agreement limit, Karlen et al. 2013's
    /// rule applied to the streams' rates), else no rate. So a window one stream rates is not
    /// left empty because another stream's noise dilutes the fused spectrum, and the fused rows
    /// (the family's summary figures) have a rate wherever a source row has one, unless the
    /// sources disagree. Quality: the mean of those rows' qualities.
    static func agreeingSources(_ window: FusionWindow, into out: inout RespirationWindow, options: RespirationOptions) {
        let sums = window.rated.values
        let n = sums.map(\.count).reduce(0, +)
        guard n > 0 else { return }
        let mean = sums.map(\.breathsPerMinute).reduce(0, +) / Double(n)
        let squares = sums.map(\.squares).reduce(0, +)
        let sd = n > 1 ? (max(0, squares - Double(n) * mean * mean) / Double(n - 1)).squareRoot() : 0
        guard sd < options.agreementBreathsPerMinute else {
            out.nullReason =
                (out.nullReason ?? "")
                + "; the \(n) source rows with a rate disagree: standard deviation \(Double(Int(sd * 10)) / 10) ≥ \(options.agreementBreathsPerMinute) breaths/min"
            return
        }
        out.breathsPerMinute = mean
        out.quality = sums.map(\.quality).reduce(0, +) / Double(n)
        out.fromSources = true
        out.spectral = false
        out.nullReason = nil
        out.used = [:]
        for (source, e) in window.rated { out.used[source.rawValue] = e.breathsPerMinute / Double(e.count) }
    }

    /// Smart fusion (Karlen et al. 2013) over every modulation that passed quality in any of the
    /// window's source rows, the fallback of ``fused(_:span:options:)``. One modulation
    /// counts once (its rates over the streams averaged: two leads' R amplitudes are one
    /// amplitude modulation, and the beat interval is one whether the ECG or the PPG times it —
    /// respiratory sinus arrhythmia). With two or more, their mean when their standard deviation
    /// is below the agreement limit; with three or more that do not agree, the rate furthest
    /// from their median is left out until they agree or two remain; the ones that agree must come
    /// from two measurements or more (``ModulationRate/measurement``). Otherwise no rate, with the
    /// reason.
    static func smartFused(_ window: FusionWindow, options: RespirationOptions) -> RespirationWindow {
        var out = RespirationWindow(
            source: .fused, startSeconds: window.startSeconds, endSeconds: window.endSeconds, breathsPerMinute: nil, quality: nil,
            used: [:], nullReason: nil)
        var rates = [ModulationRate]()
        for source in [RespirationSource.ecg, .ppg] {
            for m in RespirationModulation.allCases {
                // The beat interval is one modulation whether the ECG or the PPG times it.
                if m == .frequency && source == .ppg { continue }
                guard let same = window.rates[FusionWindow.key(source: source, modulation: m)], same.count > 0 else { continue }
                let n = Double(same.count)
                rates.append(
                    ModulationRate(
                        source: m != .frequency || same.fromECG ? source : .ppg, modulation: m,
                        breathsPerMinute: same.breathsPerMinute / n, purity: same.purity / n))
            }
        }
        guard rates.count >= 2 else {
            out.nullReason = "fewer than 2 ECG or PPG modulations of the window pass quality"
            return out
        }
        func spread(_ r: [ModulationRate]) -> (mean: Double, sd: Double) {
            let x = r.map(\.breathsPerMinute), mean = x.reduce(0, +) / Double(x.count)
            return (mean, (x.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(x.count - 1)).squareRoot())
        }
        var s = spread(rates)
        while s.sd >= options.agreementBreathsPerMinute && rates.count >= 3 {
            let sorted = rates.map(\.breathsPerMinute).sorted()
            let c = sorted.count
            let median = c % 2 == 1 ? sorted[c / 2] : (sorted[c / 2 - 1] + sorted[c / 2]) / 2
            let worst = rates.indices.max { abs(rates[$0].breathsPerMinute - median) < abs(rates[$1].breathsPerMinute - median) }!
            rates.remove(at: worst)
            s = spread(rates)
        }
        out.quality = rates.map(\.purity).reduce(0, +) / Double(rates.count)
        guard s.sd < options.agreementBreathsPerMinute else {
            out.nullReason =
                "modulations disagree: standard deviation \(Double(Int(s.sd * 10)) / 10) ≥ \(options.agreementBreathsPerMinute) breaths/min"
            return out
        }
        guard ModulationRate.independent(rates) else {
            out.nullReason = ModulationRate.dependentReason
            return out
        }
        out.breathsPerMinute = s.mean
        for source in [RespirationSource.ecg, .ppg] {
            let kept = rates.filter { $0.source == source }
            if !kept.isEmpty { out.used[source.rawValue] = kept.map(\.breathsPerMinute).reduce(0, +) / Double(kept.count) }
        }
        out.passing = rates
        return out
    }

    /// The subscriptions: ECG beats (class, R above baseline, QRS area, quality) and PPG pulses
    /// (peak, foot, amplitude, quality, unacceptable cause).
    static let subscriptions = [
        DerivedSubscription(series: "ecg_beats", attributes: ["class", "r_above_baseline", "qrs_area", "quality"]),
        DerivedSubscription(
            series: "ppg_pulses", attributes: ["peak_value", "foot_value", "pulse_amplitude", "quality", "unacceptable_cause"]),
    ]

    /// The respiration analysis of one recording: one ``RespirationStream`` per ECG lead and
    /// optical stream that publishes beats, and the fused rows, each written once the recording
    /// is ``RespirationOptions/fusionLagSeconds`` past its window's look-ahead (so what is held
    /// for fusion is bounded by that lag, not by the recording's length).
    public struct Analyzer: RecordingAnalyzer {
        let options: RespirationOptions
        /// The streams' analyses, in order of first event, and each one's slot by key (series and
        /// stream).
        var streams: [RespirationStream] = []
        var slots: [String: Int] = [:]
        public private(set) var issues: [String] = []
        /// What each window's source rows added up (``FusionWindow``), by window index, waiting
        /// for its fused row (and the last fused window's, its successor's neighbour): bounded
        /// per window whatever the number of streams.
        var pendingFused: [Int: FusionWindow] = [:]
        /// The latest beat time seen on any stream, s.
        var latest = -Double.infinity
        /// The last window whose fused row was written.
        var fusedThrough = Int.min
        /// Source rows that came after their window's fused row was written (not fused).
        var lateRows = 0
        /// The most windows held for fusion at once (bounded by the lag; tests).
        private(set) var maxHeldWindows = 0
        /// The most spectrum sums held for fusion at once (bounded by the windows held × 5
        /// modulation keys, whatever the number of streams; tests).
        private(set) var maxHeldSpectra = 0
        /// The spectrum sums held now.
        var heldSpectra = 0
        /// The earliest held window whose fused row is not written yet, or `nil`.
        var firstPending: Int?
        /// The last event's series, stream and stream key (consecutive events mostly share them).
        var lastKey: (series: String, stream: String, slot: Int)?

        init(options: RespirationOptions) { self.options = options }

        /// Accelerometer streams (with ``RespirationOptions/usesAccelerometer``), by stream index.
        var accelerometers = AnalyzerTable<Int, AccelerometerRespiration>()

        /// Claims accelerometers (3 columns in g or m/s², a sensor's own or a PPG device's) when
        /// ``RespirationOptions/usesAccelerometer`` is set; otherwise nothing (the ECG and PPG
        /// sources are derived series).
        public mutating func claim(_ stream: AnnouncedStream) -> Bool {
            let info = stream.info
            guard options.usesAccelerometer,
                info.role == .embeddedAccelerometer || (info.key.sensor == .accelerometer && info.role == .signal),
                let scale = AccelerometerRespiration.scale(of: info)
            else { return false }
            accelerometers.add(AccelerometerRespiration(stream: stream.name, options: options, scale: scale), for: stream.index)
            return true
        }

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            try accelerometers.update(block.stream) { a in
                let name = a.stream
                try a.append(block) { row in try output.emit(RespirationTables.respiration, Streamed(stream: name, value: row)) }
            }
        }

        public var subscriptions: [DerivedSubscription] { RespirationFamily.subscriptions }

        public mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {
            let isECG = event.series == "ecg_beats"
            guard isECG || event.series == "ppg_pulses" else { return }
            // Consecutive events mostly come from one stream: its slot is looked up once.
            let slot: Int
            if let last = lastKey, last.series == event.series, last.stream == event.stream {
                slot = last.slot
            } else {
                let key = event.series + "\u{0}" + event.stream
                if let known = slots[key] {
                    slot = known
                } else {
                    slot = streams.count
                    slots[key] = slot
                    streams.append(RespirationStream(source: isECG ? .ecg : .ppg, stream: event.stream, options: options))
                }
                lastKey = (event.series, event.stream, slot)
            }
            let v = event.values
            let usable: Bool, amplitudeUsable: Bool, values: [Double]
            if isECG {
                usable = v[0].label == "N" && (v[3].label == "excellent" || v[3].label == "barely_acceptable")
                amplitudeUsable = usable
                values = [v[1].number, v[2].number]
            } else {
                usable = v[3].label == "good" || v[3].label == "acceptable"
                // A pulse whose window fails only the interval-ratio rule (a missed pulse, ectopic
                // beats, AF) keeps its shape: its amplitude and baseline (RIAV, RIIV) are used, its
                // interval (RIFV) is not.
                amplitudeUsable = usable || (v.count > 4 && v[4].label == "rhythm")
                values = [v[2].number, (v[0].number + v[1].number) / 2]
            }
            let stream = event.stream
            var emitted = [RespirationWindow]()
            try streams[slot].append(time: event.time, usable: usable, amplitudeUsable: amplitudeUsable, values: values) { row in
                try output.emit(RespirationTables.respiration, Streamed(stream: stream, value: row))
                emitted.append(row)
            }
            for row in emitted { hold(row, stream: stream) }
            if event.time.isFinite { latest = max(latest, event.time) }
            try writeFused(output: output, final: false)
        }

        /// Holds a source row for its window's fused row (or counts it late).
        mutating func hold(_ row: RespirationWindow, stream: String) {
            let k = Int((row.startSeconds / options.windowSeconds).rounded())
            guard k > fusedThrough else {
                lateRows += 1
                return
            }
            if pendingFused[k] == nil { pendingFused[k] = FusionWindow(row, stream: stream) }
            let before = pendingFused[k]!.spectra.count
            pendingFused[k]!.add(row, stream: stream)
            heldSpectra += pendingFused[k]!.spectra.count - before
            firstPending = min(firstPending ?? k, k)
            maxHeldWindows = max(maxHeldWindows, pendingFused.count)
            maxHeldSpectra = max(maxHeldSpectra, heldSpectra)
        }

        /// Writes the fused rows of the windows the recording is far enough past (all of them
        /// when `final`), in window order, and lets go of what no later fused row needs.
        mutating func writeFused(output: any ResultOutput, final: Bool) throws {
            let w = options.windowSeconds
            // A window's last neighbour (span windows on) is emitted by a stream once the window
            // span windows after that is computed, i.e. once a beat 4 s past its end arrives.
            let span = options.spectralSpan
            let due = 2 * span + 1
            // The earliest held window decides whether anything is due (most events write nothing).
            guard let first = firstPending,
                final || latest >= Double(first + due) * w + RespirationStream.margin + options.fusionLagSeconds
            else { return }
            for k in pendingFused.keys.sorted() where k > fusedThrough {
                guard final || latest >= Double(k + due) * w + RespirationStream.margin + options.fusionLagSeconds else { break }
                guard let now = pendingFused[k] else { continue }
                let row = RespirationFamily.fused(now, span: (k - span...k + span).compactMap { pendingFused[$0] }, options: options)
                try output.emit(RespirationTables.respiration, Streamed(stream: now.stream, value: row))
                fusedThrough = k
                for old in pendingFused.keys where old < k + 1 - span {
                    heldSpectra -= pendingFused[old]?.spectra.count ?? 0
                    pendingFused[old] = nil
                }
            }
            let through = fusedThrough
            firstPending = pendingFused.keys.lazy.filter { $0 > through }.min()
        }

        public mutating func finish(output: any ResultOutput) throws {
            for index in accelerometers.order {
                guard var a = accelerometers.remove(index) else { continue }
                let name = a.stream
                try a.flush { row in try output.emit(RespirationTables.respiration, Streamed(stream: name, value: row)) }
            }
            for (_, slot) in slots.sorted(by: { $0.key < $1.key }) {
                let stream = streams[slot].stream
                var emitted = [RespirationWindow]()
                try streams[slot].flush { row in
                    try output.emit(RespirationTables.respiration, Streamed(stream: stream, value: row))
                    emitted.append(row)
                }
                for row in emitted { hold(row, stream: stream) }
                for sample in streams[slot].strip() {
                    try output.emit(RespirationTables.signal, Streamed(stream: stream, value: sample))
                }
            }
            streams = []
            slots = [:]
            lastKey = nil
            try writeFused(output: output, final: true)
            pendingFused = [:]
            heldSpectra = 0
            firstPending = nil
            if lateRows > 0 {
                issues.append(
                    "respiration: \(lateRows) source rows came more than \(options.fusionLagSeconds) s behind the other streams and were not fused"
                )
            }
        }
    }
}
