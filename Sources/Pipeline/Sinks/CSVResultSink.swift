import Foundation
import Signals

/// Writes result tables as CSV files (`<directory>/<table>.csv`, UTF-8, header row), the output of
/// `sensorpipe analyze --out DIR`.
///
/// Nothing half-written is ever visible: rows go to `<table>.csv.partial` files, which
/// ``commit()`` renames into place (each rename is atomic on POSIX file systems); ``rollback()``
/// removes them. Fields are quoted per RFC 4180 when they contain a comma, quote or line break;
/// reals are written with Swift's shortest round-trip representation; `null` is an empty field;
/// text that a spreadsheet would run as a formula is neutralised (``neutralised(_:)``).
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

    /// One CSV field (RFC 4180), text neutralised against formula injection
    /// (``neutralised(_:)``).
    static func field(_ v: ResultValue) -> String {
        switch v {
        case .null: return ""
        case .integer(let i): return String(i)
        case .real(let x): return x.description
        case .text(let raw):
            let s = neutralised(raw)
            guard s != raw || s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }

    /// A text cell as a spreadsheet cannot run it: text starting with `=`, `+`, `-`, `@`, a tab
    /// or a carriage return gets a leading `'`, so spreadsheets show it as text instead of
    /// evaluating it as a formula (OWASP, "CSV Injection"; the field is then always quoted).
    /// Text that is a plain decimal number (`-12`, `+3.5e-2`) is left as it is, and numeric
    /// columns are never touched. `docs/RESULTS.md` ("CSV formula cells") states the rule.
    /// - Complexity: O(1) for text that needs nothing, O(length) for a number check.
    public static func neutralised(_ s: String) -> String {
        guard let first = s.utf8.first, [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains(first) else { return s }
        if (first == 0x2B || first == 0x2D) && isPlainNumber(s.utf8.dropFirst()) { return s }
        return "'" + s
    }

    /// `digits[.digits][e[+-]digits]` or `.digits[…]`.
    static func isPlainNumber(_ bytes: Substring.UTF8View) -> Bool {
        var digits = 0, dot = false, exponent = false, exponentDigits = 0, previous: UInt8 = 0
        for c in bytes {
            switch c {
            case 0x30...0x39:
                if exponent { exponentDigits += 1 } else { digits += 1 }
            case 0x2E where !dot && !exponent: dot = true
            case 0x65, 0x45:
                guard !exponent, digits > 0 else { return false }
                exponent = true
            case 0x2B, 0x2D:
                guard previous == 0x65 || previous == 0x45 else { return false }
            default: return false
            }
            previous = c
        }
        return digits > 0 && (!exponent || exponentDigits > 0)
    }
}
