import DSP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rate of one modulation over one window that passed the purity gate.
struct ModulationRate: Sendable, Hashable {
    var source: RespirationSource
    var modulation: RespirationModulation
    var breathsPerMinute: Double
    var purity: Double

    /// The beat measurement the modulation is read from: the beat interval (respiratory sinus
    /// arrhythmia, whichever sensor times the beats), or one sensor's beat amplitudes — the ECG's
    /// R amplitude and QRS area are two readings of the same electrical-axis rotation (Moody et
    /// al. 1985), the PPG's RIAV and RIIV two combinations of the same pulse peak and foot values.
    /// Two modulations of one measurement share its noise, so their agreement is no evidence of
    /// breathing (Karlen et al. 2013 fuse RIIV, RIAV and RIFV: amplitude and interval).
    var measurement: String { modulation == .frequency ? "interval" : source.rawValue + " amplitude" }

    /// Whether `rates` come from at least two measurements (``measurement``).
    static func independent(_ rates: [ModulationRate]) -> Bool {
        guard let first = rates.first?.measurement else { return false }
        return rates.contains { $0.measurement != first }
    }

    /// The reason a set of agreeing rates from one measurement gives no rate.
    static let dependentReason =
        "the modulations that pass quality are all read from one beat measurement (amplitude and QRS area of the ECG, or amplitude and intensity of the PPG): their agreement is not independent"
}

/// The respiration analysis of one ECG lead or optical stream: its beats' modulation values,
/// held until a window's end (plus a margin) has passed, then the window's rates.
struct RespirationStream {
    /// One beat (pulse): its time and one value per modulation of the source (NaN: not usable).
    struct Beat {
        var time: Double
        var values: [Double]
    }

    let source: RespirationSource
    let stream: String
    let modulations: [RespirationModulation]
    let options: RespirationOptions
    /// The band-pass at the grid's rate, designed once per stream (``RespiratorySpectrum/bandPass(gridHz:)``).
    let filter: ZeroPhaseSOSFilter?
    /// The Hann window of a window's grid points, computed once per stream.
    let hann: [Double]
    /// Beats are kept this long before a window's start and after its end, s (interpolation
    /// at the window's edges).
    static let margin = 4.0
    /// Intervals outside 0.25–2.5 s are not beat-to-beat intervals (missed or extra beats).
    static let intervalRange = 0.25...2.5
    var beats: [Beat] = []
    /// The next window to compute (index: start = index × window), `nil` before the first beat.
    var window: Int?
    /// The previous beat's time and whether it was usable (for the interval).
    var previous: (time: Double, usable: Bool)?
    /// The last computed windows (index and row) still needed: the windows waiting for their
    /// look-ahead and up to ``RespirationOptions/spectralSpan`` windows before the earliest of
    /// them (at most 2 × span + 1).
    var recent: [(index: Int, row: RespirationWindow)] = []
    /// The windows computed but not emitted yet, in order (each waits until a window at least
    /// ``RespirationOptions/spectralSpan`` later has been computed, or the stream ends).
    var waiting: [Int] = []

    init(source: RespirationSource, stream: String, options: RespirationOptions) {
        self.source = source
        self.stream = stream
        self.modulations = source == .ecg ? RespirationModulation.ecgModulations : RespirationModulation.ppgModulations
        self.options = options
        self.filter = RespiratorySpectrum.bandPass(gridHz: options.gridHz)
        self.hann = RespiratorySpectrum.hann(Int((options.windowSeconds * options.gridHz).rounded(.down)))
    }

