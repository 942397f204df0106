import DSP
import Signals

/// The feature state of one derived series (``DerivedSample``: NN intervals, heart rate, ENMO
/// epochs) of one stream: its windower (the family's derived windowing) and what computes and
/// emits each window under `<family>_<channel>_<feature>` (`ecg_nn_mean`, `acc_enmo_p95`).
///
/// An event series (NN intervals at their beat times) is taken, within a window, as the
/// sequence of its valid values in beat order, evenly spaced at the window's median interval
/// (``FeatureWindowSpan/sampleRate``): statistical and temporal features are computed on it, the
/// spectral group is not (an event series has no uniform rate; the `hrv` table's frequency-domain
/// metrics resample it properly).
struct DerivedFeatures {
    var parts: WindowedEmitter

    /// Prepares a series from its first sample.
    /// - Parameters:
    ///   - first: the series' first sample (names, unit, rate, kind).
    ///   - options: the family's options.
    init(first: DerivedSample, options: FeaturesOptions) {
        let windowing = options.derivedWindowing
        var e = WindowEmitter(
            stream: first.stream, family: first.family, channels: [first.channel], units: [first.unit], triaxial: false,
            configuration: Self.configuration(options: options, eventSeries: first.isEventSeries),
            minimumValidFraction: windowing.minimumValidFraction)
        e.series = first.channel
        parts = WindowedEmitter(
            windower: FeatureWindower(windowing: windowing, channelCount: 1, nominalSampleRate: first.nominalRate), emitter: e)
    }

    /// The catalog of a derived series: the family's, without the spectral group for event series.
    static func configuration(options: FeaturesOptions, eventSeries: Bool) -> FeatureExtractor.Configuration {
        var c = options.configuration
        if eventSeries { c.groups.remove(.spectral) }
        return c
    }

    /// Adds one sample, emitting the windows it completes.
    /// - Complexity: amortised O(1) plus O(n log n) per completed window.
    mutating func append(_ sample: DerivedSample, output: any ResultOutput) throws {
        var v = sample.value
        let valid = v.isFinite
        if !valid { v = .nan }
        try parts.withParts { w, e in
            try withUnsafePointer(to: &v) { p in
                try w.append(time: sample.time, values: UnsafeBufferPointer(start: p, count: 1), valid: valid) {
                    try e.emit($0, output: output)
                }
            }
        }
    }

    /// Emits the windows still open.
    mutating func finish(output: any ResultOutput) throws { try parts.finish(output: output) }
}
