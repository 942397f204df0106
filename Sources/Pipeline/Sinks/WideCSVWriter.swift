import Foundation
import Signals

/// Writes one long table as wide CSV files (``WideCSVLayout``) beside the long CSV: one row per
/// key (`stream`, `window_start`, `window_end`), one column per name (`acc_x_mean`, …), a file
/// per name group (`features_acc.csv`, `features_ecg_nn.csv`).
///
/// Streaming, with memory independent of the recording's length: each group holds only the row
/// being filled; finished rows go to a body file. Columns are added as names first appear, so a
/// row written before a later column existed is shorter; ``commit()`` writes the header and pads
/// such rows with empty fields (RFC 4180: every row as wide as the header). Key texts are written
/// without line breaks (a break becomes a space).
final class WideCSVWriter {
    let layout: WideCSVLayout
    let directory: URL
    let keyIndices: [Int]
    let nameIndex: Int
    let valueIndex: Int

    final class Group {
        let name: String
        let handle: FileHandle
        var columns: [String] = []
        var index: [String: Int] = [:]
        var key: [ResultValue]? = nil
        var cells: [ResultValue] = []
        var text = ""
        var lines = 0
        /// (first line, width) each time the width grew.
        var widths: [(line: Int, width: Int)] = []

        init(name: String, handle: FileHandle) {
            self.name = name
            self.handle = handle
        }
    }

    var groups: [String: Group] = [:]
    var order: [String] = []

    /// Creates a writer for `table`, whose ``ResultTable/wideCSV`` names existing columns.
    init(table: ResultTable, layout: WideCSVLayout, directory: URL) {
        self.layout = layout
        self.directory = directory
        let names = table.columns.map(\.name)
        keyIndices = layout.keyColumns.map { k in names.firstIndex(of: k)! }
        nameIndex = names.firstIndex(of: layout.nameColumn)!
        valueIndex = names.firstIndex(of: layout.valueColumn)!
    }

    func bodyURL(_ group: String) -> URL { directory.appendingPathComponent("\(layout.filePrefix)_\(group).csv.body.partial") }
    func partialURL(_ group: String) -> URL { directory.appendingPathComponent("\(layout.filePrefix)_\(group).csv.partial") }
    func finalURL(_ group: String) -> URL { directory.appendingPathComponent("\(layout.filePrefix)_\(group).csv") }

    /// Adds one long row.
    /// - Complexity: amortised O(row) plus O(columns) when a row is finished.
    func add(_ values: [ResultValue]) throws {
        guard case .text(let name) = values[nameIndex] else { return }
        let groupName = layout.group(of: name)
        let g: Group
        if let existing = groups[groupName] {
            g = existing
        } else {
            let url = bodyURL(groupName)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
            g = Group(name: groupName, handle: try FileHandle(forWritingTo: url))
            groups[groupName] = g
            order.append(groupName)
        }
        let key = keyIndices.map { values[$0] }
        if g.key != key {
            try finishRow(g)
            g.key = key
        }
        let c: Int
        if let k = g.index[name] {
            c = k
        } else {
            c = g.columns.count
            g.columns.append(name)
            g.index[name] = c
        }
        while g.cells.count <= c { g.cells.append(.null) }
        g.cells[c] = values[valueIndex]
    }

    /// Writes the group's current row (if any) to its body.
    func finishRow(_ g: Group) throws {
        guard let key = g.key else { return }
        var line = key.map { v -> String in
            if case .text(let s) = v, s.contains(where: { $0 == "\n" || $0 == "\r" }) {
                return CSVResultSink.field(.text(String(s.map { $0 == "\n" || $0 == "\r" ? " " : $0 })))
            }
            return CSVResultSink.field(v)
        }.joined(separator: ",")
        for v in g.cells { line += "," + CSVResultSink.field(v) }
        line += "\n"
        let width = keyIndices.count + g.cells.count
        if g.widths.last?.width != width { g.widths.append((g.lines, width)) }
        g.lines += 1
        g.text += line
        g.key = nil
        for i in g.cells.indices { g.cells[i] = .null }
        if g.text.utf8.count >= 1 << 20 {
            try g.handle.write(contentsOf: Data(g.text.utf8))
            g.text = ""
        }
    }

    /// Finishes every file (header, rows padded to the header's width) under its `.partial` name
    /// and returns the (partial, final) pairs to rename.
    /// - Complexity: O(output size), in 1-MiB pieces.
    func finish() throws -> [(URL, URL)] {
        var out = [(URL, URL)]()
        for name in order {
            guard let g = groups[name] else { continue }
            try finishRow(g)
            if !g.text.isEmpty { try g.handle.write(contentsOf: Data(g.text.utf8)) }
            g.text = ""
            try g.handle.close()
            let total = keyIndices.count + g.columns.count
            let partial = partialURL(name)
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial.path])
            }
            let output = try FileHandle(forWritingTo: partial)
            let header = (layout.keyColumns + g.columns).map { CSVResultSink.field(.text($0)) }.joined(separator: ",")
            var buffer = Data((header + "\n").utf8)
            let input = try FileHandle(forReadingFrom: bodyURL(name))
            var line = 0, nextWidth = 0, pad = Data()
            func padding(for line: Int) -> Data {
                while nextWidth < g.widths.count && g.widths[nextWidth].line <= line {
                    pad = Data(repeating: UInt8(ascii: ","), count: total - g.widths[nextWidth].width)
                    nextWidth += 1
                }
                return pad
            }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                var start = chunk.startIndex
                for i in chunk.indices where chunk[i] == UInt8(ascii: "\n") {
                    buffer.append(chunk[start..<i])
                    buffer.append(padding(for: line))
                    buffer.append(UInt8(ascii: "\n"))
                    line += 1
                    start = i + 1
                }
                buffer.append(chunk[start...]) // a line continued in the next chunk
                if buffer.count >= 1 << 20 {
                    // Keep an unfinished line in the buffer: write up to the last line break.
                    if let last = buffer.lastIndex(of: UInt8(ascii: "\n")) {
                        try output.write(contentsOf: buffer[..<(last + 1)])
                        buffer = Data(buffer[(last + 1)...])
                    }
                }
            }
            try output.write(contentsOf: buffer)
            try input.close()
            try output.synchronize()
            try output.close()
            try? FileManager.default.removeItem(at: bodyURL(name))
            out.append((partial, finalURL(name)))
        }
        groups.removeAll()
        order.removeAll()
        return out
    }

    /// Removes every file it started.
    func discard() {
        for name in order {
            try? groups[name]?.handle.close()
            try? FileManager.default.removeItem(at: bodyURL(name))
            try? FileManager.default.removeItem(at: partialURL(name))
        }
        groups.removeAll()
        order.removeAll()
    }
}