    /// Adds a beat; emits the windows it completes.
    /// - Parameters:
    ///   - time: the beat's time, s.
    ///   - usable: whether its quality label (and, ECG, its class) allows it (every modulation;
    ///     the interval needs both beats usable).
    ///   - amplitudeUsable: whether its amplitude modulations (all but the interval) may be used
    ///     (PPG: also a pulse whose window is unacceptable for its rhythm only); `nil`: `usable`.
    ///   - values: its modulation values in ``modulations`` order, the interval excluded (ECG:
    ///     amplitude, QRS area; PPG: amplitude, intensity).
    ///   - emit: receives each completed window.
    mutating func append(
        time: Double, usable: Bool, amplitudeUsable: Bool? = nil, values: [Double], emit: (RespirationWindow) throws -> Void
    ) throws {
        guard time.isFinite else { return }
        if let p = previous, time < p.time {
            // A new segment of the source: its windows start afresh.
            try flush(emit: emit)
            previous = nil
        }
        var interval = Double.nan
        if let p = previous, usable && p.usable && Self.intervalRange.contains(time - p.time) { interval = time - p.time }
        previous = (time, usable)
        let w = options.windowSeconds
        if window == nil { window = Int((time / w).rounded(.down)) }
        while let k = window, time >= Double(k + 1) * w + Self.margin {
            try compute(k, emit: emit)
            window = k + 1
            drop(before: Double(k + 1) * w - Self.margin)
            // No beat left in reach: jump to the beat's window (windows without beats get no row).
            if beats.isEmpty { window = max(k + 1, Int(((time - Self.margin) / w).rounded(.down))) }
        }
        var row = [Double](repeating: .nan, count: modulations.count)
        if usable || amplitudeUsable == true {
            for (i, m) in modulations.enumerated() {
                switch m {
                case .frequency: row[i] = usable ? interval : .nan
                case .amplitude: row[i] = values[0]
                case .qrsArea, .intensity: row[i] = values[1]
                }
            }
        }
        beats.append(Beat(time: time, values: row))
    }

    /// Computes every window up to the last beat's.
    mutating func flush(emit: (RespirationWindow) throws -> Void) throws {
        guard let last = beats.last?.time, var k = window else { return }
        let w = options.windowSeconds
        while Double(k) * w <= last {
            try compute(k, emit: emit)
            k += 1
        }
        try release(through: Int.max, emit: emit)
        recent.removeAll()
        beats.removeAll(keepingCapacity: true)
        window = nil
    }

    /// Emits the waiting windows at least ``RespirationOptions/spectralSpan`` before window `k`
    /// (their look-ahead has been computed, or will not be), each one's rate decided by spectral
    /// fusion over its neighbours in ``recent``; then lets go of the windows no waiting one needs.
    private mutating func release(through k: Int, emit: (RespirationWindow) throws -> Void) throws {
        let span = options.spectralSpan
        while let w = waiting.first, w <= k {
            waiting.removeFirst()
            try release(w, span: span, emit: emit)
        }
        let keep = (waiting.first ?? Int.max) - span
        recent.removeAll { $0.index < keep }
    }

    /// Emits waiting window `w`, its rate decided by spectral fusion over its neighbours within
    /// `span` windows in ``recent``.
    private mutating func release(_ w: Int, span: Int, emit: (RespirationWindow) throws -> Void) throws {
        guard let i = recent.firstIndex(where: { $0.index == w }) else { return }
        var row = recent[i].row
        // One spectrum per modulation and window (a stream's rows), in modulation order.
        let spectra = recent.filter { abs($0.index - w) <= span }.flatMap {
            $0.row.spectra.sorted { $0.modulation.rawValue < $1.modulation.rawValue }
        }
        .map(\.spectrum)
        let own = row.spectra
        let ownModulations = Set(own.map(\.modulation))
        // Each modulation's spectra over the span averaged (its Welch spectrum), in modulation
        // order: computed only when the mean spectrum's indices fail and the span is full.
        var inSpan = 0
        for r in recent where abs(r.index - w) <= span { inSpan += 1 }
        let threshold = SpectralThreshold(source: source, options, fullSpan: inSpan == 2 * span + 1)
        let full = options.modulationIndices && span == SpectralThreshold.modulationSpan && inSpan == 2 * span + 1
        let near = recent, streamModulations = Set(modulations), ownKeys = Set(own.map(\.modulation.rawValue))
        let perModulation = { () -> [(own: Bool, spectrum: [Double])] in
            guard full else { return [] }
            var spectra = [(key: String, spectrum: [Double])]()
            for r in near where abs(r.index - w) <= span {
                for s in r.row.spectra where streamModulations.contains(s.modulation) {
                    spectra.append((s.modulation.rawValue, s.spectrum))
                }
            }
            return Self.spanAverages(spectra) { ownKeys.contains($0) }
        }
        // The thresholds are the no-breathing maxima of the source's full set of modulations: a
        // window without the beat interval has only amplitude modulations, read from one beat
        // measurement (their noise shared), whose simulated no-breathing windows reach those
        // thresholds far more often (`spectral-threshold.py --bands-check --without-intervals`:
        // ECG 409, PPG 717 of 7,200): no spectral rate (smart fusion refuses them as well).
        let keys = ownModulations.contains(.frequency) ? ownModulations.count : min(ownModulations.count, 1)
        Self.spectralFusion(
            &row, ownKeys: keys, spectra: spectra, perModulation: perModulation, threshold: threshold,
            seconds: options.windowSeconds,
            used: { Dictionary(own.map { ($0.modulation.rawValue, $0.breathsPerMinute) }, uniquingKeysWith: { a, _ in a }) })
        recent[i].row = row
        keepIfBest(row)
        try emit(row)
    }

