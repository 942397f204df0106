import Foundation
import Motion
import Signals
import Testing
import _TestSupport

/// A simulated wrist over whole days: awake from 07:00 to 23:00 (the forearm's orientation
/// wanders continuously, 20°–60° swings every few seconds), asleep from 23:00 to 07:00 lying
/// still (2 mg noise, a 1-s twitch of ±80 mg every 4 min that leaves the posture unchanged) with
/// four turns (a 30° change of orientation over 20 s) at 00:30, 02:15, 04:00 and 05:30. Optionally
/// the watch lies on a table (1 mg noise) over one night instead.
struct SimulatedNights {
    let rate: Double
    let start: Double
    /// Seconds from `start` at which the watch is off the wrist, if any.
    var offWrist: Range<Double>? = nil
    static let turns: [Double] = [1.5, 3.25, 5, 6.5].map { $0 * 3600 } // hours after 23:00

    func sample(_ i: Int) -> SIMD3<Float> {
        let s = Double(i) / rate
        let t = start + s
        let clock = t.truncatingRemainder(dividingBy: 86_400)
        let jitter = Float(0.002 * sin(Double(i) * 12.9898).truncatingRemainder(dividingBy: 1))
        if let off = offWrist, off.contains(s) {
            let j: Float = jitter / 2
            return SIMD3<Float>(0.01 + j, -0.02 - j, 1 + j)
        }
        let asleep = clock >= 23 * 3600 || clock < 7 * 3600
        if !asleep {
            // Awake: orientation wanders.
            let theta = 1.0 + 0.5 * sin(2 * .pi * s / 7) + 0.3 * sin(2 * .pi * s / 2.3)
            let phi = 2 * .pi * s / 40
            let x = Float(sin(theta) * cos(phi)) + jitter
            let y = Float(sin(theta) * sin(phi)) + jitter
            let z = Float(cos(theta)) + jitter
            return SIMD3(x, y, z)
        }
        let sinceBed = clock >= 23 * 3600 ? clock - 23 * 3600 : clock + 3600
        return Self.lying(sinceBed: sinceBed, s: s, jitter: jitter)
    }

    /// The wrist lying still `sinceBed` s after going to bed: 40° from vertical, plus 30° per
    /// completed turn (a 20-s ramp), a 1-s twitch every 4 min, `jitter` added to every axis.
    static func lying(sinceBed: Double, s: Double, jitter: Float) -> SIMD3<Float> {
        var theta = 40.0
        for turn in turns { theta += 30 * min(max((sinceBed - turn) / 20, 0), 1) * (theta > 100 ? -1 : 1) }
        let r = theta * .pi / 180
        var v = SIMD3(Float(sin(r)), 0, Float(cos(r)))
        if sinceBed.truncatingRemainder(dividingBy: 240) < 1 {
            v += SIMD3<Float>(repeating: Float(0.08 * sin(2 * .pi * 2.5 * s)))
        }
        return v + SIMD3<Float>(repeating: jitter)
    }
}

/// Sleep period time (HDCZA, van Hees et al. 2018) and sustained inactivity (van Hees et al.
/// 2015) on simulated days with known bed and wake times.
@Suite("Motion: sleep")
struct SleepTests {
    static let noon = 1_700_049_600.0 // 2023-11-15T12:00:00Z

    @Test("two nights asleep 23:00–07:00 with 4 turns: SPT within 15 min of bed and wake, 5 bouts, sleep ≥ 7.5 h")
    func nights() {
        let rate = 10.0
        let sim = SimulatedNights(rate: rate, start: Self.noon - 3600)
        let count = Int((2 * 86_400 + 7200) * rate)
        let r = GeneratedStream.analyze(count: count, rate: rate, start: sim.start) { sim.sample($0) }
        // Windows: the one opening the day before (1 h recorded), two full ones, one with 1 h.
        #expect(r.nights.count == 4, "\(r.nights.map(\.night))")
        let full = r.nights.filter { $0.note == nil }
        #expect(full.count == 2)
        for (k, n) in full.enumerated() {
            let bed = Self.noon + Double(k) * 86_400 + 11 * 3600
            let wake = bed + 8 * 3600
            let onset = try! #require(n.onsetSeconds), end = try! #require(n.wakeSeconds)
            #expect(abs(onset - bed) <= 900, "night \(n.night): onset \((onset - bed) / 60) min from 23:00")
            #expect(abs(end - wake) <= 900, "night \(n.night): wake \((end - wake) / 60) min from 07:00")
            #expect(n.bouts == 5, "night \(n.night): \(n.bouts ?? -1) bouts")
            #expect(n.sleepSeconds! >= 7.5 * 3600 && n.sleepSeconds! <= n.sptSeconds!, "sleep \(n.sleepSeconds! / 3600) h")
            #expect(n.wasoSeconds! < 0.5 * 3600)
            #expect(n.thresholdDegrees! >= 0.13 && n.thresholdDegrees! <= 0.5)
            #expect(n.nonWearSeconds == 0, "non-wear \(n.nonWearSeconds) s in a worn night")
            // The bouts (motion_sleep_bouts): as many as counted, adding up to the sleep time,
            // inside the SPT window, in order, and none spanning one of the four simulated turns.
            #expect(n.boutSpans.count == n.bouts)
            #expect(abs(n.boutSpans.map { $0.endSeconds - $0.startSeconds }.reduce(0, +) - n.sleepSeconds!) < 1e-6)
            #expect(n.boutSpans.allSatisfy { $0.startSeconds >= onset && $0.endSeconds <= end && $0.endSeconds > $0.startSeconds })
            #expect(zip(n.boutSpans, n.boutSpans.dropFirst()).allSatisfy { $0.endSeconds < $1.startSeconds })
            for turn in SimulatedNights.turns.map({ bed + $0 + 10 }) {
                #expect(!n.boutSpans.contains { $0.startSeconds < turn && turn < $0.endSeconds }, "a bout spans the turn at \(turn)")
            }
            print(
                "sleep night \(n.night): onset \((onset - bed) / 60) min, wake \((end - wake) / 60) min, sleep \(n.sleepSeconds! / 3600) h, "
                    + "bouts \(n.bouts!), waso \(n.wasoSeconds! / 60) min, threshold \(n.thresholdDegrees!)°")
        }
        // The windows at either end hold 1 h each: incomplete, and they say so.
        let partial = r.nights.filter { $0.note != nil }
        #expect(partial.count == 2 && partial.allSatisfy { $0.note!.contains("worn data") }, "\(partial.map(\.note))")
        #expect(partial.first?.onsetSeconds == nil && partial.first?.sleepSeconds == nil)
        let chunked = GeneratedStream.analyze(count: count, rate: rate, start: sim.start, blockSizes: [7919, 31]) { sim.sample($0) }
        #expect(chunked.nights == r.nights)
    }

