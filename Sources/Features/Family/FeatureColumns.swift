import DSP
import Signals

/// How a stream's feature columns are named: `<family>_<channel>_<feature>`.
///
/// The family token comes from the sensor (`acc` accelerometer, also a PPG device's embedded
/// accelerometer; `gyro` rotation rate; `ecg`; `ppg`), the channel from the stream's column
/// (`x`, `y`, `z`, `value`, `normalizedReflectance`, …) plus `mag` (vector magnitude) and `xyz`
/// (across the three axes) for tri-axial streams.
public enum FeatureColumns {
    /// The family token of a stream.
    /// - Parameter info: the stream's description.
    /// - Returns: `acc` (also an accelerometer embedded in PPG samples), `gyro`, `ecg` or `ppg`.
    public static func family(of info: StreamInfo) -> String {
        if info.role == .embeddedAccelerometer { return "acc" }
        switch info.key.sensor {
        case .accelerometer: return "acc"
        case .rotationRate: return "gyro"
        case .electrocardiogram: return "ecg"
        case .photoplethysmogram: return "ppg"
        case .heartbeat: return "beat"
        case .healthRecord: return "health"
        }
    }

    /// The stream's columns that get features, and whether they are the three axes x, y, z
    /// (then `mag` and `xyz` are added).
    /// - Parameter info: the stream's description.
    /// - Returns: column indices and names; PPG optical streams use `normalizedReflectance`
    ///   only (the other optical columns are the device's noise estimates).
    public static func channels(of info: StreamInfo) -> (columns: [Int], names: [String], triaxial: Bool) {
        let names = info.columns.map(\.name)
        if let x = names.firstIndex(of: "x"), let y = names.firstIndex(of: "y"), let z = names.firstIndex(of: "z") {
            return ([x, y, z], ["x", "y", "z"], true)
        }
        if info.key.sensor == .photoplethysmogram, let r = names.firstIndex(of: "normalizedReflectance") {
            return ([r], ["normalizedReflectance"], false)
        }
        return (Array(names.indices), names, false)
    }

    /// The column name `<family>_<channel>_<feature>`.
    public static func name(family: String, channel: String, feature: String) -> String {
        "\(family)_\(channel)_\(feature)"
    }

    /// The derived series the family subscribes to (``DerivedSubscription``), as `(family,
    /// channel, attribute, unit, event series)`: the series ``DerivedSeries/id`` is
    /// `<family>_<channel>`, the one attribute it computes features of, with the unit and kind
    /// its publisher declares (checked against the registry by a test): NN intervals and heart
    /// rate of ECG (leads and fused) and PPG, and ENMO epochs of accelerometers. Event series
    /// (NN) get no spectral features.
    public static let derivedSeries: [(family: String, channel: String, attribute: String, unit: String, isEventSeries: Bool)] = [
        ("ecg", "nn", "nn_ms", "ms", true), ("ecg", "hr", "heart_rate_bpm", "bpm", false), ("ppg", "nn", "nn_ms", "ms", true),
        ("ppg", "hr", "heart_rate_bpm", "bpm", false), ("ppg", "hrSpectralOnline", "heart_rate_bpm", "bpm", false),
        ("ppg", "hrSpectralOffline", "heart_rate_bpm", "bpm", false), ("acc", "enmo", "enmo_mg", "mg", false),
    ]

    /// The family's subscriptions: one per ``derivedSeries`` entry.
    public static var derivedSubscriptions: [DerivedSubscription] {
        derivedSeries.map { DerivedSubscription(series: "\($0.family)_\($0.channel)", attributes: [$0.attribute]) }
    }

    /// Every column the catalog defines for the default stream families and the derived series,
    /// for `features --list`: `(column, unit, group, definition)`, with `U` in units standing for
    /// the channel's unit (the derived series' unit is given: ms, bpm, mg).
    /// - Parameter configuration: the catalog configuration.
    /// - Complexity: O(families · channels · features).
    public static func list(_ configuration: FeatureExtractor.Configuration) -> [(
        name: String, unit: String, group: String, definition: String
    )] {
        let definitions = FeatureCatalog.definitions(configuration)
        let layouts: [(String, [String], Bool)] = [
            ("acc", ["x", "y", "z", "mag"], true), ("gyro", ["x", "y", "z", "mag"], true), ("ecg", ["value"], false),
            ("ppg", ["normalizedReflectance"], false),
        ]
        var out = [(name: String, unit: String, group: String, definition: String)]()
        for (family, channels, triaxial) in layouts {
            for c in channels {
                for d in definitions {
                    out.append((name(family: family, channel: c, feature: d.name), d.unit, d.group.rawValue, d.definition))
                }
            }
            if triaxial && configuration.groups.contains(.temporal) {
                let d = FeatureCatalog.signalMagnitudeArea
                out.append((name(family: family, channel: "xyz", feature: d.name), d.unit, d.group.rawValue, d.definition))
            }
        }
        for d in derivedSeries {
            for f in definitions where !(d.isEventSeries && f.group == .spectral) {
                out.append(
                    (
                        name(family: d.family, channel: d.channel, feature: f.name), f.unit(channelUnit: d.unit), f.group.rawValue,
                        f.definition
                    ))
            }
        }
        return out
    }
}
