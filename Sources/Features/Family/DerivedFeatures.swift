import DSP
import Signals

/// The feature state of one derived series (``DerivedSeries``: NN intervals, heart rate, ENMO
/// epochs; the one subscribed attribute) of one stream: its windower (the family's derived windowing) and what computes and
/// emits each window under `<family>_<channel>_<feature>` (`ecg_nn_mean`, `acc_enmo_p95`).
///
/// An event series (NN intervals at their beat times) is taken, within a window, as the
/// sequence of its valid values in beat order, evenly spaced at the window's median interval
/// (``FeatureWindowSpan/sampleRate``): statistical and temporal features are computed on it, the
/// spectral group is not (an event series has no uniform rate; the `hrv` table's frequency-domain
/// metrics resample it properly).
struct DerivedFeatures {
    var parts: WindowedEmitter

    /// Prepares a series from its first event.
    /// - Parameters:
    ///   - first: the series' first event (stream, rate).
    ///   - series: its declaration, restricted to the subscribed attribute (names, unit, kind).
    ///   - options: the family's options.
    init(first: DerivedEvent, series: DerivedSeries, options: FeaturesOptions) {
        let windowing = options.derivedWindowing
        var e = WindowEmitter(
            stream: first.stream, family: series.source, channels: [series.name], units: [series.attributes[0].unit], triaxial: false,
            configuration: Self.configuration(options: options, eventSeries: series.isEventSeries),
            minimumValidFraction: windowing.minimumValidFraction)
        e.series = series.name
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
    mutating func append(_ event: DerivedEvent, output: any ResultOutput) throws {
        var v = event.values.first?.number ?? .nan
        let valid = v.isFinite
        if !valid { v = .nan }
        try parts.withParts { w, e in
            try withUnsafePointer(to: &v) { p in
                try w.append(time: event.time, values: UnsafeBufferPointer(start: p, count: 1), valid: valid) {
                    try e.emit($0, output: output)
                }
            }
        }
    }

    /// Emits the windows still open.
    mutating func finish(output: any ResultOutput) throws { try parts.finish(output: output) }
}