    /// The stream's best-rated window so far (highest quality among rows with a rate) and the
    /// modulation whose own peak is nearest the row's rate: the report's respiratory strip.
    var best: (quality: Double, row: RespirationWindow, signal: ModulationSpectrum)?

    private mutating func keepIfBest(_ row: RespirationWindow) {
        guard let rate = row.breathsPerMinute, let q = row.quality, q > best?.quality ?? -1,
            let m = row.spectra.filter({ !$0.signal.isEmpty }).min(by: {
                abs($0.breathsPerMinute - rate) < abs($1.breathsPerMinute - rate)
            })
        else { return }
        var kept = row
        kept.spectra = []
        best = (q, kept, m)
    }

    /// The samples of the best-rated window's strip (``best``), with its counted breaths marked
    /// at each cycle's maximum (cycles between upward zero crossings; Schäfer & Kratky 2008).
    func strip() -> [RespirationSignalSample] {
        guard let (q, row, m) = best, let rate = row.breathsPerMinute else { return [] }
        let x = m.signal, gridHz = options.gridHz
        let scale = x.map { abs($0) }.max() ?? 0
        guard scale > 0 else { return [] }
        var peaks = Set<Int>(), last: Int?
        for i in 1..<x.count where x[i - 1] < 0 && x[i] >= 0 {
            if let a = last, let top = (a..<i).max(by: { x[$0] < x[$1] }) { peaks.insert(top) }
            last = i
        }
        let method = row.spectral ? RespirationFamily.spectralMethod : RespirationFamily.smartMethod
        let note =
            "\(m.modulation.rawValue) \(Int(row.startSeconds))–\(Int(row.endSeconds)) s: "
            + "\(Double(Int(rate * 10)) / 10) breaths/min, \(method), quality \(Double(Int(q * 100)) / 100)"
        return x.indices.map { i in
            RespirationSignalSample(
                source: source, modulation: m.modulation, windowStart: row.startSeconds,
                time: row.startSeconds + Double(i) / gridHz, value: x[i] / scale, breath: peaks.contains(i), note: note)
        }
    }

    /// Each key's spectra over a span averaged (its Welch spectrum: the mean of the windows'
    /// periodograms, Welch 1967), in key order — the per-modulation spectra of spectral fusion
    /// for a stream's rows and for the fused rows alike.
    /// - Parameters:
    ///   - spectra: the span's spectra with their keys, in window order; a spectrum whose length
    ///     differs from its key's first is skipped.
    ///   - own: whether a key is one of the window's own modulations.
    /// - Returns: per key with a spectrum, whether it is the window's own and the average.
    /// - Complexity: O(spectra × bins).
    static func spanAverages(
        _ spectra: [(key: String, spectrum: [Double])], own: (String) -> Bool
    ) -> [(own: Bool, spectrum: [Double])] {
        var sums = [String: (sum: [Double], count: Int)]()
        for (k, x) in spectra {
            var s = sums.removeValue(forKey: k) ?? ([Double](repeating: 0, count: x.count), 0)
            if s.sum.count == x.count {
                for b in s.sum.indices { s.sum[b] += x[b] }
                s.count += 1
            }
            sums[k] = s
        }
        return sums.sorted { $0.key < $1.key }.compactMap { k, s in
            s.count > 0 ? (own(k), s.sum.map { $0 / Double(s.count) }) : nil
        }
    }

