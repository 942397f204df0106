import Signals

/// The beat series of a stream of beats the device detected itself (``SensorKind/heartbeat``:
/// Apple Health's `InstantaneousBeatsPerMinute` lists), analysed like detected pulses: each
/// sample is a beat at its time, run through the shared beat-series stage (Lipponen–Tarvainen
/// correction per segment, heart-rate and HRV windows) with `source` `device`. Segments are the
/// stream's (a new segment where the device's list has a gap, ``StreamAssembler``), so no
/// interval spans beats the device left out. The device's own `bpm` column is not used: the
/// intervals come from the beat times. Each listed beat is also published as it is read
/// (``DeviceBeatEvents``, `device_beats`), with its segment, for families that need the device's
/// own beat times (rhythm).
struct DeviceBeatChannel {
    /// The stream key, as the tables write it.
    let name: String
    var series: BeatSeries
    private var index = 0

    init(name: String, options: BeatSeriesOptions) {
        self.name = name
        series = BeatSeries(options: options)
    }

    /// Appends the block's beats (masked samples are not beats) and publishes each
    /// (``DeviceBeatEvents``) when someone subscribes.
    /// - Complexity: O(block length).
    mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
        guard block.count > 0 else { return }
        series.cover(from: block.time(at: 0), to: block.time(at: block.count - 1))
        let publishes = output.isSubscribed(to: DeviceBeatEvents.id)
        for i in 0..<block.count where !SampleFlags(rawValue: block.flags[i]).isMasked {
            series.append(segment: block.segment, sampleIndex: index, timeSeconds: block.time(at: i))
            index += 1
            if publishes {
                try output.publish(
                    DerivedEvent(
                        series: DeviceBeatEvents.id, stream: name, time: block.time(at: i), values: [.number(Double(block.segment))]))
            }
        }
    }

    /// Emits the series' beats, heart-rate windows and HRV (source `device`).
    mutating func finish(output: any ResultOutput) throws {
        let name = self.name
        try series.finish(
            beat: { b in
                try output.emit(
                    BeatSeriesTables.beats, SeriesRow(stream: name, source: .device, value: LabelledBeat(beat: b, qualityLabel: nil)))
            },
            heartRate: { w in
                // The device's beats are its source's one series: recommended.
                var w = w
                w.isRecommended = true
                try output.emit(BeatSeriesTables.heartRate, SeriesRow(stream: name, source: .device, value: w))
            },
            hrv: { try output.emit(BeatSeriesTables.hrv, SeriesRow(stream: name, source: .device, value: $0)) })
    }
}
