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
    /// The modulation rates that passed quality (source rows; for the fused row).
    var passing: [ModulationRate] = []
}

extension RespirationWindow: StreamSummaryValue {
    /// A fused window's facts: its rate (`mean_breaths_per_min`) and whether it has one
    /// (`rate_share`, over the fused windows). Source rows contribute none.
    public func summaryFacts(stream: String) -> [SummaryFact] {
        guard source == .fused else { return [] }
        var facts = [
            SummaryFact(
                family: RespirationFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds,
                figure: "rate_share", value: breathsPerMinute == nil ? 0 : 1)
        ]
        if let r = breathsPerMinute {
            facts.append(
                SummaryFact(
                    family: RespirationFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds,
                    figure: "mean_breaths_per_min", value: r))
        }
        return facts
    }
}
