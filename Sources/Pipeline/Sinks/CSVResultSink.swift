import Foundation
import Signals

/// Writes result tables as CSV files (`<directory>/<table>.csv`, UTF-8, header row), the output of
/// `sensorpipe analyze --out DIR`.
///
/// Nothing half-written is ever visible: rows go to `<table>.csv.partial` files, which
/// ``commit()`` renames into place (each rename is atomic on POSIX file systems); ``rollback()``
/// removes them. Fields are quoted per RFC 4180 when they contain a comma, quote or line break;
/// reals are written with Swift's shortest round-trip representation; `null` is an empty field.
/// A table that declares a ``WideCSVLayout`` (`features`) is also written as wide files
/// (`features_acc.csv`, …: one row per window, one column per feature; ``WideCSVWriter``).
public final class CSVResultSink: ResultSink {
    /// Output directory.
    public let directory: URL
    private var open: [String: FileHandle] = [:]
    private var pending: [String: String] = [:]
    private var order: [String] = []
    private var wide: [String: WideCSVWriter] = [:]

    /// Creates the sink, creating `directory` if needed.
    /// - Throws: a file-system error naming the directory.
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public func begin(recording: String) throws {
        rollback()
    }

    public func declare(_ table: ResultTable) throws {
        if open[table.name] == nil { try start(table) }
    }

    public func write(_ table: ResultTable, values: [ResultValue]) throws {
        precondition(
            values.count == table.columns.count,
            "row of \(values.count) values for table \(table.name) of \(table.columns.count) columns")
        if open[table.name] == nil { try start(table) }
        var line = ""
        for (k, v) in values.enumerated() {
            if k > 0 { line += "," }
            line += Self.field(v)
        }
        line += "\n"
        pending[table.name, default: ""].append(line)
        if let layout = table.wideCSV {
            let w = wide[table.name] ?? WideCSVWriter(table: table, layout: layout, directory: directory)
            wide[table.name] = w
            try w.add(values)
        }
        if pending[table.name]!.utf8.count >= 1 << 20 {
            try open[table.name]!.write(contentsOf: Data(pending[table.name]!.utf8))
            pending[table.name] = ""
        }
    }

    private func start(_ table: ResultTable) throws {
        let url = partialURL(table.name)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        open[table.name] = handle
        order.append(table.name)
        try handle.write(contentsOf: Data((table.columns.map(\.name).joined(separator: ",") + "\n").utf8))
    }

    public func commit() throws {
        for name in order {
            if let text = pending[name], !text.isEmpty { try open[name]?.write(contentsOf: Data(text.utf8)) }
            try open[name]?.synchronize()
            try open[name]?.close()
            let final = directory.appendingPathComponent("\(name).csv")
            if rename(partialURL(name).path, final.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: final.path])
            }
        }
        for name in wide.keys.sorted() {
            for (partial, final) in try wide[name]!.finish() where rename(partial.path, final.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: final.path])
            }
        }
        open.removeAll()
        pending.removeAll()
        order.removeAll()
        wide.removeAll()
    }

    public func rollback() {
        for w in wide.values { w.discard() }
        wide.removeAll()
        for name in order {
            try? open[name]?.close()
            try? FileManager.default.removeItem(at: partialURL(name))
        }
        open.removeAll()
        pending.removeAll()
        order.removeAll()
    }

    private func partialURL(_ name: String) -> URL {
        directory.appendingPathComponent("\(name).csv.partial")
    }

    /// One CSV field (RFC 4180).
    static func field(_ v: ResultValue) -> String {
        switch v {
        case .null: return ""
        case .integer(let i): return String(i)
        case .real(let x): return x.description
        case .text(let s):
            guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }
}
