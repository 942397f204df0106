import DSP
import Signals

/// The feature state of one stream: its windower and what computes and emits each window.
public struct StreamFeatures {
    var parts: WindowedEmitter
    let columns: [Int]

    /// Prepares the features of one announced stream.
    /// - Parameters:
    ///   - stream: the announcement.
    ///   - options: the family's options.
    public init(stream: AnnouncedStream, options: FeaturesOptions) {
        let (columns, names, triaxial) = FeatureColumns.channels(of: stream.info)
        self.columns = columns
        let units = columns.map { stream.info.columns[$0].unit.rawValue }
        parts = WindowedEmitter(
            windower: FeatureWindower(
                windowing: options.windowing, channelCount: columns.count, nominalSampleRate: stream.info.nominalSampleRate),
            emitter: WindowEmitter(
                stream: stream.name, family: FeatureColumns.family(of: stream.info), channels: names, units: units,
                triaxial: triaxial, configuration: options.configuration,
                minimumValidFraction: options.windowing.minimumValidFraction))
    }

    /// Windows the block's samples, emitting completed windows.
    /// - Complexity: O(block) plus O(n log n) per completed window.
    public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
        let columns = columns
        try parts.withParts { w, e in try w.append(block, columns: columns) { try e.emit($0, output: output) } }
    }

    /// Emits the windows still open.
    public mutating func finish(output: any ResultOutput) throws { try parts.finish(output: output) }
}

/// A windower and the emitter its completed windows go to, as one value: ``StreamFeatures`` (a
/// stream's samples) and ``DerivedFeatures`` (a derived series) each hold one.
struct WindowedEmitter {
    private var windower: FeatureWindower?
    private var emitter: WindowEmitter?

    init(windower: FeatureWindower, emitter: WindowEmitter) {
        self.windower = windower
        self.emitter = emitter
    }

    /// Emits the windows still open.
    mutating func finish(output: any ResultOutput) throws {
        try withParts { w, e in try w.finish { try e.emit($0, output: output) } }
    }

    /// Runs `body` on the windower and emitter moved out of `self` (so the emit callback can
    /// mutate the emitter while the windower runs without copying either), then puts them back.
    mutating func withParts(_ body: (inout FeatureWindower, inout WindowEmitter) throws -> Void) rethrows {
        var w = windower!
        var e = emitter!
        windower = nil
        emitter = nil
        defer {
            windower = w
            emitter = e
        }
        try body(&w, &e)
    }
}

/// Computes a window's features and emits its rows.
struct WindowEmitter {
    let stream: String
    /// `samples`, or the derived series' channel (``FeatureWindowRow/series``).
    var series = "samples"
    let triaxial: Bool
    let names: [[String]] // per channel (then mag), per feature
    let units: [[String]]
    let smaName: String?
    let smaUnit: String
    let computesTemporal: Bool
    let minimumValidFraction: Double
    var extractor: FeatureExtractor
    var values: [Double]
    var magnitude: [Double] = []

    init(
        stream: String, family: String, channels: [String], units channelUnits: [String], triaxial: Bool,
        configuration: FeatureExtractor.Configuration, minimumValidFraction: Double
    ) {
        self.stream = stream
        self.minimumValidFraction = minimumValidFraction
        self.triaxial = triaxial
        extractor = FeatureExtractor(configuration: configuration)
        let defs = extractor.features
        var channelNames = channels
        var unitsByChannel = channelUnits
        if triaxial {
            channelNames.append("mag")
            unitsByChannel.append(channelUnits[0])
        }
        names = channelNames.map { c in defs.map { FeatureColumns.name(family: family, channel: c, feature: $0.name) } }
        units = unitsByChannel.map { u in defs.map { $0.unit(channelUnit: u) } }
        computesTemporal = configuration.groups.contains(.temporal)
        smaName =
            triaxial && computesTemporal
            ? FeatureColumns.name(family: family, channel: "xyz", feature: FeatureCatalog.signalMagnitudeArea.name) : nil
        smaUnit = channelUnits[0]
        values = [Double](repeating: .nan, count: defs.count)
    }

    mutating func emit(_ span: FeatureWindowSpan, output: any ResultOutput) throws {
        var reason: String?
        if !span.isComputable {
            if span.validCount < 2 {
                reason = "fewer than 2 valid samples"
            } else if !span.sampleRate.isFinite {
                reason = "no sample rate"
            } else {
                reason = "valid fraction \(Self.rounded(span.validFraction)) below the minimum \(minimumValidFraction)"
            }
        }
        try output.emit(
            FeatureTables.windows,
            FeatureWindowRow(
                stream: stream, startSeconds: span.startSeconds, endSeconds: span.endSeconds,
                sampleCount: span.sampleCount, validCount: span.validCount, validFraction: span.validFraction,
                sampleRate: span.sampleRate, reason: reason, series: series))
        guard span.isComputable else { return }
        let channelCount = triaxial ? 3 : names.count
        for c in 0..<channelCount {
            try compute(span.channel(c), rate: span.sampleRate, channel: c, span: span, output: output)
        }
        if triaxial {
            let x = span.channel(0), y = span.channel(1), z = span.channel(2)
            let n = span.validCount
            if magnitude.count < n { magnitude = [Double](repeating: 0, count: n) }
            magnitude.withUnsafeMutableBufferPointer { m in
                for i in 0..<n { m[i] = (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot() }
            }
            let mag = magnitude
            try mag.withUnsafeBufferPointer { m in
                try compute(UnsafeBufferPointer(rebasing: m[0..<n]), rate: span.sampleRate, channel: 3, span: span, output: output)
            }
            if let smaName {
                let v = FeatureExtractor.signalMagnitudeArea(x: x, y: y, z: z)
                try output.emit(
                    FeatureTables.features,
                    FeatureValueRow(
                        stream: stream, windowStart: span.startSeconds, windowEnd: span.endSeconds, feature: smaName,
                        unit: smaUnit, value: v))
            }
        }
    }

    mutating func compute(
        _ x: UnsafeBufferPointer<Double>, rate: Double, channel c: Int, span: FeatureWindowSpan, output: any ResultOutput
    ) throws {
        values.withUnsafeMutableBufferPointer { v in extractor.extract(x, sampleRate: rate, into: v) }
        for f in 0..<values.count {
            try output.emit(
                FeatureTables.features,
                FeatureValueRow(
                    stream: stream, windowStart: span.startSeconds, windowEnd: span.endSeconds, feature: names[c][f],
                    unit: units[c][f], value: values[f]))
        }
    }

    static func rounded(_ x: Double) -> String {
        let r = (x * 1000).rounded() / 1000
        return String(r)
    }
}
