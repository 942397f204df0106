import Foundation
import Pipeline
import Testing

/// Wide CSV files of a long table (``WideCSVLayout``): one row per key, one column per name, a
/// file per name group, rows padded to the header's width, nothing visible before commit.
@Suite("CSVResultSink: wide CSV of a long table")
struct WideCSVTests {
    let table: ResultTable = {
        var t = ResultTable(
            name: "long", summary: "test",
            columns: [
                ResultColumn("stream", .text, "stream"), ResultColumn("window_start", .real, "start"),
                ResultColumn("window_end", .real, "end"), ResultColumn("feature", .text, "name"),
                ResultColumn("value", .real, "value"), ResultColumn("unit", .text, "unit"),
            ])
        t.wideCSV = WideCSVLayout(
            filePrefix: "features", keyColumns: ["stream", "window_start", "window_end"], nameColumn: "feature",
            valueColumn: "value", separateSeries: ["nn"])
        return t
    }()

    func row(_ stream: String, _ start: Double, _ name: String, _ v: Double) -> [ResultValue] {
        [.text(stream), .real(start), .real(start + 10), .text(name), .finite(v), .text("g")]
    }

    @Test("groups, columns in first-appearance order, padding, quoting, NULL as an empty field")
    func layout() throws {
        let open = try OpenCSVSink()
        defer { withExtendedLifetime(open) {} }
        let (dir, sink) = (open.directory, open.sink)
        try sink.write(
            table,
            rows: [
                row("d/acc", 0, "acc_x_mean", 1), row("d/acc", 0, "acc_x_std", .nan),
                row("a,b", 0, "ecg_value_mean", 5), row("d/acc", 10, "acc_x_mean", 2), row("d/acc", 10, "acc_x_std", 0.5),
                row("d/acc", 10, "acc_mag_p95", 3), row("d/ecg", 0, "ecg_nn_mean", 800), row("d/ecg", 0, "ecg_nn_std", 40),
            ])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("features_acc.csv").path))
        try sink.commit()
        func text(_ name: String) throws -> String { try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8) }
        #expect(
            try text("features_acc.csv")
                == "stream,window_start,window_end,acc_x_mean,acc_x_std,acc_mag_p95\nd/acc,0.0,10.0,1.0,,\nd/acc,10.0,20.0,2.0,0.5,3.0\n")
        #expect(try text("features_ecg.csv") == "stream,window_start,window_end,ecg_value_mean\n\"a,b\",0.0,10.0,5.0\n")
        #expect(try text("features_ecg_nn.csv") == "stream,window_start,window_end,ecg_nn_mean,ecg_nn_std\nd/ecg,0.0,10.0,800.0,40.0\n")
        #expect(try text("long.csv").split(separator: "\n").count == 9, "the long table is unchanged")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix("partial") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("many rows (several 1-MiB pieces): every row as wide as the header; rollback leaves nothing")
    func largeAndRollback() throws {
        let open = try OpenCSVSink()
        defer { withExtendedLifetime(open) {} }
        let (dir, sink) = (open.directory, open.sink)
        let windows = 30_000
        for w in 0..<windows {
            var rows = (0..<4).map { row("dev/acc", Double(w) * 10, "acc_x_f\($0)", Double(w) + Double($0) / 8) }
            if w == windows / 2 { rows.append(row("dev/acc", Double(w) * 10, "acc_x_late", 7)) }
            try sink.write(table, rows: rows)
        }
        try sink.commit()
        let text = try String(contentsOf: dir.appendingPathComponent("features_acc.csv"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == windows + 2 && lines.last == "")
        #expect(lines[0] == "stream,window_start,window_end,acc_x_f0,acc_x_f1,acc_x_f2,acc_x_f3,acc_x_late")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 8 })
        #expect(lines[1] == "dev/acc,0.0,10.0,0.0,0.125,0.25,0.375,")
        #expect(lines[windows / 2 + 1].hasSuffix(",7.0"))
        #expect(lines[windows] == "dev/acc,299990.0,300000.0,29999.0,29999.125,29999.25,29999.375,")

        try sink.begin(recording: "s")
        try sink.write(table, rows: [row("x", 0, "gyro_x_mean", 1)])
        sink.rollback()
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("features_gyro.csv").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.contains("partial") })
    }
}
