/// An ordered table of named HRV results, with NeuroKit2's metric names as stable keys (without
/// its `HRV_` prefix): `MeanNN`, `SDNN`, `RMSSD`, `LF`, `HF`, `SD1`, `SampEn`, `DFA_alpha1`, ….
///
/// The order is fixed per analysis (time domain, then frequency domain, then non-linear, each in
/// NeuroKit2's column order), so a results table can use ``names`` as its columns. Undefined
/// values (too short a series, an empty band) are `Double.nan`, as NeuroKit2's `NaN`.
///
/// ```swift
/// let metrics = try HRVTimeDomain(series).metrics
/// for (name, value) in metrics { print(name, value) }   // "MeanNN 812.4", …
/// metrics[.rmssd]                                         // Optional(31.7)
/// ```
public struct HRVMetrics: Sendable, Equatable, Sequence {
    /// Metric names in column order.
    public private(set) var names: [String]
    /// One value per name (units per metric: ms, ms², %, ratios, or dimensionless).
    public private(set) var values: [Double]

    /// An empty table.
    /// - Complexity: O(1).
    public init() {
        names = []
        values = []
    }

    /// Creates a table from name–value pairs, keeping their order.
    /// - Parameter pairs: `(name, value)` pairs with distinct names.
    /// - Complexity: O(n²) for the duplicate check (tables hold a few dozen entries).
    public init(_ pairs: [(String, Double)]) {
        self.init()
        for (name, value) in pairs { append(name, value) }
    }

    /// Appends one metric.
    /// - Parameters:
    ///   - name: the key; must not be in the table yet.
    ///   - value: its value.
    /// - Complexity: O(n) for the duplicate check.
    public mutating func append(_ name: String, _ value: Double) {
        precondition(!names.contains(name), "HRVMetrics: duplicate metric name \(name)")
        names.append(name)
        values.append(value)
    }

    /// Appends every metric of another table, after this table's.
    /// - Parameter other: a table whose names are not in this one.
    /// - Complexity: O(n · m).
    public mutating func append(contentsOf other: HRVMetrics) {
        for (name, value) in other { append(name, value) }
    }

    /// Number of metrics.
    /// - Complexity: O(1).
    public var count: Int { names.count }

    /// Iterates `(name, value)` pairs in column order.
    /// - Complexity: O(1) to create; O(1) per element.
    public func makeIterator() -> Zip2Sequence<[String], [Double]>.Iterator {
        zip(names, values).makeIterator()
    }
}
