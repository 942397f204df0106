/// How a long table (one row per key and name, e.g. `features`: stream, window, feature, value)
/// is also written as wide CSV files by the CSV sinks: one row per key, one column per name.
///
/// Files are `<filePrefix>_<group>.csv`, the group being the name's text before its first `_`
/// (`acc` for `acc_x_mean`), joined with the second token when that token is one of
/// ``separateSeries`` (`ecg_nn_mean` → `ecg_nn`), so every file holds one grid of keys. Columns
/// are the key columns, then the names in the order they first appear in the recording. Rows of
/// one key must be emitted together (a key met again after another key starts a new row).
/// SQLite keeps the long table only.
public struct WideCSVLayout: Sendable, Hashable, Codable {
    /// Start of every file name (`features`).
    public var filePrefix: String
    /// Columns that identify a wide row (`stream`, `window_start`, `window_end`).
    public var keyColumns: [String]
    /// Column whose values become the wide columns (`feature`).
    public var nameColumn: String
    /// Column holding the values (`value`).
    public var valueColumn: String
    /// Second name tokens that get files of their own (derived series: `nn`, `hr`, `enmo`).
    public var separateSeries: [String]

    /// Creates a layout.
    public init(filePrefix: String, keyColumns: [String], nameColumn: String, valueColumn: String, separateSeries: [String] = []) {
        self.filePrefix = filePrefix
        self.keyColumns = keyColumns
        self.nameColumn = nameColumn
        self.valueColumn = valueColumn
        self.separateSeries = separateSeries
    }

    /// The file group of a name (`acc`, `ecg_nn`).
    /// - Complexity: O(name length).
    public func group(of name: String) -> String {
        let parts = name.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard let first = parts.first else { return name }
        if parts.count > 2, separateSeries.contains(String(parts[1])) { return "\(first)_\(parts[1])" }
        return String(first)
    }
}
