import Signals

/// Where a respiration row's rate comes from: the ECG, the PPG, their fusion, or an accelerometer.
public enum RespirationSource: String, Sendable, Hashable, CaseIterable {
    /// From the beats of one ECG lead (``RespirationModulation/ecgModulations``).
    case ecg
    /// From the pulses of one optical stream (``RespirationModulation/ppgModulations``).
    case ppg
    /// From the ECG and PPG rows of the same window.
    case fused
    /// From a still accelerometer's principal axis (``AccelerometerRespiration``; not fused).
    case accelerometer
}

/// A respiratory modulation of the beat-by-beat series (Charlton et al. 2016).
public enum RespirationModulation: String, Sendable, Hashable, CaseIterable {
    /// Amplitude: ECG R apex above the PR baseline; PPG peak-to-foot amplitude (RIAV).
    case amplitude
    /// Frequency: the beat-to-beat interval (ECG respiratory sinus arrhythmia; PPG RIFV).
    case frequency
    /// PPG intensity: the mean of the pulse's peak and foot (RIIV, the baseline).
    case intensity
    /// ECG QRS area above the PR baseline (Moody et al. 1985).
    case qrsArea = "qrs_area"

    /// The modulations of the ECG, in column order.
    public static let ecgModulations: [RespirationModulation] = [.amplitude, .frequency, .qrsArea]
    /// The modulations of the PPG, in column order.
    public static let ppgModulations: [RespirationModulation] = [.amplitude, .frequency, .intensity]
}

/// One row of the `respiration` table: a window of one stream (or the fusion of a window's
/// streams), its breathing rate or the reason it has none, and the modulation rates it used.
public struct RespirationWindow: Sendable, Hashable {
    /// ECG, PPG or fused.
    public var source: RespirationSource
    /// Window start and end (exclusive), s on the stream's time scale.
    public var startSeconds: Double
    public var endSeconds: Double
    /// The breathing rate, breaths/min, or `nil` (``nullReason`` says why).
    public var breathsPerMinute: Double?
    /// Quality 0–1: the mean spectral purity of the modulations that pass the purity gate
    /// (fused: the mean quality of the sources with a rate); `nil` when none.
    public var quality: Double?
    /// The rate of each modulation (fused: of each source) that was used, breaths/min.
    public var used: [String: Double]
    /// Why there is no rate, or `nil`.
    public var nullReason: String?
    /// Whether the rate is the peak of the fused spectrum (``RespiratorySpectrum/fusedPeak(_:seconds:)``)
    /// rather than smart fusion's mean of the modulation rates.
    var spectral = false
    /// Whether a fused row's rate is the mean of the window's agreeing source rows'
    /// (``RespirationFamily/agreeingSources(_:into:options:)``).
    var fromSources = false
    /// The modulation rates that passed quality (source rows; for the fused row).
    var passing: [ModulationRate] = []
    /// Each modulation's normalised spectrum and own peak in this window (for spectral fusion).
    var spectra: [ModulationSpectrum] = []
}

/// One modulation's normalised spectrum over one window (``RespiratorySpectrum/Estimate/spectrum``)
/// and its own peak.
struct ModulationSpectrum: Sendable, Hashable {
    var source: RespirationSource
    var modulation: RespirationModulation
    var breathsPerMinute: Double
    var spectrum: [Double]
    /// The band-passed, detrended modulation on the grid over the window (for the report's
    /// strip; emptied once the row is held for fusion).
    var signal: [Double] = []
}

/// One sample of the respiratory signal a stream's strip shows (table `respiration_signal`):
/// the modulation of the stream's best-rated window, band-passed and resampled.
public struct RespirationSignalSample: Sendable, Hashable {
    /// ECG or PPG.
    public var source: RespirationSource
    /// The modulation drawn.
    public var modulation: RespirationModulation
    /// The window's start, s.
    public var windowStart: Double
    /// The sample's time, s.
    public var time: Double
    /// The band-passed modulation scaled to its largest absolute value in the window (−1…1).
    public var value: Double
    /// Whether a counted breath (a cycle between upward zero crossings) peaks at this sample.
    public var breath: Bool
    /// What the strip shows: modulation, window, rate, method and quality.
    public var note: String
}

extension RespirationWindow: StreamSummaryValue {
    /// A fused window's facts: its rate (`mean_breaths_per_min`, `median_breaths_per_min`,
    /// `night_median_breaths_per_min`: the summary keeps the last only for windows starting in the
    /// night's hours) and whether it has one (`rate_share`, over the fused windows). Source rows
    /// contribute none.
    public func summaryFacts(stream: String) -> [SummaryFact] {
        guard source == .fused else { return [] }
        var facts = [
            SummaryFact(
                family: RespirationFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds,
                figure: "rate_share", value: breathsPerMinute == nil ? 0 : 1)
        ]
        if let r = breathsPerMinute {
            for figure in ["mean_breaths_per_min", "median_breaths_per_min", "night_median_breaths_per_min"] {
                facts.append(
                    SummaryFact(
                        family: RespirationFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds,
                        figure: figure, value: r))
            }
        }
        return facts
    }
}
