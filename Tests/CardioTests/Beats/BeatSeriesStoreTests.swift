import Foundation
import Testing

@testable import Cardio

/// The compact store of a beat series' detected beats (`BeatStore`): every accessor returns the
/// bits appended, whatever columns are stored, and a uniformly sampled unclassified series
/// (PPG) stores 4 bytes per beat.
@Suite("BeatSeries store")
struct BeatSeriesStoreTests {
    struct Beat: Equatable {
        var segment: Int32
        var sample: Int
        var time: Double
        var base: (start: Double, rate: Double)?
        var label: UInt8
        var fiducial: Float
        var pause: Float

        static func == (a: Beat, b: Beat) -> Bool {
            a.segment == b.segment && a.sample == b.sample && a.time.bitPattern == b.time.bitPattern && a.label == b.label
                && a.fiducial.bitPattern == b.fiducial.bitPattern && a.pause.isNaN == b.pause.isNaN
                && (a.pause.isNaN || a.pause.bitPattern == b.pause.bitPattern)
        }
    }

    static func check(_ beats: [Beat]) -> BeatStore {
        var store = BeatStore()
        for b in beats {
            store.append(
                segment: b.segment, sampleIndex: b.sample, time: b.time, timeBase: b.base, label: b.label, fiducial: b.fiducial,
                pauseRatio: b.pause)
        }
        #expect(store.count == beats.count)
        let times = store.times(0..<store.count)
        for (i, b) in beats.enumerated() {
            let read = Beat(
                segment: store.segment(at: i), sample: store.sample(at: i), time: store.time(at: i), base: nil,
                label: store.label(at: i), fiducial: store.fiducial(at: i), pause: store.pauseRatio(at: i))
            #expect(read == b, "beat \(i)")
            #expect(times[i].bitPattern == b.time.bitPattern, "beat \(i) time (range read)")
        }
        return store
    }

    /// A uniformly sampled PPG-like stream: times from the time base, no classes.
    static func uniform(segments: [(segment: Int32, start: Double, count: Int)], rate: Double) -> [Beat] {
        var out = [Beat]()
        for s in segments {
            for k in 0..<s.count {
                let p = 57 + k * 97 + (k * k) % 13
                out.append(
                    Beat(
                        segment: s.segment, sample: p, time: s.start + Double(p) / rate, base: (s.start, rate),
                        label: BeatSeries.unlabelled, fiducial: 0, pause: .nan))
            }
        }
        return out
    }

    @Test("a uniformly sampled unclassified series reads back exactly, at 4 bytes per beat")
    func uniformSeries() {
        let beats = Self.uniform(segments: [(0, 1_700_000_000.25, 5000), (1, 1_700_090_000.125, 3000), (3, 1_700_200_000, 10)], rate: 128)
        let store = Self.check(beats)
        #expect(store.storedBytes == 4 * beats.count + 3 * MemoryLayout<BeatStore.Run>.stride)
        #expect(store.segmentRanges.map(\.segment) == [0, 1, 3])
        #expect(store.segmentRanges.map(\.range) == [0..<5000, 5000..<8000, 8000..<8010])
    }

    @Test("a time off the time base, a class, a fiducial, a pause ratio or a wide sample index start their columns exactly")
    func lateColumns() {
        var beats = Self.uniform(segments: [(0, 12.5, 300)], rate: 125)
        beats[120].time = beats[120].time.nextUp
        beats[150].label = BeatClass.ventricular.rawValue | BeatSeries.uncertainBit
        beats[180].fiducial = -0.0125
        beats[200].pause = 0.125
        beats[250].sample = Int(Int32.max) + 7
        beats[260].fiducial = -0.0
        let store = Self.check(beats)
        #expect(store.storedBytes > 4 * beats.count)
    }

    @Test("a caller without a time base (ECG) stores every time; equal segments after another one form a new range")
    func noTimeBase() {
        var beats = [Beat]()
        for k in 0..<40 {
            beats.append(
                Beat(
                    segment: k < 10 ? 2 : (k < 20 ? 5 : 2), sample: k * 300, time: 0.3 + Double(k) * 0.8123, base: nil,
                    label: BeatClass.normal.rawValue, fiducial: Float(k) * 0.001, pause: k % 3 == 0 ? .nan : 0.05))
        }
        let store = Self.check(beats)
        #expect(store.segmentRanges.map(\.segment) == [2, 5, 2])
        #expect(store.segmentRanges.map(\.range) == [0..<10, 10..<20, 20..<40])
    }

    @Test("a PPG series with and without the time base writes the same beats, heart rate and HRV")
    func finishUnchanged() {
        let rate = 128.0, start = 1_650_000_000.0078125
        var a = BeatSeries(), b = BeatSeries()
        var p = 100
        for k in 0..<900 {
            p += 96 + (k * 37) % 29 + (k % 50 == 0 ? 80 : 0)
            let t = start + Double(p) / rate
            a.append(segment: 0, sampleIndex: p, timeSeconds: t, timeBase: (start, rate))
            b.append(segment: 0, sampleIndex: p, timeSeconds: t)
        }
        a.cover(from: start, to: start + Double(p + 10) / rate)
        b.cover(from: start, to: start + Double(p + 10) / rate)
        #expect(a.beats.storedBytes < b.beats.storedBytes / 2)
        func run(_ s: inout BeatSeries) -> (beats: [SeriesBeat], hr: [HeartRateWindow], hrv: [HRVResult]) {
            var beats = [SeriesBeat](), hr = [HeartRateWindow](), hrv = [HRVResult]()
            s.finish(beat: { beats.append($0) }, heartRate: { hr.append($0) }, hrv: { hrv.append($0) })
            return (beats, hr, hrv)
        }
        let ra = run(&a), rb = run(&b)
        #expect(ra.beats == rb.beats)
        #expect(ra.hr == rb.hr)
        #expect(ra.hrv.count == rb.hrv.count && ra.hrv.count > 1)
        for (x, y) in zip(ra.hrv, rb.hrv) {
            #expect(x.metrics.values.map(\.bitPattern) == y.metrics.values.map(\.bitPattern))
            #expect(x.startSeconds == y.startSeconds && x.endSeconds == y.endSeconds && x.coverage == y.coverage)
        }
    }
}
