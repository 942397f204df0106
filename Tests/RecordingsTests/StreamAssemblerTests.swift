import Recordings
import Testing
import _TestSupport

@Suite("StreamAssembler: segments, blocks and the QC account")
struct StreamAssemblerTests {
    /// Concatenates the blocks of each segment: (segment, values of column 0, times, flags).
    func collect(_ events: [RecordingEvent]) -> [(values: [Float], times: [Double], ends: [Bool])] {
        var segs = [(values: [Float], times: [Double], ends: [Bool])]()
        for case .block(let b) in events {
            while segs.count <= b.segment { segs.append(([], [], [])) }
            #expect(b.firstSample == segs[b.segment].values.count)
            segs[b.segment].values += b.columns[0]
            segs[b.segment].times += (0..<b.count).map { b.time(at: $0) }
            segs[b.segment].ends.append(b.endsSegment)
        }
        return segs
    }

    func feedUniform(capacity: Int) -> ([RecordingEvent], StreamQC) {
        var a = StreamAssembler(stream: 0, columnCount: 1, uniform: true, blockCapacity: capacity)
        var events = [RecordingEvent]()
        let fs = 512.0
        func run(_ start: Double, _ n: Int, _ base: Float, rate: Double = fs, flags: [UInt8]? = nil) {
            let v = (0..<n).map { base + Float($0) }
            v.withUnsafeBufferPointer { vb in
                if let flags {
                    flags.withUnsafeBufferPointer { fb in
                        a.appendRun(start: start, sampleRate: rate, columns: [vb], flags: fb, into: &events)
                    }
                } else {
                    a.appendRun(start: start, sampleRate: rate, columns: [vb], flags: nil, into: &events)
                }
            }
        }
        run(1000, 100, 0) // segment 0
        run(1000 + 100 / fs, 50, 100, flags: [UInt8](repeating: 1, count: 50)) // continues: 150 samples
        run(1000 + 150 / fs + 0.3e-3, 10, 150) // jitter < 1 period: continues
        run(1000 + 160 / fs + 3 / fs, 20, 1000) // gap of 3 periods: segment 1
        run(1000 + 170 / fs, 30, 2000) // backwards: segment 2
        run(1000 + 200 / fs, 40, 3000, rate: 256) // rate change: segment 3
        a.finish(into: &events)
        return (events, a.qc)
    }

    @Test("uniform runs: gaps, backward steps and rate changes start segments", arguments: [1, 7, 64, 1000])
    func uniform(capacity: Int) {
        let (events, qc) = feedUniform(capacity: capacity)
        let segs = collect(events)
        #expect(segs.map(\.values.count) == [160, 20, 30, 40])
        #expect(segs[0].values == (0..<160).map(Float.init))
        #expect(segs.allSatisfy { $0.ends.last == true && $0.ends.dropLast().allSatisfy { !$0 } })
        #expect(qc.gaps == 1 && qc.backwardSteps == 1 && qc.rateChanges == 1 && qc.segments == 4)
        #expect(qc.samplesEmitted == 250 && qc.masked == 50)
        // Grid times come from the segment start, so the jittered run sits on the grid.
        #expect(abs(segs[0].times[155] - (1000 + 155 / 512.0)) < 1e-9)
        #expect(abs(segs[3].times[39] - (1000 + 200 / 512.0 + 39 / 256.0)) < 1e-9)
        #expect(blockCountOK(events, capacity: capacity))
    }

    func blockCountOK(_ events: [RecordingEvent], capacity: Int) -> Bool {
        for case .block(let b) in events where b.count == 0 || b.count > capacity { return false }
        return true
    }

    @Test(
        "explicit times: a jittery 50 Hz stream splits only at real gaps and backward steps",
        arguments: [1, 5, 33, 4096])
    func explicit(capacity: Int) {
        var rng = SeededGenerator(seed: 3)
        var times = [Double]()
        var t = 1_700_000_000.0
        for i in 0..<600 {
            t += 0.02 + Double.random(in: -0.004...0.004, using: &rng)
            if i == 200 { t += 0.5 } // gap (25 periods)
            if i == 400 { t -= 1.0 } // clock stepped back
            times.append(t)
        }
        var a = StreamAssembler(stream: 2, columnCount: 3, uniform: false, blockCapacity: capacity)
        var events = [RecordingEvent]()
        for (i, ti) in times.enumerated() {
            let v: [Float] = [Float(i), 0, 1]
            v.withUnsafeBufferPointer { a.append(time: ti, values: $0, flags: [], into: &events) }
        }
        a.finish(into: &events)
        let segs = collect(events)
        #expect(segs.map(\.values.count) == [200, 200, 200])
        #expect(segs.flatMap(\.times) == times)
        #expect(segs.flatMap(\.values) == (0..<600).map(Float.init))
        #expect(a.qc.gaps == 1 && a.qc.backwardSteps == 1 && a.qc.segments == 3)
        a.qc.samplesRead = 600
        #expect(a.qc.isBalanced)
        #expect(a.qc.samplesEmitted == 600)
        let rate = a.qc.measuredSampleRate ?? 0
        #expect(abs(rate - 50) < 1)
    }
}
