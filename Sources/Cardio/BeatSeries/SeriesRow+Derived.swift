import Signals

extension SeriesRow: DerivedSeriesContributing {
    /// The derived-series sample a beat-series row publishes (for the features family, which
    /// computes windowed features over it without knowing this family):
    /// - a beat with an NN interval: channel `nn`, the interval in ms at the beat's corrected
    ///   time (NaN when ``NNSelection`` leaves it out of HRV), an event series;
    /// - a heart-rate window: channel `hr` (beat-based), `hrSpectralOnline` or
    ///   `hrSpectralOffline` (PPG spectral tracking), the rate in bpm at the window start (NaN
    ///   without a rate), rate taken from the window starts.
    ///
    /// The family token is the source: `ecg` (also the fused leads, whose stream key differs) or `ppg`.
    public var derivedSample: DerivedSample? {
        let family = source == .ppg ? "ppg" : "ecg"
        switch value {
        case let labelled as LabelledBeat:
            let b = labelled.beat
            guard let t = b.nnTimeSeconds, let nn = b.nnMilliseconds else { return nil }
            return DerivedSample(
                stream: stream, family: family, channel: "nn", unit: "ms", time: t,
                value: b.nnExclusion == nil && nn.isFinite ? nn : .nan, isEventSeries: true)
        case let window as HeartRateWindow:
            let channel: String
            switch window.method {
            case .beats: channel = "hr"
            case .spectralOnline: channel = "hrSpectralOnline"
            case .spectralOffline: channel = "hrSpectralOffline"
            }
            return DerivedSample(
                stream: stream, family: family, channel: channel, unit: "bpm", time: window.startSeconds,
                value: window.heartRateBPM ?? .nan)
        default:
            return nil
        }
    }
}
