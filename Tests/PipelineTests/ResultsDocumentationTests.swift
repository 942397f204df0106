import Foundation
import Pipeline
import Testing
import _TestSupport

@Suite("docs/RESULTS.md documents every result column")
struct ResultsDocumentationTests {
    @Test(
        "each table's generated column block equals its declaration (regenerate: sensorpipe tables --update docs/RESULTS.md)",
        arguments: ResultsDocumentation.tables)
    func documented(table: ResultTable) throws {
        let text = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/RESULTS.md"),
            encoding: .utf8)
        let open = "<!-- columns: \(table.name) -->\n"
        let block = try #require(
            text.range(of: open).flatMap { a in
                text.range(of: "<!-- end columns -->", range: a.upperBound..<text.endIndex).map {
                    String(text[a.upperBound..<$0.lowerBound])
                }
            }, "docs/RESULTS.md has no block for \(table.name)")
        #expect(block == ResultsDocumentation.markdown(table), "docs/RESULTS.md is out of date for \(table.name)")
    }

    @Test("no two families declare a table of the same name with different columns")
    func tableNamesUnique() {
        var seen = [String: ResultTable]()
        for family in AnalysisRegistry.families {
            for t in family.tables {
                if let s = seen[t.name] { #expect(s == t, "\(t.name) declared with different columns") }
                seen[t.name] = t
            }
        }
        #expect(Set(ResultsDocumentation.tables.map(\.name)).count == ResultsDocumentation.tables.count)
    }
}