    /// Spectral fusion of a row's window: when the row's own window has spectra of two or more
    /// modulations (`ownKeys`), the mean of `spectra` (each key's mean normalised spectrum in the
    /// row's window and its neighbours) is peak-picked
    /// (``RespiratorySpectrum/fusedPeak(_:seconds:)``); `quality` becomes the peak's
    /// concentration, and when it, or the peak's local concentration, reaches its `threshold`
    /// the rate is the peak (the used columns `used()`: each modulation's, or source's, own peak
    /// in the row's window) whatever smart fusion gave. Otherwise, with `perModulation` (each
    /// modulation's spectra averaged over the same windows, and whether the row's own window has
    /// it), two more tests of the same spectra, each at its own no-breathing maximum
    /// (``SpectralThreshold``): for fused rows of both sources the product spectrum's peak
    /// (``RespiratorySpectrum/productPeak(_:seconds:)``), then the most concentrated single
    /// modulation's peak among the window's own (``RespiratorySpectrum/modulationPeak(_:seconds:)``).
    static func spectralFusion(
        _ row: inout RespirationWindow, ownKeys: Int, spectra: [[Double]], perModulation: () -> [(own: Bool, spectrum: [Double])] = { [] },
        threshold: SpectralThreshold, seconds: Double, used: () -> [String: Double]
    ) {
        row.quality = nil
        guard ownKeys >= 2, let peak = RespiratorySpectrum.fusedPeak(spectra, seconds: seconds) else { return }
        row.quality = peak.concentration
        var rate: Double?
        var tried = false
        let flat = threshold.at(peak.breathsPerMinute)
        if peak.concentration >= flat.concentration || peak.local >= flat.local {
            rate = peak.breathsPerMinute
        } else if let joint = threshold.joint(peak.breathsPerMinute), peak.concentration * peak.local >= joint {
            rate = peak.breathsPerMinute
        } else if case let perModulation = perModulation(), !perModulation.isEmpty {
            tried = true
            if let t = threshold.product, let p = RespiratorySpectrum.productPeak(perModulation.map(\.spectrum), seconds: seconds),
                p.concentration >= t.concentration || p.local >= t.local
            {
                rate = p.breathsPerMinute
            } else if let p = RespiratorySpectrum.modulationPeak(perModulation.filter(\.own).map(\.spectrum), seconds: seconds),
                p.concentration >= threshold.modulation.concentration || p.local >= threshold.modulation.local
            {
                rate = p.breathsPerMinute
            }
        }
        guard let rate else {
            if let why = row.nullReason {
                row.nullReason =
                    "fused spectrum's peak (\(Double(Int(peak.breathsPerMinute * 10)) / 10) breaths/min) concentration "
                    + "\(Double(Int(peak.concentration * 100)) / 100) below \(flat.concentration) "
                    + "and local concentration \(Double(Int(peak.local * 100)) / 100) below \(flat.local)"
                    + (tried ? ", no single modulation's or product spectrum's peak at its threshold" : "")
                    + ", and smart fusion: " + why
            }
            return
        }
        row.breathsPerMinute = rate
        row.spectral = true
        row.nullReason = nil
        row.used = used()
    }

    private mutating func drop(before t: Double) {
        if let first = beats.firstIndex(where: { $0.time >= t }) {
            if first > 0 { beats.removeFirst(first) }
        } else {
            beats.removeAll(keepingCapacity: true)
        }
    }

