import CZlib
import Foundation
import Recordings
import Testing
import _TestSupport

/// Everything a decoder delivered, with each stream's blocks concatenated, and the structural
/// checks every decoder must pass (announcements before blocks, block sizes, segment
/// continuity, the QC account).
struct CollectedDecode {
    struct Stream {
        var info: StreamInfo
        var columns: [[Float]]
        var times: [Double] = []
        var flags: [UInt8] = []
        var segments: [Int] = []
        var segmentEnds = 0
    }

    var devices: [DeviceInfo] = []
    var streams: [Stream] = []
    var issues: [RecordingError] = []
    var annotations: [RecordingAnnotation] = []
    var accounts: [StreamQC] = []
    var problems: [String] = []

    /// Pulls every event from `decoder`, checking structure against `blockCapacity`.
    static func decode(_ decoder: some RecordingDecoder, blockCapacity: Int = 65_536) throws -> CollectedDecode {
        var c = CollectedDecode()
        var nextFirst = [Int: Int]() // stream → expected firstSample of its next block
        var lastSegment = [Int: Int]()
        while let event = try decoder.next() {
            switch event {
            case .device(let d): c.devices.append(d)
            case .stream(_, let s): c.streams.append(Stream(info: s, columns: Array(repeating: [], count: s.columns.count)))
            case .issue(let e): c.issues.append(e)
            case .deletion: c.problems.append("unexpected deletion record")
            case .annotation(let a): c.annotations.append(a)
            case .block(let b):
                guard b.stream < c.streams.count else { c.problems.append("block before its stream"); continue }
                if c.devices.isEmpty { c.problems.append("block before any device") }
                if b.count == 0 || b.count > blockCapacity { c.problems.append("block of \(b.count) samples") }
                if b.columns.count != c.streams[b.stream].info.columns.count { c.problems.append("column count") }
                let seg = lastSegment[b.stream] ?? -1
                if b.segment != seg {
                    if b.segment != seg + 1 { c.problems.append("segment \(b.segment) after \(seg)") }
                    if b.firstSample != 0 { c.problems.append("segment starts at \(b.firstSample)") }
                } else if b.firstSample != nextFirst[b.stream] {
                    c.problems.append("block starts at \(b.firstSample), expected \(nextFirst[b.stream] ?? -1)")
                }
                lastSegment[b.stream] = b.segment
                nextFirst[b.stream] = b.firstSample + b.count
                for k in b.columns.indices { c.streams[b.stream].columns[k] += b.columns[k] }
                c.streams[b.stream].times += (0..<b.count).map { b.time(at: $0) }
                c.streams[b.stream].flags += b.flags
                c.streams[b.stream].segments += Array(repeating: b.segment, count: b.count)
                if b.endsSegment { c.streams[b.stream].segmentEnds += 1 }
            }
        }
        c.accounts = decoder.accounts
        for (s, qc) in c.accounts.enumerated() where s < c.streams.count {
            if !qc.isBalanced { c.problems.append("stream \(s): QC not balanced \(qc)") }
            if qc.samplesEmitted != c.streams[s].flags.count { c.problems.append("stream \(s): emitted count") }
            if qc.segments != c.streams[s].segmentEnds { c.problems.append("stream \(s): endsSegment count") }
            let masked = c.streams[s].flags.filter { SampleFlags(rawValue: $0).isMasked }.count
            if qc.masked != masked { c.problems.append("stream \(s): masked count") }
        }
        return c
    }

    /// Number of samples where `a` and `b` differ bitwise (values, times, flags, segments), or
    /// -1 if their shapes differ.
    static func differences(_ a: CollectedDecode, _ b: CollectedDecode) -> Int {
        guard a.streams.count == b.streams.count, a.issues.map(\.description) == b.issues.map(\.description),
            a.accounts == b.accounts
        else { return -1 }
        var n = 0
        for (x, y) in zip(a.streams, b.streams) {
            guard x.info == y.info, x.times.count == y.times.count, x.columns.count == y.columns.count else { return -1 }
            for i in x.times.indices {
                var same =
                    x.times[i].bitPattern == y.times[i].bitPattern && x.flags[i] == y.flags[i]
                    && x.segments[i] == y.segments[i]
                for k in x.columns.indices where x.columns[k][i].bitPattern != y.columns[k][i].bitPattern { same = false }
                if !same { n += 1 }
            }
        }
        return n
    }

