/// The groups of the feature catalog; `--features` chooses among them.
public enum FeatureGroup: String, Sendable, Hashable, CaseIterable, Codable {
    /// Distribution statistics of the window's values.
    case statistical
    /// Order-dependent statistics (crossings, differences, autocorrelation, trend, peaks).
    case temporal
    /// Statistics of the window's Welch power spectral density.
    case spectral
    /// The 22 catch22 features (Lubba et al. 2019), opt-in: not in ``defaultGroups``.
    case catch22

    /// The groups of the default catalog: statistical, temporal, spectral.
    public static let defaultGroups: Set<FeatureGroup> = [.statistical, .temporal, .spectral]
}

/// One feature of the catalog: its stable name, unit, definition and source.
///
/// The column written for a stream is `<family>_<channel>_<name>` (``FeatureColumns``), e.g.
/// `acc_mag_spectral_entropy`. Names are part of ``FeatureCatalog/version``: a name is never
/// reused for another definition.
public struct FeatureDefinition: Sendable, Hashable, Codable {
    /// Stable name within a channel (`mean`, `p95`, `bandpower_0p5_3hz`).
    public var name: String
    /// Group it belongs to.
    public var group: FeatureGroup
    /// Unit, with `U` standing for the channel's unit (`U^2/Hz` for `g^2/Hz`); `1` when
    /// dimensionless.
    public var unit: String
    /// What it computes (the exact definition, as `docs/FEATURES.md` lists it).
    public var definition: String
    /// When the value is empty (NULL).
    public var undefinedWhen: String?
    /// Source of the definition.
    public var citation: String

    /// Creates a definition.
    public init(
        name: String, group: FeatureGroup, unit: String, definition: String, undefinedWhen: String? = nil,
        citation: String
    ) {
        self.name = name
        self.group = group
        self.unit = unit
        self.definition = definition
        self.undefinedWhen = undefinedWhen
        self.citation = citation
    }

    /// The unit for a channel measured in `channelUnit` (`U` replaced).
    /// - Complexity: O(unit length).
    public func unit(channelUnit: String) -> String {
        unit.split(separator: "U", omittingEmptySubsequences: false).joined(separator: channelUnit)
    }
}
