import Foundation
import Motion
import Signals
import Testing
import _TestSupport

/// Rotation-rate epochs on a turn whose angle is known by construction.
@Suite("Motion: rotation-rate epochs")
struct RotationRateTests {
    static func analyze(blockSizes: [Int]) -> (epochs: [RotationEpoch], summary: MotionStreamSummary) {
        // 60 s at ~100 Hz (jittered): still for 20 s, then 90°/s about z for 20 s, then still.
        let info = StreamInfo(
            key: StreamKey(deviceID: "d", sensor: .rotationRate, channel: "rotationRate"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .radiansPerSecond) })
        var rng = SeededGenerator(seed: 9)
        let n = 6000
        let t = (0..<n).map { 1_700_000_000 + Double($0) / 100 + Double.random(in: -0.001...0.001, using: &rng) }
        let zeros = [Float](repeating: 0, count: n)
        let z = t.map { ($0 - 1_700_000_000 >= 20 && $0 - 1_700_000_000 < 40) ? Float(Double.pi / 2) : 0 }
        var a = MotionStreamAnalyzer(streamName: "g", info: info, options: MotionOptions())
        var epochs = [RotationEpoch]()
        var start = 0, b = 0
        while start < n {
            let m = min(blockSizes[b % blockSizes.count], n - start)
            b += 1
            let r = start..<(start + m)
            a.consume(
                SampleBlock(
                    stream: 0, segment: 0, firstSample: start, time: .explicit(Array(t[r])),
                    columns: [Array(zeros[r]), Array(zeros[r]), Array(z[r])], flags: [UInt8](repeating: 0, count: m),
                    endsSegment: start + m == n))
            epochs += a.takeRotationEpochs()
            start += m
        }
        let summary = a.finish().summary
        epochs += a.takeRotationEpochs()
        #expect(a.takeEpochs().isEmpty)
        return (epochs, summary)
    }

    @Test("a 90°/s turn for 20 s: 450° per 5-s epoch, 1800° in all; blocks do not matter")
    func turn() {
        let whole = Self.analyze(blockSizes: [100_000])
        #expect(whole.summary.gridRateHz == 100)
        #expect(whole.epochs.count == 12)
        let total = whole.epochs.compactMap(\.rotationDegrees).reduce(0, +)
        #expect(abs(total - 1800) < 5, "\(total)°")
        for e in whole.epochs[4..<8] {
            #expect(abs(e.meanSpeedDegreesPerSecond! - 90) < 0.5)
            #expect(abs(e.meanZDegreesPerSecond! - 90) < 0.5)
            #expect(abs(e.rotationDegrees! - 450) < 3)
        }
        #expect(whole.epochs[0].meanSpeedDegreesPerSecond == 0)
        for sizes in [[1], [7, 300], [999]] {
            #expect(Self.analyze(blockSizes: sizes).epochs == whole.epochs, "\(sizes)")
        }
    }
}
