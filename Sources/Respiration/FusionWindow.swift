/// What one window's fused row needs from the window's source rows, added up as the rows come
/// (``RespirationFamily/Analyzer`` holds one per window until its fused row is written): per
/// spectral key (a modulation of a source; the beat interval one key whichever source times it)
/// the sum and count of the normalised spectra, per source the sum and count of the
/// modulations' own peaks, and per modulation the sums of the rates and purities that passed
/// quality. Its size depends on the keys (at most five spectra), not on the number of streams:
/// memory held for fusion is O(windows held × spectrum bins) and each source row is added in
/// O(its spectra × bins).
struct FusionWindow {
    /// A modulation's passing rates summed over the window's streams (smart fusion).
    struct RateSum {
        var breathsPerMinute = 0.0
        var purity = 0.0
        var count = 0
        /// Whether an ECG lead gave one of them (the beat interval's source column).
        var fromECG = false
    }

    var startSeconds: Double
    var endSeconds: Double
    /// The first stream (in key order) that gave the window a source row (the fused row's
    /// `stream`).
    var stream: String
    /// Per spectral key (``key(source:modulation:)``): Σ normalised spectrum and the count.
    var spectra: [String: (sum: [Double], count: Int)] = [:]
    /// Per source: Σ of its modulations' own spectral peaks (breaths/min) and the count.
    var peaks: [RespirationSource: (sum: Double, count: Int)] = [:]
    /// Per modulation key (``key(source:modulation:)``): the passing rates summed.
    var rates: [String: RateSum] = [:]

    /// Per source: the rates of its rows that have one (each passed its own stream's rule), as
    /// Σ rate, Σ rate², Σ quality and the count (the fallback of the fused row).
    var rated: [RespirationSource: RatedSum] = [:]

    /// Rated source rows added up.
    struct RatedSum {
        var breathsPerMinute = 0.0
        var squares = 0.0
        var quality = 0.0
        var count = 0
    }

    /// An empty window named after its first source row.
    init(_ row: RespirationWindow, stream: String) {
        startSeconds = row.startSeconds
        endSeconds = row.endSeconds
        self.stream = stream
    }

    /// The key of one source's modulation: the beat interval is one modulation whether the ECG
    /// or the PPG times it (respiratory sinus arrhythmia), the others are per source.
    static func key(source: RespirationSource, modulation: RespirationModulation) -> String {
        modulation == .frequency ? "frequency" : source.rawValue + "_" + modulation.rawValue
    }

    /// The spectral keys of the ECG's modulations (the set the ECG threshold was derived for;
    /// `scripts/respiration/spectral-threshold.py`).
    static let ecgKeys = Set(RespirationModulation.ecgModulations.map { key(source: .ecg, modulation: $0) })
    /// The spectral keys of the PPG's modulations.
    static let ppgKeys = Set(RespirationModulation.ppgModulations.map { key(source: .ppg, modulation: $0) })

    /// Adds one source row of the window (its spectra, own peaks and passing rates).
    /// - Complexity: O(spectra × bins + passing rates).
    mutating func add(_ row: RespirationWindow, stream: String) {
        if stream < self.stream { self.stream = stream }
        for s in row.spectra {
            let k = Self.key(source: s.source, modulation: s.modulation)
            if var e = spectra[k] {
                spectra[k] = nil
                if e.sum.count == s.spectrum.count {
                    for b in e.sum.indices { e.sum[b] += s.spectrum[b] }
                    e.count += 1
                }
                spectra[k] = e
            } else {
                spectra[k] = (s.spectrum, 1)
            }
            var p = peaks[s.source] ?? (0, 0)
            p.sum += s.breathsPerMinute
            p.count += 1
            peaks[s.source] = p
        }
        if let r = row.breathsPerMinute {
            var e = rated[row.source] ?? RatedSum()
            e.breathsPerMinute += r
            e.squares += r * r
            e.quality += row.quality ?? 0
            e.count += 1
            rated[row.source] = e
        }
        for r in row.passing {
            let k = Self.key(source: r.source, modulation: r.modulation)
            var e = rates[k] ?? RateSum()
            e.breathsPerMinute += r.breathsPerMinute
            e.purity += r.purity
            e.count += 1
            if r.source == .ecg { e.fromECG = true }
            rates[k] = e
        }
    }

    /// The mean normalised spectrum of each key, in key order.
    var meanSpectra: [[Double]] {
        spectra.sorted { $0.key < $1.key }.map { _, e in e.sum.map { $0 / Double(e.count) } }
    }

    /// The concentration thresholds of the set of modulations the window's own spectra come
    /// from: the ECG's when every key is an ECG modulation, the PPG's when every key is a PPG
    /// modulation, the fused one otherwise — each the largest index over simulated windows
    /// without breathing for that set of modulations (`scripts/respiration/spectral-threshold.py`),
    /// so a window only one source covers is held to that source's threshold.
    /// `fullSpan`: whether every window of the span has source rows (the rate bands apply only then).
    func threshold(_ options: RespirationOptions, fullSpan: Bool = true) -> SpectralThreshold {
        let keys = Set(spectra.keys)
        if keys.isSubset(of: Self.ecgKeys) { return SpectralThreshold(source: .ecg, options, fullSpan: fullSpan) }
        if keys.isSubset(of: Self.ppgKeys) { return SpectralThreshold(source: .ppg, options, fullSpan: fullSpan) }
        return SpectralThreshold(source: .fused, options, fullSpan: fullSpan)
    }
}
