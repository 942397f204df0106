import Foundation
import Recordings
import Signals

/// Turns a batch's inputs (files, folders, manifests) into the list of recordings to analyse.
///
/// **Recordings that span files.** SensorKit exports one fetch per sensor, so one device's
/// recording is often several files. Two rules group files into one recording (``recordings(_:)``):
/// 1. A **group manifest** `NAME.group` (text: one member file per line, relative to its folder,
///    `#` comments) is one recording whose identity is the manifest's path.
/// 2. The **folder rule**: in one folder, SensorKit files (`.ndjson`, `.jsonl`, `.json`, optionally
///    `.gz`/`.xz`) whose names differ only by a sensor token — `accelerometer`, `rotationRate`,
///    `electrocardiogram`/`ecg`, `photoplethysmogram`/`ppg`, matched case-insensitively as a whole
///    word between `_`, `-`, `.` or the name's ends (the rules of ``RecordingFileNames``) — are one recording, identified by the first
///    of them in sorted order (e.g. `p01_accelerometer.ndjson.gz` + `p01_rotationRate.ndjson.gz`,
///    or `accelerometer.ndjson.gz` + `rotationRate.ndjson.gz`). Files listed in a `.group` are not
///    grouped again. Everything else is a recording of its own.
public enum RecordingDiscovery {
    /// An error in a manifest.
    public struct ManifestError: Error, CustomStringConvertible, Sendable {
        /// What kind of problem it is; new codes may be added.
        public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public var description: String { rawValue }
            /// The group lists no files.
            public static let empty = Code(rawValue: "empty")
            /// The manifest is not a regular file or cannot be read.
            public static let unreadable = Code(rawValue: "unreadable")
        }

        /// What kind of problem.
        public var code: Code
        /// `manifest:line: message`.
        public var description: String

