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

    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)")
    }

    @Test("rows appear only after commit; quoting follows RFC 4180; NaN is an empty field")
    func commitAndQuoting() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = try CSVResultSink(directory: dir)
        try sink.begin(recording: "r")
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
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = try CSVResultSink(directory: dir)
        try sink.begin(recording: "r")
        try sink.write(table, rows: [[.text("x"), .real(1), .integer(1)]])
        sink.rollback()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
