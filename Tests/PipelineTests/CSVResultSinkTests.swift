import Foundation
import Pipeline
import Testing

@Suite("CSVResultSink: atomic CSV tables")
struct CSVResultSinkTests {
    let table = ResultTable(
        name: "demo", summary: "test",
        columns: [
            ResultColumn("stream", .text, "stream"), ResultColumn("time", .real, unit: "s", "time"),
            ResultColumn("n", .integer, "count"),
        ])

    @Test("rows appear only after commit; quoting follows RFC 4180; NaN is an empty field")
    func commitAndQuoting() throws {
        let open = try OpenCSVSink()
        defer { withExtendedLifetime(open) {} }
        let (dir, sink) = (open.directory, open.sink)
        try sink.write(
            table,
            rows: [
                [.text("a,b"), .real(1.5), .integer(3)],
                [.text("say \"hi\""), .finite(.nan), .null],
            ])
        let final = dir.appendingPathComponent("demo.csv")
        #expect(!FileManager.default.fileExists(atPath: final.path))
        try sink.commit()
        let text = try String(contentsOf: final, encoding: .utf8)
        #expect(text == "stream,time,n\n\"a,b\",1.5,3\n\"say \"\"hi\"\"\",,\n")
    }

    @Test("rollback leaves nothing behind")
    func rollback() throws {
        let open = try OpenCSVSink()
        defer { withExtendedLifetime(open) {} }
        let (dir, sink) = (open.directory, open.sink)
        try sink.write(table, rows: [[.text("x"), .real(1), .integer(1)]])
        sink.rollback()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
