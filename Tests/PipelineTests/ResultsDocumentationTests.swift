import Foundation
import Pipeline
import Testing
import _TestSupport

@Suite("docs/RESULTS.md documents every result column")
struct ResultsDocumentationTests {
    @Test("each table and each of its columns appears in docs/RESULTS.md",
          arguments: [ResultTables.beats, ResultTables.heartRate, ResultTables.hrv, ResultTables.quality])
    func documented(table: ResultTable) throws {
        let text = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/RESULTS.md"),
                              encoding: .utf8)
        #expect(text.contains("## `\(table.name)`"))
        let missing = table.columns.map(\.name).filter { !text.contains("`\($0)`") }
        #expect(missing.isEmpty, "undocumented columns of \(table.name): \(missing)")
    }
}
