/// Options of the ECG analysis.
public struct ECGOptions: Sendable, Hashable {
    /// Heart-rate and HRV windows (``BeatSeriesOptions``: 10-s heart rate every 10 s,
    /// 300-s HRV).
    public var series = BeatSeriesOptions()
    /// Signal-quality window length, seconds (default 10, as Zhao & Zhang 2018).
    public var qualityWindowSeconds = 10.0
    /// Heart-rate window length, seconds (default 10).
    public var heartRateWindowSeconds: Double {
        get { series.heartRateWindowSeconds }
        set { series.heartRateWindowSeconds = newValue }
    }
    /// Heart-rate window step, seconds (default 10).
    public var heartRateStepSeconds: Double {
        get { series.heartRateStepSeconds }
        set { series.heartRateStepSeconds = newValue }
    }
    /// HRV window length, seconds (default 300).
    public var hrvWindowSeconds: Double {
        get { series.hrvWindowSeconds }
        set { series.hrvWindowSeconds = newValue }
    }
    /// Leave the intervals in `unacceptable` quality windows out of HRV (default `true`;
    /// counted in the `hrv` table's `excluded_quality_share`).
    public var hrvExcludesUnacceptable = true
    /// The ECG leads to analyse, each a channel name (``StreamKey/channel`` or the stream's
    /// `lead` attribute) or a 0-based index among the recording's ECG streams in the order
    /// they are announced (for WFDB, the signal number when every signal is ECG); empty
    /// (default) analyses every lead. Used by ``ECGFamily`` (`--channel`, `--ecg-channel`).
    public var channels: [String] = []
    /// For a recording with several analysed leads of one device (and session), also write a
    /// beat series fused across the leads (``LeadFusion``; `source` `fused`, channel `fused`)
    /// (default `true`).
    public var fusesLeads = true
    /// Creates default options.
    public init() {}
}