    /// Window `k`'s rates and row.
    private mutating func compute(_ k: Int, emit: (RespirationWindow) throws -> Void) throws {
        let w = options.windowSeconds
        let start = Double(k) * w, end = start + w
        guard beats.contains(where: { $0.time >= start && $0.time < end }) else { return }
        var rates = [ModulationRate]()
        var spectra = [ModulationSpectrum]()
        var enough = 0
        var failed = (purity: 0, autocorrelation: 0, count: 0, constant: 0)
        for (i, m) in modulations.enumerated() {
            var times = [Double](), values = [Double]()
            for b in beats where b.time >= start - Self.margin && b.time < end + Self.margin && b.values[i].isFinite {
                times.append(b.time)
                values.append(b.values[i])
            }
            guard Self.covers(times, start: start, end: end) else { continue }
            enough += 1
            Self.removeOutliers(&times, &values)
            // A modulation whose values do not vary beyond floating-point rounding (a simulator's
            // identical beats: the beat times' rounding repeats with a few beats' period and,
            // normalised, makes a perfectly concentrated peak), or do so in fewer beats than two
            // breaths move (a start-up transient), carries no breathing.
            guard Self.varies(values) else {
                failed.constant += 1
                continue
            }
            guard times.count >= 2,
                let e = RespiratorySpectrum.estimate(
                    times: times, values: values, start: start, seconds: w, margin: Self.margin, gridHz: options.gridHz,
                    filter: filter, hann: hann)
            else { continue }
            spectra.append(
                ModulationSpectrum(
                    source: source, modulation: m, breathsPerMinute: e.breathsPerMinute, spectrum: e.spectrum, signal: e.signal))
            // Quality per modulation: a respiratory peak (purity), an oscillation that repeats at
            // its period (autocorrelation) and as many breaths counted as the peak says.
            guard e.purity >= options.minimumPurity else {
                failed.purity += 1
                continue
            }
            guard e.autocorrelation >= options.minimumAutocorrelation else {
                failed.autocorrelation += 1
                continue
            }
            guard let counted = e.countedBreathsPerMinute,
                abs(counted - e.breathsPerMinute) <= options.countAgreementBreathsPerMinute
            else {
                failed.count += 1
                continue
            }
            rates.append(ModulationRate(source: source, modulation: m, breathsPerMinute: e.breathsPerMinute, purity: e.purity))
        }
        var row = RespirationWindow(
            source: source, startSeconds: start, endSeconds: end, breathsPerMinute: nil, quality: nil, used: [:], nullReason: nil)
        row.passing = rates
        row.spectra = spectra
        Self.fuse(
            rates, into: &row, agreement: options.agreementBreathsPerMinute, enoughBeats: enough > 0,
            failing:
                "fewer than 2 modulations pass quality (\(failed.purity) below spectral purity \(options.minimumPurity), "
                + "\(failed.autocorrelation) below autocorrelation \(options.minimumAutocorrelation), \(failed.count) with a "
                + "breath count more than \(options.countAgreementBreathsPerMinute) breaths/min from the peak"
                + (failed.constant > 0 ? ", \(failed.constant) without beat-to-beat variation" : "") + ")",
            key: { $0.modulation.rawValue })
        recent.append((k, row))
        waiting.append(k)
        try release(through: k - options.spectralSpan, emit: emit)
    }

    /// Smart fusion (Karlen et al. 2013): the mean of the rates when two or more pass, their
    /// standard deviation is below `agreement` and they come from two measurements or more
    /// (``ModulationRate/measurement``: not only the R amplitude and QRS area, or the PPG
    /// amplitude and intensity); otherwise no rate, with the reason (`failing` when fewer than
    /// two pass).
    static func fuse(
        _ rates: [ModulationRate], into row: inout RespirationWindow, agreement: Double, enoughBeats: Bool, failing: String,
        key: (ModulationRate) -> String
    ) {
        if !rates.isEmpty { row.quality = rates.map(\.purity).reduce(0, +) / Double(rates.count) }
        guard enoughBeats else {
            row.nullReason = "too few usable beats: every modulation has fewer than 1 beat per 2 s or a gap over 6 s in the window"
            return
        }
        guard rates.count >= 2 else {
            row.nullReason = failing
            return
        }
        let r = rates.map(\.breathsPerMinute)
        let mean = r.reduce(0, +) / Double(r.count)
        let sd = (r.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(r.count - 1)).squareRoot()
        guard sd < agreement else {
            row.nullReason = "modulations disagree: standard deviation \(Double(Int(sd * 10)) / 10) ≥ \(agreement) breaths/min"
            return
        }
        guard ModulationRate.independent(rates) else {
            row.nullReason = ModulationRate.dependentReason
            return
        }
        row.breathsPerMinute = mean
        for x in rates { row.used[key(x), default: 0] += x.breathsPerMinute / Double(rates.filter { key($0) == key(x) }.count) }
    }

