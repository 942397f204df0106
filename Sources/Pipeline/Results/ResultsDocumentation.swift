import Signals

/// The column tables of `docs/RESULTS.md`, generated from the declarations (``AnalysisRegistry``
/// and ``BatchTables``), so the documentation cannot drift from the code: a test compares every
/// `<!-- columns: NAME -->` … `<!-- end columns -->` block of the file with ``markdown(_:)``, and
/// `sensorpipe tables --update docs/RESULTS.md` rewrites them.
public enum ResultsDocumentation {
    /// Every documented table: the families' result tables, the summary tables, then the
    /// bookkeeping tables.
    public static var tables: [ResultTable] {
        AnalysisRegistry.resultTables + BatchTables.all.map(\.table)
    }

    /// The Markdown column table of one table.
    /// - Complexity: O(columns).
    public static func markdown(_ table: ResultTable) -> String {
        var out = "| column | type | unit | meaning |\n| --- | --- | --- | --- |\n"
        for c in table.columns {
            let summary = c.summary.replacingOccurrences(of: "|", with: "\\|")
            out += "| `\(c.name)` | \(c.type.rawValue.lowercased()) | \(c.unit ?? "") | \(summary) |\n"
        }
        return out
    }

    /// `text` with every generated block replaced by the current declaration.
    /// - Returns: the new text and the names of tables that have no block in `text`.
    public static func update(_ text: String) -> (text: String, missing: [String]) {
        var out = text
        var missing = [String]()
        for t in tables {
            let open = "<!-- columns: \(t.name) -->\n", close = "<!-- end columns -->"
            guard let a = out.range(of: open), let b = out.range(of: close, range: a.upperBound..<out.endIndex) else {
                missing.append(t.name)
                continue
            }
            out.replaceSubrange(a.upperBound..<b.lowerBound, with: markdown(t))
        }
        return (out, missing)
    }
}
