import Foundation
import Recordings
import Testing
import _TestSupport

/// Decoding helpers and the pyedflib reference of the EDF tests.
enum EDFTest {
    /// FNV-1a 64 over bytes (the hash `scripts/edf/pyedflib_reference.py` writes).
    static func fnv1a64<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01B3
        }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// Little-endian bytes of `Float` values.
    static func floatBytes(_ v: [Float]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(v.count * 4)
        for x in v {
            let b = x.bitPattern
            out += [UInt8(b & 0xFF), UInt8(b >> 8 & 0xFF), UInt8(b >> 16 & 0xFF), UInt8(b >> 24)]
        }
        return out
    }

    /// Little-endian int32 bytes of integral `Float` values.
    static func int32Bytes(_ v: [Float]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(v.count * 4)
        for x in v {
            let b = UInt32(bitPattern: Int32(x))
            out += [UInt8(b & 0xFF), UInt8(b >> 8 & 0xFF), UInt8(b >> 16 & 0xFF), UInt8(b >> 24)]
        }
        return out
    }

    /// Every ordinary signal delivered (as PPG: values as written), physical or digital.
    static func decodeAll(_ path: String, digital: Bool = false, blockCapacity: Int = 65_536) throws -> (
        CollectedDecode, EDFDecoder
    ) {
        let d = try EDFDecoder(path: path, blockCapacity: blockCapacity, sensor: { _ in .photoplethysmogram }, digital: digital)
        return (try CollectedDecode.decode(d, blockCapacity: blockCapacity), d)
    }

    /// One file's comparison with its pyedflib reference: problems found (empty when equal).
    struct Parity {
        var file = ""
        var signals = 0
        var samples = 0
        var equalSignals = 0
        var annotations = 0
        var equalAnnotations = 0
        var problems: [String] = []
    }

    static func compare(path: String, reference ref: [String: Any]) throws -> Parity {
        var p = Parity(file: ref["file"] as? String ?? path)
        let (physical, decoder) = try decodeAll(path)
        let (digital, _) = try decodeAll(path, digital: true)
        p.problems += physical.problems + digital.problems
        let signals = ref["signals"] as? [[String: Any]] ?? []
        p.signals = signals.count
        if physical.streams.count != signals.count {
            p.problems.append("\(physical.streams.count) streams, pyedflib \(signals.count) signals")
        }
        for (k, s) in signals.enumerated() where k < physical.streams.count {
            let values = physical.streams[k].columns[0]
            let digits = digital.streams[k].columns[0]
            p.samples += values.count
            var ok = true
            if values.count != s["samples"] as? Int {
                p.problems.append("signal \(k): \(values.count) samples, pyedflib \(s["samples"] ?? "?")")
                ok = false
            }
            if physical.streams[k].info.attributes["edf.label"] != s["label"] as? String {
                p.problems.append("signal \(k): label \(physical.streams[k].info.attributes["edf.label"] ?? "") vs \(s["label"] ?? "")")
                ok = false
            }
            if let rate = s["sampleRate"] as? Double ?? (s["sampleRate"] as? Int).map(Double.init),
                physical.streams[k].info.nominalSampleRate != rate
            {
                p.problems.append("signal \(k): rate \(physical.streams[k].info.nominalSampleRate ?? 0) vs \(rate)")
                ok = false
            }
            if fnv1a64(floatBytes(values)) != s["physicalFloat32FNV1a64"] as? String {
                let first = (s["first"] as? [Any] ?? []).map { ($0 as? Double) ?? Double($0 as? Int ?? 0) }
                p.problems.append(
                    "signal \(k): physical values differ (first ours \(values.prefix(4)), pyedflib \(first.prefix(4)))")
                ok = false
            }
            if fnv1a64(int32Bytes(digits)) != s["digitalInt32FNV1a64"] as? String {
                p.problems.append("signal \(k): digital values differ")
                ok = false
            }
            if ok { p.equalSignals += 1 }
        }
        let first = ref["firstRecordOnset"] as? Double ?? (ref["firstRecordOnset"] as? Int).map(Double.init)
        if let first, decoder.firstRecordOnsetSeconds != first {
            p.problems.append("first record onset \(decoder.firstRecordOnsetSeconds ?? -1) vs \(first)")
        }
        let annotations = ref["annotations"] as? [[String: Any]] ?? []
        p.annotations = annotations.count
        if decoder.annotations.count != annotations.count {
            p.problems.append("\(decoder.annotations.count) annotations, pyedflib \(annotations.count)")
        }
        // pyedflib gives onsets from the sub-second start (in EDFlib's 100 ns units) and −1 for no duration.
        let shift = first ?? 0
        for (a, r) in zip(decoder.annotations, annotations) {
            let onset = r["onset"] as? Double ?? Double(r["onset"] as? Int ?? 0)
            let duration = r["duration"] as? Double ?? Double(r["duration"] as? Int ?? 0)
            let ours = a.durationSeconds ?? -1
            if a.text == r["text"] as? String && abs(a.onsetSeconds - shift - onset) < 1e-7 && abs(ours - duration) < 1e-7 {
                p.equalAnnotations += 1
            } else if p.problems.count < 20 {
                p.problems.append("annotation \(a.text)@\(a.onsetSeconds) vs \(r["text"] ?? "")@\(onset)")
            }
        }
        return p
    }

    /// The files of a committed reference (`Tests/RecordingsTests/Fixtures/edf/NAME`).
    static func references(_ name: String) throws -> [[String: Any]] {
        try Fixtures.json("RecordingsTests", "edf/\(name)")["files"] as? [[String: Any]] ?? []
    }

    /// Decompresses `url` (xz) into `dir`; returns the path, or `nil` without `xz`.
    static func unxz(_ url: URL, into dir: URL) -> String? {
        let out = dir.appendingPathComponent(String(url.lastPathComponent.dropLast(3)))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["sh", "-c", "xz -dc '\(url.path)' > '\(out.path)'"]
        guard (try? p.run()) != nil else { return nil }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? out.path : nil
    }
}