        /// Creates an error.
        /// - Parameters:
        ///   - code: the kind of problem.
        ///   - description: `manifest:line: message`.
        public init(_ code: Code, description: String) {
            self.code = code
            self.description = description
        }
    }

    /// Which discovered files a batch keeps: `--include GLOB` / `--exclude GLOB`.
    ///
    /// A pattern without `/` is matched against a file's name (`*_BPMtrace.mat`); a pattern
    /// with `/` against its whole path as discovered (`*/raw/*`; `*` then also matches `/`).
    /// Patterns are `fnmatch(3)` globs (`*`, `?`, `[...]`), case-sensitive. A file is kept when
    /// it matches at least one include pattern (or none are given) and no exclude pattern.
    /// The filter applies to every file the inputs expand to (folders, manifests and files
    /// named directly); the members a `.group` manifest lists are the group's and not filtered.
    public struct Filter: Sendable, Hashable {
        /// Keep only files matching one of these (all files when empty).
        public var include: [String]
        /// Drop files matching any of these.
        public var exclude: [String]

        /// A filter; the default keeps everything.
        public init(include: [String] = [], exclude: [String] = []) {
            self.include = include
            self.exclude = exclude
        }

        /// Whether `path` is kept.
        public func keeps(_ path: String) -> Bool {
            let name = (path as NSString).lastPathComponent
            let matches = { (pattern: String) -> Bool in
                fnmatch(pattern, pattern.contains("/") ? path : name, 0) == 0
            }
            if !include.isEmpty && !include.contains(where: matches) { return false }
            return !exclude.contains(where: matches)
        }
    }

    /// Expands the inputs, in order:
    /// - a folder: every recording file under it (recursively; by ``looksLikeRecording(_:)``),
    ///   sorted by path; symbolic links to folders and files are followed, each folder is
    ///   walked once (a link back to an enclosing folder is not followed again), hidden names
    ///   (starting with `.`) are skipped, and so are a recording's companion files beside it
    ///   (``RecordingFileNames/isCompanion(_:siblings:)``);
    /// - a manifest (a file named `*.manifest`, `*.list` or `*.txt`): one path per line, blank
    ///   lines and lines starting with `#` ignored, relative paths taken from the manifest's
    ///   folder; listed folders are expanded as above;
    /// - anything else: kept as given (a missing file then fails as a recording, with its error).
    ///
    /// A file reached more than once (named directly, through its folder, in a manifest, through a
    /// link) is kept once, at its first appearance (``unique(_:)``).
    /// - Parameters:
    ///   - inputs: paths as given on the command line.
    ///   - filter: which files to keep (``Filter``); everything by default.
    /// - Returns: recording paths (as given, or joined with their folder / manifest folder).
    /// - Throws: ``ManifestError`` when a manifest cannot be read.
    /// - Complexity: O(files under the folders).
    public static func expand(_ inputs: [String], filter: Filter = Filter()) throws -> [String] {
        var out = [String]()
        for input in inputs {
            let st = FilePathBytes.status(input)
            if let st, st.st_mode & S_IFMT == S_IFDIR {
                out += scan(folder: input)
            } else if st != nil && isManifest(input) {
                out += try readManifest(input)
            } else {
                out.append(input)
            }
        }
        return unique(out.filter(filter.keeps))
    }

    /// `paths` with every file after its first appearance removed, regular files compared by
    /// identity (device and inode: symbolic links, hard links, `.`/`..` all resolve to it),
    /// anything else by its real path (`realpath(3)`), so one file named directly, through its
    /// folder and in a manifest is one recording; a path that does not resolve (a missing file)
    /// is compared as given. Order of first appearance is kept.
    /// - Complexity: O(paths) `realpath` calls.
    public static func unique(_ paths: [String]) -> [String] {
        var seen = Set<String>()
        seen.reserveCapacity(paths.count)
        return paths.filter { p in
            // The same file under two real paths (a hard link) has one device and inode.
            if let st = FilePathBytes.status(p), st.st_mode & S_IFMT == S_IFREG {
                return seen.insert("\u{1}\(st.st_dev):\(st.st_ino)").inserted
            }
            let key = p.withCString { c -> String in
                guard let r = realpath(c, nil) else { return "\u{0}" + p }
                defer { free(r) }
                return String(cString: r)
            }
            return seen.insert(key).inserted
        }
    }

    /// Expands the inputs (as ``expand(_:)``) and groups files into recordings by the two rules
    /// above, keeping the order of first appearance.
    /// - Parameters:
    ///   - inputs: paths as given on the command line.
    ///   - filter: which files to keep (``Filter``); everything by default.
    /// - Returns: the recordings.
    /// - Throws: ``ManifestError`` when a manifest or group manifest cannot be read.
    /// - Complexity: O(files · log files).
    public static func recordings(_ inputs: [String], filter: Filter = Filter()) throws -> [RecordingInput] {
        let files = try expand(inputs, filter: filter)
        var out = [RecordingInput]()
        var grouped = Set<String>()
        // Group manifests first: their members are taken.
        var groups = [String: RecordingInput]()
        for f in files where f.lowercased().hasSuffix(".group") {
            let g = try readGroup(f)
            groups[f] = g
            grouped.formUnion(g.files)
        }
        // Folder rule: key = folder + name without its sensor token.
        var byKey = [String: [String]]()
        for f in files where !grouped.contains(f) && groups[f] == nil {
            if let key = groupKey(f) { byKey[key, default: []].append(f) }
        }
        var memberOf = [String: String]()
        for (key, members) in byKey where members.count > 1 {
            for m in members { memberOf[m] = key }
        }
        var emitted = Set<String>()
        for f in files {
            if let g = groups[f] {
                out.append(g)
            } else if grouped.contains(f) {
                continue
            } else if let key = memberOf[f] {
                guard !emitted.contains(key) else { continue }
                emitted.insert(key)
                let members = byKey[key]!.sorted()
                out.append(RecordingInput(path: members[0], files: members))
            } else {
                out.append(RecordingInput(path: f))
            }
        }
        return out
    }

    /// The folder-rule key of a SensorKit file name (folder + name with its one sensor token
    /// replaced by `*`, ``RecordingFileNames/sensorKitPattern(_:)``), or `nil` when it has no
    /// sensor token or is not a SensorKit file name.
    public static func groupKey(_ path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        guard let pattern = RecordingFileNames.sensorKitPattern((path as NSString).lastPathComponent) else { return nil }
        return folder + "/" + pattern
    }

    /// Reads a group manifest.
    static func readGroup(_ path: String) throws -> RecordingInput {
        let members = try readLines(path).map { resolve($0, relativeTo: path) }
        guard !members.isEmpty else { throw ManifestError(.empty, description: "\(path): the group lists no files") }
        return RecordingInput(path: path, files: members)
    }

    /// Whether a file is read as a manifest (by its name).
    public static func isManifest(_ path: String) -> Bool {
        let n = path.lowercased()
        return n.hasSuffix(".manifest") || n.hasSuffix(".list") || n.hasSuffix(".txt")
    }

    /// Extensions a folder scan takes (each optionally followed by `.gz`/`.xz`): the recording
    /// extensions of ``RecordingFileNames`` and the group manifest's `.group`.
    public static let fileExtensions = RecordingFileNames.recordingExtensions + [".group"]

    /// File names a folder scan treats as recordings (WFDB records by their `.hea`; group
    /// manifests): ``fileExtensions``, case-insensitive.
    public static func looksLikeRecording(_ name: String) -> Bool {
        RecordingFileNames.hasRecordingExtension(name) || RecordingFileNames.hasExtension(name, [".group"])
    }

    /// Recording files under `folder`, following symbolic links, each folder (by device and
    /// inode) walked once, sorted by path.
    static func scan(folder: String) -> [String] {
        var found = [String]()
        var visited = Set<FolderIdentity>()
        walk(folder, visited: &visited, into: &found)
        return found.sorted()
    }

    /// A folder's identity: following a link to a folder already walked would loop.
    struct FolderIdentity: Hashable {
        let device: UInt64, inode: UInt64
    }

    static func walk(_ folder: String, visited: inout Set<FolderIdentity>, into found: inout [String]) {
        guard let st = FilePathBytes.status(folder),
            visited.insert(FolderIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))).inserted
        else { return }
        // Names as bytes (FilePathBytes): a name that is not UTF-8 is still found and opened.
        guard let names = FilePathBytes.directoryEntries(folder) else { return }
        for name in names where !name.hasPrefix(".") { // hidden and partial files
            let path = (folder as NSString).appendingPathComponent(name)
            // stat follows links; a broken link is kept when named like a recording (it then
            // fails as a recording, with its error, rather than vanishing).
            if let entry = FilePathBytes.status(path), entry.st_mode & S_IFMT == S_IFDIR {
                walk(path, visited: &visited, into: &found)
            } else if looksLikeRecording(name) && !RecordingFileNames.isCompanion(name, siblings: names) {
                found.append(path)
            }
        }
    }

    static func readManifest(_ path: String) throws -> [String] {
        var out = [String]()
        for line in try readLines(path) {
            let p = resolve(line, relativeTo: path)
            if let st = FilePathBytes.status(p), st.st_mode & S_IFMT == S_IFDIR {
                out += scan(folder: p)
            } else {
                out.append(p)
            }
        }
        return out
    }

    /// The non-blank, non-comment lines of a manifest, trimmed; bytes that are not UTF-8 are kept
    /// (``FilePathBytes``), since file names may hold them.
    /// LF, CRLF or CR line ends and a UTF-8 byte-order mark are accepted; spaces and tabs around a
    /// line are dropped; a FIFO or other non-regular file is refused without opening it.
    static func readLines(_ path: String) throws -> [String] {
        // A FIFO named like a manifest must not block the batch.
        if let why = RegularFile.problem(path) { throw ManifestError(.unreadable, description: "\(path): \(why)") }
        guard let data = try? readAll(path) else { throw ManifestError(.unreadable, description: "\(path): cannot read the manifest") }
        var out = [String]()
        for raw in manifestLines(data) {
            // A path is bytes: one that is not UTF-8 is kept as FilePathBytes decodes it.
            let line = FilePathBytes.decode(raw).trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            out.append(line)
        }
        return out
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

    /// A manifest line as a path: absolute as given, else relative to the manifest's folder.
    static func resolve(_ line: String, relativeTo manifest: String) -> String {
        let base = (manifest as NSString).deletingLastPathComponent
        return line.hasPrefix("/") || base.isEmpty ? line : (base as NSString).appendingPathComponent(line)
    }

    /// A regular file's bytes (the path as ``FilePathBytes`` decodes it).
    static func readAll(_ path: String) throws -> Data {
        let (fd, size) = try RegularFile.open(path)
        defer { close(fd) }
        var data = Data(capacity: min(size, 1 << 24))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw RecordingError(.unreadable, file: path, String(cString: strerror(errno))) }
            if n == 0 { return data }
            data.append(contentsOf: chunk[0..<n])
        }
    }
}
