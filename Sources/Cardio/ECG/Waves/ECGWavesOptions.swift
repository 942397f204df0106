import Signals

/// Options of the ECG wave delineation (``ECGWavesFamily``).
public struct ECGWavesOptions: Sendable, Hashable {
    /// Length of the `ecg_intervals` windows, s (default 60; windows start at multiples of it on
    /// the `beats.time` clock).
    public var intervalWindowSeconds = 60.0
    /// Length of the `ecg_median_beats` windows, s (default 3600: one median beat per lead and
    /// hour; windows start at multiples of it on the `beats.time` clock).
    public var medianBeatWindowSeconds = 3600.0
    /// For multi-lead recordings, also write the boundaries combined across the leads of a
    /// device (stream channel `combined`; default `true`).
    public var combinesLeads = true
    /// For multi-lead recordings, empty a window's QT/QTc in every row of the device when its
    /// leads' median QTs differ by more than ``ECGIntervals/leadDisagreementLimit`` (default
    /// `true`; off: each lead's QT as measured, for review).
    public var checksLeadAgreement = true
    /// Empty a window's (and the whole stream's) QT/QTc when its QT IQR exceeds what RR changes
    /// allow, ``ECGIntervals/qtSpreadLimit(rrIQR:)`` (default `true`; any number of leads; off:
    /// the QT as measured, for review).
    public var checksQTSpread = true
    /// Creates default options.
    public init() {}
}

extension ECGWavesOptions: Codable {
    /// Reads the options from a JSON object keyed by the family's declared option keys.
    /// - Throws: `OptionValueError` naming the key for an unknown key or a value not accepted.
    public init(from decoder: any Decoder) throws { self = try ECGWavesFamily.decodeOptions(from: decoder) }

    /// Writes the options as a JSON object keyed by the family's declared option keys.
    public func encode(to encoder: any Encoder) throws { try ECGWavesFamily.encode(self, to: encoder) }
}