    @Test("the motion family writes each night once, as the stream analyser finds them, for any block size")
    func familyNightsOnce() throws {
        let rate = 10.0
        let sim = SimulatedNights(rate: rate, start: Self.noon - 3600)
        let count = Int((2 * 86_400 + 7200) * rate)
        let expected = GeneratedStream.analyze(count: count, rate: rate, start: sim.start) { sim.sample($0) }.nights
        #expect(expected.count == 4)
        for sizes in [[60_000], [7919, 31]] {
            var family = MotionFamily.makeAnalyzer(options: MotionOptions())
            let out = MotionRowCollector()
            let claimed = family.claim(AnnouncedStream(index: 0, info: MotionTestSupport.info(rate: rate), file: "f"))
            #expect(claimed)
            var first = 0, b = 0
            while first < count {
                let n = min(sizes[b % sizes.count], count - first)
                b += 1
                var t = [Double](), x = [Float](), y = [Float](), z = [Float]()
                for i in first..<(first + n) {
                    let v = sim.sample(i)
                    t.append(sim.start + Double(i) / rate)
                    x.append(v.x)
                    y.append(v.y)
                    z.append(v.z)
                }
                try family.consume(
                    SampleBlock(
                        stream: 0, segment: 0, firstSample: first, time: .explicit(t), columns: [x, y, z],
                        flags: [UInt8](repeating: 0, count: n), endsSegment: first + n == count),
                    output: out)
                first += n
            }
            try family.finish(output: out)
            let nights = out.rows["motion_nights", default: []].map { "\($0["night"].map { "\($0)" } ?? "")" }
            #expect(nights.count == expected.count, "blocks \(sizes): \(nights)")
            #expect(Set(nights).count == nights.count, "blocks \(sizes): a night written twice: \(nights)")
        }
    }

    @Test("a watch left on a table from 21:00 to 09:00: that night has no sleep window, and says why")
    func offWristNight() {
        let rate = 10.0
        var sim = SimulatedNights(rate: rate, start: Self.noon)
        sim.offWrist = (9 * 3600)..<(21 * 3600)
        let count = Int(86_400 * rate)
        let r = GeneratedStream.analyze(count: count, rate: rate, start: sim.start) { sim.sample($0) }
        let n = try! #require(r.nights.first)
        #expect(n.nonWearSeconds >= 10 * 3600, "non-wear \(n.nonWearSeconds / 3600) h")
        #expect(n.onsetSeconds == nil && n.sleepSeconds == nil)
        #expect(n.note?.contains("worn data") == true, "\(n.note ?? "")")
    }

    @Test("2-min epochs: no nights, and the stream says why")
    func longEpochs() {
        var options = MotionOptions()
        options.epochSeconds = 120
        let r = GeneratedStream.analyze(count: 36_000, rate: 10, start: Self.noon, options: options) { _ in SIMD3(0, 0, 1) }
        #expect(r.nights.isEmpty)
        #expect(r.summary.note?.contains("sleep needs an epoch of at most 60 s") == true, "\(r.summary.note ?? "")")
    }

    @Test("a day of activity without a night: no block of low z-angle variability, none invented")
    func awakeAllDay() {
        let rate = 10.0
        let count = Int(86_400 * rate)
        let r = GeneratedStream.analyze(count: count, rate: rate, start: Self.noon) { i in
            let s = Double(i) / rate
            let theta = 1.0 + 0.5 * sin(2 * .pi * s / 7) + 0.3 * sin(2 * .pi * s / 2.3)
            let phi = 2 * .pi * s / 40
            let x = Float(sin(theta) * cos(phi)), y = Float(sin(theta) * sin(phi))
            return SIMD3(x, y, Float(cos(theta)))
        }
        let n = try! #require(r.nights.first)
        #expect(n.onsetSeconds == nil && n.sleepSeconds == nil)
        #expect(n.note?.contains("no block") == true, "\(n.note ?? "")")
    }
}