    /// Whether the beats cover the window: at least one per 2 s on average and no gap (edges
    /// included) longer than 6 s.
    static func covers(_ times: [Double], start: Double, end: Double) -> Bool {
        let inside = times.filter { $0 >= start && $0 < end }
        guard Double(inside.count) >= (end - start) / 2 else { return false }
        var last = start
        for t in times where t >= start && t < end {
            if t - last > 6 { return false }
            last = t
        }
        return end - last <= 6
    }

    /// Whether `values` vary beyond floating-point rounding in at least
    /// ``minimumVaryingBeats`` beats: values further from their median than 10⁻⁹ of their
    /// largest magnitude (far below any sensor's resolution: 1 nV in 1 mV, 1 ns in a 1-s
    /// interval). Breathing moves every beat; the peak and trough beats of two breaths are the
    /// fewest a rate needs. So a modulation of identical beats is not analysed, nor one whose only
    /// variation is a few beats' start-up transient (the ECG chain's first five beats settle to
    /// within 10⁻⁶; those the outlier rule keeps would otherwise make the window's spectrum).
    /// - Complexity: O(n log n) in the window's beats.
    static func varies(_ values: [Double]) -> Bool {
        guard !values.isEmpty else { return false }
        let m = median(values), rounding = roundingScale(values)
        var varying = 0
        for v in values where abs(v - m) > rounding { varying += 1 }
        return varying >= minimumVaryingBeats
    }

    /// The median of `x` (not empty); O(n log n).
    static func median(_ x: [Double]) -> Double {
        let s = x.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Floating-point rounding at the scale of `values`: 10⁻⁹ of their largest magnitude.
    static func roundingScale(_ values: [Double]) -> Double { 1e-9 * values.reduce(0) { max($0, abs($1)) } }

    /// Beats that must differ from the window's median for a modulation to be analysed
    /// (``varies(_:)``).
    static let minimumVaryingBeats = 4

    /// Drops values further than 4 scaled median absolute deviations from the median (a missed
    /// or ectopic beat's interval, an artefact's amplitude). Deviations within floating-point
    /// rounding (10⁻⁹ of the largest magnitude, as in ``varies(_:)``) count as zero, and when more
    /// than half the values are equal, so that the MAD is zero, the smallest non-zero deviation
    /// (the data's resolution: one sample period for the intervals of beats at sample instants)
    /// stands in for it — the MAD breaks down on data with more than 50 % ties (Rousseeuw & Croux
    /// 1993), and a rounding-sized MAD would drop every interval a sample away from the median.
    static func removeOutliers(_ times: inout [Double], _ values: inout [Double]) {
        guard !values.isEmpty else { return }
        let m = median(values), rounding = roundingScale(values)
        let deviations = values.map { abs($0 - m) <= rounding ? 0 : abs($0 - m) }
        var mad = 1.4826 * median(deviations)
        if mad == 0 {
            guard let step = deviations.lazy.filter({ $0 > 0 }).min() else { return }
            mad = 1.4826 * step
        }
        var t = [Double](), v = [Double]()
        for (ti, vi) in zip(times, values) where abs(vi - m) <= 4 * mad {
            t.append(ti)
            v.append(vi)
        }
        times = t
        values = v
    }
}

/// The thresholds of spectral fusion's peak for one set of modulations
/// (``RespirationStream/spectralFusion(_:ownKeys:spectra:perModulation:threshold:seconds:used:)``):
/// its concentration's and its local concentration's (``RespiratorySpectrum/fusedPeak(_:seconds:)``;
/// options), the single most concentrated modulation's (``RespiratorySpectrum/modulationPeak(_:seconds:)``)
/// and, for fused rows of both sources, the product spectrum's
/// (``RespiratorySpectrum/productPeak(_:seconds:)``): each the largest value of its index over
/// simulated windows without breathing (noise and motion) at span 2, rounded up
/// (`scripts/respiration/spectral-threshold.py`: the first two over its 1,600 windows, the
/// single-modulation and product ones over 7,200 — 1,600 were too few for their heavier tail: at those maxima a
/// window of the Swift motion test got a rate; they apply only where the span is full); the
/// peak is the rate when any is reached.
struct SpectralThreshold: Sendable, Hashable {
    /// A pair of thresholds: concentration and local concentration.
    struct Pair: Sendable, Hashable {
        var concentration: Double
        var local: Double
    }

