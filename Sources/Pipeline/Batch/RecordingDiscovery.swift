import Foundation
import Recordings

/// Turns a batch's inputs (files, folders, manifests) into the list of recordings to analyse.
public enum RecordingDiscovery {
    /// An error in a manifest.
    public struct ManifestError: Error, CustomStringConvertible, Sendable {
        /// `manifest:line: message`.
        public var description: String
    }

    /// Expands the inputs, in order:
    /// - a folder: every recording file under it (recursively; by ``looksLikeRecording(_:)``),
    ///   sorted by path;
    /// - a manifest (a file named `*.manifest`, `*.list` or `*.txt`): one path per line, blank
    ///   lines and lines starting with `#` ignored, LF, CRLF or CR line ends, a UTF-8 byte-order
    ///   mark and spaces or tabs around a path ignored, relative paths taken from the manifest's
    ///   folder; listed folders are expanded as above;
    /// - anything else: kept as given (a missing file then fails as a recording, with its error).
    /// - Parameter inputs: paths as given on the command line.
    /// - Returns: recording paths (as given, or joined with their folder / manifest folder).
    /// - Throws: ``ManifestError`` when a manifest cannot be read.
    /// - Complexity: O(files under the folders).
    public static func expand(_ inputs: [String]) throws -> [String] {
        var out = [String]()
        let fm = FileManager.default
        for input in inputs {
            var isDir: ObjCBool = false
            let exists = fm.fileExists(atPath: input, isDirectory: &isDir)
            if exists && isDir.boolValue {
                out += scan(folder: input)
            } else if exists && isManifest(input) {
                out += try readManifest(input)
            } else {
                out.append(input)
            }
        }
        return out
    }

    /// Whether a file is read as a manifest (by its name).
    public static func isManifest(_ path: String) -> Bool {
        let n = path.lowercased()
        return n.hasSuffix(".manifest") || n.hasSuffix(".list") || n.hasSuffix(".txt")
    }

    /// File names a folder scan treats as recordings (WFDB records by their `.hea`).
    public static func looksLikeRecording(_ name: String) -> Bool {
        var n = name.lowercased()
        for z in [".gz", ".xz"] where n.hasSuffix(z) { n.removeLast(z.count) }
        return [".ndjson", ".jsonl", ".json", ".csv", ".hea", ".mat", ".gt3x"].contains { n.hasSuffix($0) }
    }

    static func scan(folder: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found = [String]()
        for case let rel as String in e where looksLikeRecording(rel) {
            let name = (rel as NSString).lastPathComponent
            if name.hasPrefix(".") { continue }   // hidden and partial files
            found.append((folder as NSString).appendingPathComponent(rel))
        }
        return found.sorted()
    }

    /// A manifest's lines, split on bytes (LF, CRLF or CR; Swift's `"\r\n"` is one Character, so
    /// splitting a String on `"\n"` would miss it), a leading UTF-8 byte-order mark removed.
    static func manifestLines(_ data: Data) -> [ArraySlice<UInt8>] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var lines = [ArraySlice<UInt8>]()
        var start = 0, i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A || bytes[i] == 0x0D {
                lines.append(bytes[start..<i])
                if bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count { lines.append(bytes[start...]) }
        return lines
    }

    static func readManifest(_ path: String) throws -> [String] {
        // A FIFO named like a manifest must not block the batch.
        if let why = RegularFile.problem(path) { throw ManifestError(description: "\(path): \(why)") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ManifestError(description: "\(path): cannot read the manifest")
        }
        let base = (path as NSString).deletingLastPathComponent
        var out = [String]()
        for (index, raw) in manifestLines(data).enumerated() {
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw ManifestError(description: "\(path):\(index + 1): the line is not UTF-8 text")
            }
            let line = text.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let p = line.hasPrefix("/") || base.isEmpty ? line : (base as NSString).appendingPathComponent(line)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: p, isDirectory: &isDir), isDir.boolValue {
                out += scan(folder: p)
            } else {
                out.append(p)
            }
        }
        return out
    }
}
