import Signals

extension BatchSummary: Encodable {
    private enum Key: String, CodingKey {
        case recordings, bytesTotal = "bytes_total", bytesAnalysed = "bytes_analysed", samplesRead = "samples_read"
        case beats, figures, signalHours = "signal_hours", analysedHours = "analysed_hours"
        case unanalysedStreams = "unanalysed_streams", elapsedSeconds = "elapsed_s", megabytesPerSecond = "mb_per_s"
        case failures, duplicates
    }

    private struct Recordings: Encodable {
        var total: Int, ok: Int, failed: Int, skipped: Int
    }

    private struct Figure: Encodable {
        var family: String, name: String, value: Double
    }

    private struct Failure: Encodable {
        var path: String, error: String
    }

    private struct Duplicate: Encodable {
        var path: String, duplicateOf: String
        enum CodingKeys: String, CodingKey { case path, duplicateOf = "duplicate_of" }
    }

    /// Writes the summary as `sensorpipe run --json` prints it: `recordings` (`total`, `ok`,
    /// `failed`, `skipped`), `bytes_total`, `bytes_analysed`, `samples_read`, `beats`,
    /// `figures` (`family`, `name`, `value`: the declared figures over the run, as
    /// ``BatchSummary/figureTotals``: sums added up, means and shares weighted, min and max; no
    /// medians), `signal_hours`
    /// and `analysed_hours` (hours per sensor), `unanalysed_streams`, `elapsed_s`,
    /// `mb_per_s` (MB analysed per second, 0 before any time passed), `failures`
    /// (`path`, `error`) and `duplicates` (`path`, `duplicate_of`: recordings not analysed because
    /// an earlier one of the batch has the same content).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(Recordings(total: total, ok: ok, failed: failed, skipped: skipped), forKey: .recordings)
        try c.encode(bytesTotal, forKey: .bytesTotal)
        try c.encode(bytesAnalysed, forKey: .bytesAnalysed)
        try c.encode(samplesRead, forKey: .samplesRead)
        try c.encode(beats, forKey: .beats)
        try c.encode(
            figureTotals.filter { $0.aggregation != .median }.map { Figure(family: $0.family, name: $0.name, value: $0.value) },
            forKey: .figures)
        let hours = { (seconds: [SensorKind: Double]) in
            Dictionary(uniqueKeysWithValues: seconds.map { ($0.key.rawValue, $0.value / 3600) })
        }
        try c.encode(hours(signalSecondsBySensor), forKey: .signalHours)
        try c.encode(hours(analysedSecondsBySensor), forKey: .analysedHours)
        try c.encode(unanalysedStreams, forKey: .unanalysedStreams)
        try c.encode(elapsedSeconds, forKey: .elapsedSeconds)
        try c.encode(elapsedSeconds > 0 ? Double(bytesAnalysed) / 1e6 / elapsedSeconds : 0, forKey: .megabytesPerSecond)
        try c.encode(failures.map { Failure(path: $0.path, error: $0.error) }, forKey: .failures)
        try c.encode(duplicates.map { Duplicate(path: $0.path, duplicateOf: $0.duplicateOf) }, forKey: .duplicates)
    }
}
