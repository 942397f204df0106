import Motion
import Signals
import Testing
import _TestSupport

/// Helpers shared by the Motion test suites.
enum MotionTestSupport {
    /// A three-axis stream description in g.
    static func info(rate: Double? = nil, unit: PhysicalUnit = .standardGravity, origin: TimeOrigin = .unix) -> StreamInfo {
        StreamInfo(
            key: StreamKey(deviceID: "d", sensor: .accelerometer, channel: "acceleration"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: unit) }, nominalSampleRate: rate, timeOrigin: origin)
    }

    /// Runs a stream through a ``MotionStreamAnalyzer`` in blocks of the given sizes (cycled).
    static func analyze(
        times: [Double], x: [Float], y: [Float], z: [Float], info: StreamInfo, options: MotionOptions = MotionOptions(),
        blockSizes: [Int] = [65_536]
    ) -> (epochs: [MotionEpoch], days: [MotionDay], summary: MotionStreamSummary) {
        var a = MotionStreamAnalyzer(streamName: "s", info: info, options: options)
        var epochs = [MotionEpoch]()
        var start = 0
        var b = 0
        while start < times.count {
            let n = min(blockSizes[b % blockSizes.count], times.count - start)
            b += 1
            let r = start..<(start + n)
            let block = SampleBlock(
                stream: 0, segment: 0, firstSample: start, time: .explicit(Array(times[r])),
                columns: [Array(x[r]), Array(y[r]), Array(z[r])], flags: [UInt8](repeating: 0, count: n),
                endsSegment: start + n == times.count)
            a.consume(block)
            epochs += a.takeEpochs()
            start += n
        }
        let (days, summary) = a.finish()
        epochs += a.takeEpochs()
        return (epochs, days, summary)
    }
}
