import Foundation
import Pipeline
import Recordings

/// What the report reads back from a recording's files: per stream, which pixel columns of the
/// timeline hold usable or masked samples; the deletion records; and the samples of the ECG strip
/// windows. Read only when the files are where `recording_files` says and their content hash is
/// the one in `recordings` (otherwise ``status`` says why nothing was read).
struct SignalReadback {
    /// Whether the files could be read back.
    enum Status: Sendable {
        /// Read; the content hash matches.
        case read
        /// A file is no longer where the results say.
        case missing([String])
        /// The files are there but their content changed since the analysis.
        case changed(stored: String, now: String)
        /// The files are there but their size changed since the analysis (found without hashing).
        case resized(stored: Int, now: Int)
        /// The decoder failed on them.
        case unreadable(String)
        /// The database has no content hash (a failed recording) or no file list.
        case unknown
    }

    /// Per pixel column of one stream's timeline lane: usable and masked samples.
    struct Lane: Sendable {
        var used: [UInt32]
        var masked: [UInt32]
    }

    /// Samples of one strip window.
    struct Strip: Sendable {
        var stream: String
        var start: Double
        var end: Double
        /// What the strip shows (`first minute`, `worst-quality window`, …).
        var kind = ""
        /// What the signal is (`ECG`, `PPG`).
        var signal = ""
        /// Events to mark on it.
        var markers: ReportEventMarkers? = nil
        var times: [Double] = []
        var values: [Float] = []
        var unit = ""
    }

    var status: Status = .unknown
    var lanes: [String: Lane] = [:]
    var deletions: [DeletionRecord] = []
    var strips: [Strip] = []

    /// Reads the files back.
    /// - Parameters:
    ///   - files: the recording's files (`recording_files`), in order.
    ///   - contentHash: `recordings.content_hash`.
    ///   - size: `recordings.size` (bytes of all the files): compared first, so a file whose
    ///     size changed is called changed without being hashed.
    ///   - t0: start of the timeline (stream time scale, s).
    ///   - t1: its end.
    ///   - columns: pixel columns of the timeline.
    ///   - strips: the strip windows to collect (stream key, start, end).
    ///   - options: the decode options of the run that analysed the files (`runs.config_json`:
    ///     its preset and integrity check), so what is read back is what was analysed.
    /// - Complexity: one decoding pass over the files; memory O(streams · columns + strip samples).
    static func read(
        files: [String], contentHash: String?, size: Int? = nil, t0: Double, t1: Double, columns: Int,
        strips requested: [Strip], options: DecodeOptions = DecodeOptions()
    ) -> SignalReadback {
        var out = SignalReadback()
        guard let contentHash, !files.isEmpty else { return out }
        var members = [String]()
        for f in files { members += (try? RecordingOpener.files(path: f, options: options)) ?? [f] }
        let missing = members.filter { !FileManager.default.fileExists(atPath: $0) }
        guard missing.isEmpty else {
            out.status = .missing(missing)
            return out
        }
        if let size, size > 0 {
            let now = members.reduce(0) { $0 + (FilePathBytes.status($1).map { Int($0.st_size) } ?? 0) }
            guard now == size else {
                out.status = .resized(stored: size, now: now)
                return out
            }
        }
        guard let now = try? ContentHash.files(members) else {
            out.status = .unreadable("cannot read \(members.joined(separator: ", "))")
            return out
        }
        guard now == contentHash else {
            out.status = .changed(stored: contentHash, now: now)
            return out
        }
        out.strips = requested
        var stripsByStream = [String: [Int]]()
        for (k, s) in requested.enumerated() { stripsByStream[s.stream, default: []].append(k) }
        let scale = Double(columns) / max(t1 - t0, 1e-9)
        do {
            for file in files {
                let decoder = try RecordingOpener.open(path: file, options: options).decoder
                var keys = [Int: String]()
                var units = [Int: String]()
                while let event = try decoder.next() {
                    switch event {
                    case .stream(let index, let info):
                        keys[index] = info.key.description
                        units[index] = info.columns.first?.unit.rawValue ?? ""
                    case .deletion(let d):
                        out.deletions.append(d)
                    case .annotation:
                        continue
                    case .block(let b):
                        guard let key = keys[b.stream], b.count > 0 else { continue }
                        var lane =
                            out.lanes[key] ?? Lane(used: .init(repeating: 0, count: columns), masked: .init(repeating: 0, count: columns))
                        out.lanes[key] = nil
                        let maskBits = SampleFlags.maskingFlags.rawValue
                        b.flags.withUnsafeBufferPointer { flags in
                            lane.used.withUnsafeMutableBufferPointer { used in
                                lane.masked.withUnsafeMutableBufferPointer { masked in
                                    for i in 0..<flags.count {
                                        let c = Int(((b.time(at: i) - t0) * scale).rounded(.down))
                                        guard c >= 0 && c < columns else { continue }
                                        if flags[i] & maskBits != 0 { masked[c] &+= 1 } else { used[c] &+= 1 }
                                    }
                                }
                            }
                        }
                        out.lanes[key] = lane
                        guard let wanted = stripsByStream[key], let values = b.columns.first else { continue }
                        let first = b.time(at: 0), last = b.time(at: b.count - 1)
                        for k in wanted where out.strips[k].start <= last && out.strips[k].end >= first {
                            out.strips[k].unit = units[b.stream] ?? ""
                            for i in 0..<b.count {
                                let t = b.time(at: i)
                                guard t >= out.strips[k].start && t <= out.strips[k].end else { continue }
                                out.strips[k].times.append(t)
                                out.strips[k].values.append(b.flags[i] & maskBits != 0 ? .nan : values[i])
                            }
                        }
                    default:
                        continue
                    }
                }
            }
        } catch {
            out.status = .unreadable("\(error)")
            out.lanes = [:]
            return out
        }
        out.status = .read
        return out
    }

    /// The decode options a run stored in `runs.config_json` (`decode.preset`,
    /// `decode.verify_integrity`); defaults for what it does not say.
    /// - Parameter json: the run's canonical configuration JSON.
    static func decodeOptions(configJSON json: String?) -> DecodeOptions {
        var options = DecodeOptions()
        guard let json, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let decode = object["decode"] as? [String: Any]
        else { return options }
        if let preset = decode["preset"] as? String { options.preset = RecordingPreset(rawValue: preset) }
        if let verify = decode["verify_integrity"] as? Bool { options.verifiesIntegrity = verify }
        return options
    }

    /// Why the files were not read back, for people.
    static func message(_ status: Status) -> String {
        switch status {
        case .read: return "read"
        case .missing(let files): return "the recording file has moved or been deleted (not found: \(files.joined(separator: ", ")))"
        case .changed(let stored, let now):
            return
                "the recording file has changed since it was analysed (content hash \(stored) in the results, \(now) now); drawing it would not show what was analysed"
        case .resized(let stored, let now):
            return
                "the recording file has changed since it was analysed (\(stored) bytes in the results, \(now) now); drawing it would not show what was analysed"
        case .unreadable(let why): return "the recording file could not be read back (\(why))"
        case .unknown: return "the results do not say which file or content this recording had"
        }
    }
}
