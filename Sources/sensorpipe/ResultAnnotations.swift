import Cardio
import Pipeline
import Rhythm

/// Results of a recording as EDF+ annotations (`convert --to edf --results`), so that they open in
/// EDFbrowser next to the signal: each detected beat (`beat N@@CHANNEL`, the class as
/// `beats.class`, `pulse@@CHANNEL` for PPG), each ECG quality window (`ECG quality LABEL@@CHANNEL`,
/// with its duration) and each AF episode (`AF episode@@CHANNEL`, with its duration). `@@CHANNEL`
/// is EDF+'s channel tag: the stream's channel.
enum ResultAnnotations {
    /// The annotations, times on the streams' clock (what ``EDFWriter`` takes).
    /// - Parameter results: the recording's results.
    /// - Returns: (time, duration, text), unsorted.
    /// - Complexity: O(rows).
    static func make(_ results: RecordingResults) -> [(time: Double, duration: Double?, text: String)] {
        var out: [(time: Double, duration: Double?, text: String)] = []
        func rows<R>(_ s: TableSchema<R>) -> [[String: ResultValue]] {
            let names = s.columns.map(\.description.name)
            return results.rows(s).map { Dictionary(uniqueKeysWithValues: zip(names, s.values(of: $0))) }
        }
        func real(_ v: ResultValue?) -> Double? {
            switch v {
            case .real(let x): x
            case .integer(let i): Double(i)
            default: nil
            }
        }
        func text(_ v: ResultValue?) -> String? {
            if case .text(let t) = v { return t }
            return nil
        }
        func channel(_ stream: ResultValue?) -> String {
            // Stream keys are device/sensor/channel[/session=…].
            let parts = (text(stream) ?? "").split(separator: "/", omittingEmptySubsequences: false)
            return parts.count >= 3 ? parts[2...].filter { !$0.hasPrefix("session=") }.joined(separator: "/") : (text(stream) ?? "")
        }
        for r in rows(BeatSeriesTables.beats) {
            guard let t = real(r["time"]) else { continue }
            let name = text(r["source"]) == "ppg" ? "pulse" : "beat " + (text(r["class"]) ?? "?")
            out.append((t, nil, "\(name)@@\(channel(r["stream"]))"))
        }
        for r in rows(ECGTables.quality) {
            guard let a = real(r["window_start"]), let b = real(r["window_end"]), let label = text(r["label"]) else { continue }
            out.append((a, b - a, "ECG quality \(label)@@\(channel(r["stream"]))"))
        }
        for r in rows(RhythmTables.episodes) {
            guard let a = real(r["onset"]), let d = real(r["duration_s"]) else { continue }
            out.append((a, d, "AF episode@@\(channel(r["stream"]))"))
        }
        return out
    }
}