    var concentration: Double
    var local: Double
    /// The single modulation's peak.
    var modulation: Pair
    /// The product spectrum's peak, fused rows of both sources only; `nil`: not tested.
    var product: Pair?
    /// The spectral span the single-modulation and product thresholds were derived at: they
    /// apply at this span only, and only to windows whose span is full (every one of the 2 ×
    /// span + 1 windows has spectra). At a recording's first and last windows fewer spectra are
    /// averaged and every simulated maximum of these indices lay there.
    static let modulationSpan = 2

    /// Rate bands of the concentration thresholds (``RespirationOptions/rateBands``):
    /// from each band's lower rate (breaths/min) up, the largest concentration and local
    /// concentration of the fused spectrum's peak over simulated windows without breathing whose
    /// peak lies at that rate or above (an upper envelope, non-increasing with the rate), rounded
    /// up (`scripts/respiration/spectral-threshold.py`, `rate_bands`; 7,200 windows at span 2).
    /// The noise of a beat-sampled, linearly interpolated modulation is coloured — interpolation
    /// low-passes it and motion walks add a low-frequency hump — so its chance peaks are both more
    /// frequent and more concentrated at low rates; a threshold that depends on where the peak
    /// lies tests it against the noise background at that frequency rather than the worst one in
    /// the band (significance of spectral peaks against a coloured background: Mann & Lees 1996;
    /// Torrence & Compo 1998). Empty: the flat thresholds everywhere.
    var bands: [Band] = []

    /// A rate band's thresholds: from `fromBreathsPerMinute` up (to the next band).
    struct Band: Sendable, Hashable {
        var fromBreathsPerMinute: Double
        var threshold: Pair
    }

    /// The concentration and local-concentration thresholds for a peak at `breathsPerMinute`:
    /// the flat ones (the options), lowered to the rate band's (``bands``) where that is lower.
    func at(_ breathsPerMinute: Double) -> Pair {
        var t = Pair(concentration: concentration, local: local)
        if let b = bands.last(where: { $0.fromBreathsPerMinute <= breathsPerMinute }) {
            t.concentration = min(t.concentration, b.threshold.concentration)
            t.local = min(t.local, b.threshold.local)
        }
        return t
    }

    /// The thresholds of a source's modulations (ECG, PPG, or fused: every modulation); the rate
    /// bands (``bands``) only where every window of the span has spectra (`fullSpan`): at a
    /// recording's first and last two windows the spectrum averages fewer windows, off-centre,
    /// and its peak can stand for the neighbours' rate rather than the window's (the BIDMC
    /// excerpt's first window: 22.0 against an annotated 24.6 breaths/min, found by a band).
    init(source: RespirationSource, _ options: RespirationOptions, fullSpan: Bool = true) {
        switch source {
        case .ecg:
            (concentration, local) = (options.minimumConcentrationECG, options.minimumLocalConcentrationECG)
            modulation = Pair(concentration: 0.38, local: 0.59)
            product = nil
        case .ppg:
            (concentration, local) = (options.minimumConcentrationPPG, options.minimumLocalConcentrationPPG)
            modulation = Pair(concentration: 0.38, local: 0.53)
            product = nil
        case .fused, .accelerometer:
            (concentration, local) = (options.minimumConcentrationFused, options.minimumLocalConcentrationFused)
            modulation = Pair(concentration: 0.38, local: 0.59)
            product = Pair(concentration: 0.23, local: 0.38)
        }
        let banded = fullSpan && options.spectralSpan == Self.modulationSpan && source != .accelerometer
        if banded && options.rateBands { bands = Self.rateBands[source] ?? [] }
        if banded && options.jointIndex { jointBands = Self.jointBands[source] ?? [] }
    }