    /// A number from a JSON fixture, exactly: Foundation's `JSONSerialization` hands out
    /// `NSDecimalNumber`s whose `doubleValue` can be off in the last bits, so the number's
    /// decimal text is converted with the correctly rounded `Double(String)`.
    static func number(_ value: Any?) -> Double {
        guard let n = value as? NSNumber else { return .nan }
        return Double(n.description) ?? n.doubleValue
    }

    /// ``number(_:)`` for an array.
    static func numbers(_ value: Any?) -> [Double] { (value as? [Any] ?? []).map(number) }

    /// CRC-32 (zlib) of `values` as little-endian float32, as the fixture script computes it.
    static func crc32(_ values: [Float]) -> UInt {
        values.withUnsafeBytes { UInt(zlibCRC32($0)) }
    }

    /// CRC-32 (zlib) of `values` as little-endian float64.
    static func crc32(_ values: [Double]) -> UInt {
        values.withUnsafeBytes { UInt(zlibCRC32($0)) }
    }
}

/// Checks every file of a bad-input folder against its `expected.json`:
/// `{"file": {"error": "<description>"}}` for fatal errors (thrown by the initialiser or by
/// `next()`), `{"file": {"issues": [...], "qc": {...}}}` for recoverable ones. `{file}` in an
/// expected string stands for the path passed to the decoder.
enum BadInputCorpus {
    static func check(folder: String, decoder make: (String) throws -> any RecordingDecoder) throws {
        let dir = Fixtures.url("RecordingsTests", "bad/\(folder)")
        let expected = try Fixtures.json("RecordingsTests", "bad/\(folder)/expected.json")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0 != "expected.json" && $0 != "README.md" }.sorted()
        #expect(Set(files) == Set(expected.keys.filter { !$0.hasPrefix("_") }), "files vs expected.json in \(folder)")
        for name in files {
            guard let entry = expected[name] as? [String: Any] else { continue }
            let path = dir.appendingPathComponent(name).path
            func expand(_ s: String) -> String { s.replacingOccurrences(of: "{file}", with: path) }
            var collected: CollectedDecode?
            var thrown: RecordingError?
            do {
                collected = try CollectedDecode.decode(try make(path))
            } catch let e as RecordingError {
                thrown = e
            }
            if let error = entry["error"] as? String {
                #expect(thrown?.description == expand(error), "\(folder)/\(name)")
                continue
            }
            #expect(thrown == nil, "\(folder)/\(name): unexpected \(thrown?.description ?? "")")
            guard let c = collected else { continue }
            #expect(c.problems.isEmpty, "\(folder)/\(name): \(c.problems)")
            let issues = (entry["issues"] as? [String] ?? []).map(expand)
            #expect(c.issues.map(\.description) == issues, "\(folder)/\(name)")
            if let qcs = entry["qc"] as? [[String: Int]] {
                #expect(qcs.count == c.accounts.count, "\(folder)/\(name): streams")
                for (qc, got) in zip(qcs, c.accounts) {
                    let actual = [
                        "samplesRead": got.samplesRead, "samplesEmitted": got.samplesEmitted,
                        "rejected": got.rejected, "duplicatesDropped": got.duplicatesDropped,
                        "segments": got.segments, "gaps": got.gaps, "backwardSteps": got.backwardSteps,
                        "masked": got.masked,
                    ]
                    for (k, v) in qc { #expect(actual[k] == v, "\(folder)/\(name): \(k)") }
                }
            }
        }
    }
}

/// zlib's CRC-32 of `bytes`.
private func zlibCRC32(_ bytes: UnsafeRawBufferPointer) -> uLong {
    crc32(0, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
}
