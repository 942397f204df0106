import Signals

/// The derived series the shared beat-series stage publishes through its rows (declared by the
/// ECG and PPG families, ``AnalysisFamily/publishes``), for families that compute over them
/// without knowing Cardio (features; rhythm).
public enum BeatSeriesEvents {
    /// `<source>_nn`: one event per beat with an NN interval, at the beat's corrected time
    /// (`beats.nn_time`), an event series.
    /// - Parameter source: `ecg` (leads and the fused series) or `ppg`.
    /// - Returns: the declaration.
    public static func nn(source: String) -> DerivedSeries {
        DerivedSeries(
            source: source, name: "nn", summary: "NN intervals of the corrected beat series, at each beat's corrected time",
            isEventSeries: true,
            attributes: [
                .number("nn_ms", unit: "ms", "the interval to the previous corrected beat (beats.nn_ms); NaN when HRV leaves it out"),
                .label(
                    "nn_excluded", values: NNExclusion.allCases.map(\.rawValue),
                    "why HRV leaves the interval out (beats.nn_excluded; none when it is normal-to-normal)"),
            ])
    }

    /// A heart-rate series: one event per heart-rate window, at the window start.
    /// - Parameters:
    ///   - source: `ecg` or `ppg`.
    ///   - method: how the rate was computed (`hr`: beat-based; PPG's spectral tracking
    ///     `hrSpectralOnline`, `hrSpectralOffline`).
    /// - Returns: the declaration.
    public static func heartRate(source: String, method: HeartRateMethod) -> DerivedSeries {
        DerivedSeries(
            source: source, name: name(of: method),
            summary: "heart rate per window (heart_rate rows of method \(method.rawValue)), at the window start",
            attributes: [.number("heart_rate_bpm", unit: "bpm", "the window's heart rate (heart_rate.heart_rate_bpm); NaN without a rate")])
    }

    /// The series name of a heart-rate method: `hr`, `hrSpectralOnline`, `hrSpectralOffline`.
    static func name(of method: HeartRateMethod) -> String {
        switch method {
        case .beats: "hr"
        case .spectralOnline: "hrSpectralOnline"
        case .spectralOffline: "hrSpectralOffline"
        }
    }
}

extension SeriesRow: DerivedSeriesContributing {
    /// The derived-series event a beat-series row publishes (``BeatSeriesEvents``): a beat with
    /// an NN interval in `<source>_nn`, a heart-rate window in `<source>_hr` (or PPG's spectral
    /// series). The source token is `ecg` (also the fused leads, whose stream key differs) or `ppg`.
    public var derivedEvent: DerivedEvent? {
        let family = source == .ppg ? "ppg" : source == .device ? "device" : "ecg"
        switch value {
        case let labelled as LabelledBeat:
            let b = labelled.beat
            guard let t = b.nnTimeSeconds, let nn = b.nnMilliseconds else { return nil }
            return DerivedEvent(
                series: family + "_nn", stream: stream, time: t,
                values: [
                    .number(b.nnExclusion == nil && nn.isFinite ? nn : .nan),
                    b.nnExclusion.map { .label($0.rawValue) } ?? .none,
                ])
        case let window as HeartRateWindow:
            return DerivedEvent(
                series: family + "_" + BeatSeriesEvents.name(of: window.method), stream: stream, time: window.startSeconds,
                values: [.number(window.heartRateBPM ?? .nan)])
        default:
            return nil
        }
    }
}