    /// Thresholds of the joint index — the product of the fused spectrum's peak concentration and
    /// local concentration — from each band's lower rate (breaths/min) up
    /// (``RespirationOptions/jointIndex``): the largest product over the simulated windows without
    /// breathing whose span is full and whose peak lies at that rate or above, rounded up to
    /// 0.001 (`scripts/respiration/spectral-threshold.py`, `joint_bands`; 7,200 windows at span 2).
    /// Empty: the joint index is not tested.
    var jointBands: [JointBand] = []

    /// A joint-index band's threshold: from `fromBreathsPerMinute` up (to the next band).
    struct JointBand: Sendable, Hashable {
        var fromBreathsPerMinute: Double
        var product: Double
    }

    /// The joint index's threshold for a peak at `breathsPerMinute` (``jointBands``), or `nil`
    /// when it is not tested.
    func joint(_ breathsPerMinute: Double) -> Double? {
        jointBands.last { $0.fromBreathsPerMinute <= breathsPerMinute }?.product
    }

    /// ``jointBands`` per source (as ``rateBands``), from `scripts/respiration/spectral-threshold.py`
    /// at span 2 (`joint_bands`). The two indices of one peak see different noise: the
    /// concentration's largest noise values come from broad low-frequency humps (drifting
    /// amplitudes), the local concentration's from narrow chance peaks in a flat background, so
    /// noise that is high on one is rarely high on both; a peak moderately concentrated by both
    /// is rarer in the simulated noise than by either alone (both indices: Nemati et al. 2010's
    /// spectral fusion; de Haan & Jeanne 2013's spectral signal-to-noise form), and each band's
    /// product is tested against the noise at that rate (Mann & Lees 1996).
    static let jointBands: [RespirationSource: [JointBand]] = [
        .ecg: [0.078, 0.070, 0.053, 0.043].enumerated().map { JointBand(fromBreathsPerMinute: edges[$0], product: $1) },
        .ppg: [0.090, 0.090, 0.071, 0.059].enumerated().map { JointBand(fromBreathsPerMinute: edges[$0], product: $1) },
        .fused: [0.076, 0.062, 0.049, 0.048].enumerated().map { JointBand(fromBreathsPerMinute: edges[$0], product: $1) },
    ]
    /// The joint index's band edges, breaths/min (everything below 12 is the first band).
    private static let edges: [Double] = [0, 12, 16, 20]

    /// ``bands`` per source (ECG: R amplitude, QRS area, beat interval; PPG: amplitude,
    /// intensity, beat interval; fused: all five), from `scripts/respiration/spectral-threshold.py`
    /// at span 2 (`rate_bands`).
    static let rateBands: [RespirationSource: [Band]] = [
        .ecg: [
            Band(fromBreathsPerMinute: 12, threshold: Pair(concentration: 0.22, local: 0.38)),
            Band(fromBreathsPerMinute: 16, threshold: Pair(concentration: 0.18, local: 0.38)),
            Band(fromBreathsPerMinute: 20, threshold: Pair(concentration: 0.16, local: 0.38)),
        ],
        .ppg: [
            Band(fromBreathsPerMinute: 12, threshold: Pair(concentration: 0.26, local: 0.43)),
            Band(fromBreathsPerMinute: 16, threshold: Pair(concentration: 0.22, local: 0.42)),
            Band(fromBreathsPerMinute: 20, threshold: Pair(concentration: 0.18, local: 0.40)),
        ],
        .fused: [
            Band(fromBreathsPerMinute: 12, threshold: Pair(concentration: 0.21, local: 0.38)),
            Band(fromBreathsPerMinute: 16, threshold: Pair(concentration: 0.19, local: 0.38)),
            Band(fromBreathsPerMinute: 20, threshold: Pair(concentration: 0.16, local: 0.33)),
        ],
    ]
}
