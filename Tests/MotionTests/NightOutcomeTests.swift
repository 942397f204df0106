import Foundation
import Signals
import Testing
import _TestSupport

@testable import Motion

/// The night outcomes that need more than the sleep period (issue 32): the sleep onset latency
/// against a diary's time in bed, naps outside the night, and the night's mean rotation rate from
/// a paired gyroscope, each against the schedule of a simulated recording (``SimulatedWeek``).
@Suite("Motion: sleep onset latency, naps, the night's rotation rate", .serialized)
struct NightOutcomeTests {
    /// The diary: in bed 22:30–07:30 every night.
    static let diary = "22:30-07:30"

    /// The schedule's latency of night k: from 22:30 to the bed time (a sustained-inactivity bout
    /// starts there and ends at the first turn, 1.5 h later, inside the time in bed).
    static func truthLatencyMinutes(_ k: Int) -> Double { (SimulatedWeek.night(k).bed - 81_000) / 60 }

    @Test("simulated week with a diary and nap detection: latency and naps against the schedule; chunked = whole")
    func simulatedWeek() throws {
        var options = MotionOptions()
        options.timeInBed = Self.diary
        options.naps = true
        let r = GeneratedStream.analyze(
            count: SimulatedWeek.count, rate: SimulatedWeek.rate, start: SimulatedWeek.start, options: options,
            blockSizes: [1 << 20]
        ) { SimulatedWeek.sample($0) }
        // Tolerances stated before the first run: latency ±2 min (bout edges fall on 5-s epochs
        // and the last awake posture change), nap duration ±2 min, no nap where the schedule has none.
        var rows = [NightRow]()
        for n in r.nights {
            let k = Int(((n.windowStartSeconds - SimulatedWeek.start) / 86_400).rounded(.down))
            guard n.onsetSeconds != nil else {
                #expect(n.sleepOnsetLatencySeconds == nil && n.napBouts == nil, "night \(n.night) has no SPT window")
                continue
            }
            let latency = try #require(n.sleepOnsetLatencySeconds, "night \(n.night): \(n.nullReason ?? "")") / 60
            let truth = Self.truthLatencyMinutes(k)
            #expect(abs(latency - truth) <= 2, "night \(n.night): latency \(latency) min, schedule \(truth) min")
            let tib = try #require(n.timeInBed)
            #expect(tib.startSeconds == SimulatedWeek.start + Double(k) * 86_400 + 81_000)
            #expect(tib.endSeconds - tib.startSeconds == 9 * 3600)
            let napTruth = k == 3 ? 60.0 : 0 // the nap 14:00–15:00 on day 3 lies in the window opening at noon of day 3
            let naps = try #require(n.napBouts)
            #expect(naps == (k == 3 ? 1 : 0), "night \(n.night): \(naps) naps")
            let napMinutes = try #require(n.napSeconds) / 60
            #expect(abs(napMinutes - napTruth) <= 2, "night \(n.night): naps \(napMinutes) min, schedule \(napTruth)")
            #expect(n.rotationRateMeanDegreesPerSecond == nil && n.nullReason?.contains("rotation_rate: no rotation-rate") == true)
            rows.append(
                NightRow(night: n.night, latency: latency, latencyTruth: truth, naps: naps, napMinutes: napMinutes, napTruth: napTruth))
        }
        #expect(rows.count == 4)
        // The sleep itself is unchanged by the options (the same SPT windows and bouts).
        let plain = SimulatedWeek.analyze()
        #expect(plain.nights.map(\.boutSpans) == r.nights.map(\.boutSpans))
        #expect(plain.rhythm == r.rhythm)
        let chunked = GeneratedStream.analyze(
            count: SimulatedWeek.count, rate: SimulatedWeek.rate, start: SimulatedWeek.start, options: options,
            blockSizes: [7919, 31, 100_003]
        ) { SimulatedWeek.sample($0) }
        #expect(chunked.nights == r.nights)
        Self.rows = rows
        if let rotation = Self.rotationRow { Self.document(rows, rotation) }
    }

    @Test("without a time in bed the latency is empty and says why; a diary window containing noon is refused")
    func noTimeInBed() {
        let none = NightOutcomes.timeInBed("", windowStart: 43_200)
        #expect(none.span == nil && none.reason?.contains("no time-in-bed window known") == true)
        let noon = NightOutcomes.timeInBed("11:00-13:00", windowStart: 43_200)
        #expect(noon.span == nil && noon.reason?.contains("contains noon") == true)
        let bad = NightOutcomes.timeInBed("22h-7h", windowStart: 43_200)
        #expect(bad.span == nil && bad.reason?.contains("not HH:MM-HH:MM") == true)
        let early = NightOutcomes.timeInBed("01:15-09:00", windowStart: 43_200)
        #expect(early.span?.startSeconds == 43_200 + 13.25 * 3600 && early.span?.endSeconds == 43_200 + 21 * 3600)
    }

    /// A gyroscope of the same device: 0.02 rad/s about z while the schedule has the wearer asleep,
    /// 0.5 rad/s otherwise.
    static func gyroscope(_ i: Int) -> SIMD3<Float> {
        let s = Double(i) / SimulatedWeek.rate
        return SIMD3(0, 0, SimulatedWeek.asleep(s) != nil ? 0.02 : 0.5)
    }

    @Test("the night's mean rotation rate from a paired gyroscope equals the gyroscope's mean over the SPT window")
    func rotationRate() throws {
        // Day 0 00:00 to day 1 14:00: the window opening at noon of day 0 is complete.
        let count = Int(38 * 3600 * SimulatedWeek.rate)
        let out = try Self.runFamily(count: count)
        let nights = out.rows["motion_nights"] ?? []
        let full = nights.filter { $0["spt_onset"]?.asDouble != nil }
        #expect(full.count == 1, "\(nights.count) nights")
        var documented: RotationRow?
        for n in full {
            let onset = try #require(n["spt_onset"]?.asDouble), wake = try #require(n["spt_wake"]?.asDouble)
            let mean = try #require(n["rotation_rate_dps"]?.asDouble, "\(String(describing: n["null_reason"]))")
            // The truth: |ω| of every grid sample in [onset, wake), in deg/s.
            var sum = 0.0, samples = 0
            for i in 0..<count {
                let t = SimulatedWeek.start + Double(i) / SimulatedWeek.rate
                guard t >= onset && t < wake else { continue }
                sum += Double(Self.gyroscope(i).z) * 180 / .pi
                samples += 1
            }
            let truth = sum / Double(samples)
            #expect(abs(mean - truth) <= 1e-4 * truth, "rotation \(mean) deg/s, gyroscope \(truth) deg/s")
            documented = RotationRow(night: n["night"]?.asText ?? "", mean: mean, truth: truth)
        }
        Self.rotationRow = documented
        if let rows = Self.rows, let documented { Self.document(rows, documented) }
        // Without the gyroscope the same night says why it has no rotation rate.
        let alone = try Self.runFamily(count: count, gyroscope: false)
        let n = try #require(alone.rows["motion_nights"]?.first { $0["spt_onset"]?.asDouble != nil })
        #expect(n["rotation_rate_dps"]?.asDouble == nil)
        #expect(n["null_reason"]?.asText?.contains("rotation_rate: no rotation-rate (gyroscope) stream") == true)
    }

    /// The accelerometer of ``SimulatedWeek`` and (optionally) ``gyroscope(_:)`` through the motion family.
    static func runFamily(count: Int, gyroscope withGyroscope: Bool = true) throws -> MotionRowCollector {
        let rate = SimulatedWeek.rate
        let accelInfo = StreamInfo(
            key: StreamKey(deviceID: "wrist", sensor: .accelerometer, channel: "acceleration"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate)
        let gyroInfo = StreamInfo(
            key: StreamKey(deviceID: "wrist", sensor: .rotationRate, channel: "rotationRate"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .radiansPerSecond) }, nominalSampleRate: rate)
        var family = MotionFamily.makeAnalyzer(options: MotionOptions())
        let out = MotionRowCollector()
        _ = family.claim(AnnouncedStream(index: 0, info: accelInfo, file: "a"))
        if withGyroscope { _ = family.claim(AnnouncedStream(index: 1, info: gyroInfo, file: "g")) }
        let block = 36_000
        var k = 0
        while k < count {
            let n = min(block, count - k)
            var a: [[Float]] = [[], [], []], g: [[Float]] = [[], [], []]
            for i in k..<(k + n) {
                let v = SimulatedWeek.sample(i), w = gyroscope(i)
                a[0].append(v.x)
                a[1].append(v.y)
                a[2].append(v.z)
                g[0].append(w.x)
                g[1].append(w.y)
                g[2].append(w.z)
            }
            let time = TimeBase.uniform(segmentStart: SimulatedWeek.start, sampleRate: rate)
            let flags = [UInt8](repeating: 0, count: n)
            if withGyroscope {
                try family.consume(
                    SampleBlock(stream: 1, segment: 0, firstSample: k, time: time, columns: g, flags: flags, endsSegment: k + n == count),
                    output: out)
            }
            try family.consume(
                SampleBlock(stream: 0, segment: 0, firstSample: k, time: time, columns: a, flags: flags, endsSegment: k + n == count),
                output: out)
            k += n
        }
        try family.finish(output: out)
        return out
    }

    struct NightRow {
        var night: String
        var latency: Double, latencyTruth: Double
        var naps: Int, napMinutes: Double, napTruth: Double
    }

    struct RotationRow {
        var night: String
        var mean: Double, truth: Double
    }

    nonisolated(unsafe) static var rows: [NightRow]?
    nonisolated(unsafe) static var rotationRow: RotationRow?

    /// The `motion-night-outcomes` block of docs/VALIDATION.md (written by whichever of the two
    /// tests finishes second).
    static func document(_ rows: [NightRow], _ rotation: RotationRow) {
        func f(_ v: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }
        var text = """
            The simulated week above (`SimulatedWeek`) with `time_in_bed = \(diary)` (a diary, the same every night)
            and `naps = true`: the schedule's latency is bed time − 22:30 (30 min; 150 min on the shifted night, whose
            first sustained-inactivity bout 01:00–02:30 lies inside the time in bed), its one nap 14:00–15:00 on
            2023-11-18 lies in the window opening at noon that day (the still table from 10:00 on day 4 is off the
            wrist: a bout touching non-wear is no nap). Tolerances stated before the first run:
            latency ±2 min, nap time ±2 min, no nap where the schedule has none. The same SPT windows and bouts
            as without the options; chunked = whole. Regenerate:
            `swift test -c release --filter NightOutcomeTests`.

            | night | `sleep_onset_latency_s` min (schedule) | `nap_bouts` (schedule) | `nap_s` min (schedule) |
            |---|---:|---:|---:|

            """
        for r in rows {
            text +=
                "| \(r.night) | \(f(r.latency)) (\(f(r.latencyTruth))) | \(r.naps) (\(r.napTruth > 0 ? 1 : 0)) | \(f(r.napMinutes)) (\(f(r.napTruth))) |\n"
        }
        text += """

            The night's rotation rate: the same wrist for 38 h with a gyroscope of the same device (0.02 rad/s
            about z asleep by the schedule, 0.5 rad/s awake), through `MotionFamily` (the gyroscope paired with the
            accelerometer). Truth: the mean |ω| of the gyroscope's grid samples inside the night's SPT window
            (its edges as found by HDCZA, so minutes awake inside it count at 0.5 rad/s). Tolerance 1e-4 relative.
            Without the gyroscope the column is empty with `null_reason` "rotation_rate: no rotation-rate
            (gyroscope) stream paired with this accelerometer".

            | night | `rotation_rate_dps` | gyroscope over the SPT window | relative difference |
            |---|---:|---:|---:|
            | \(rotation.night) | \(f(rotation.mean, 4)) | \(f(rotation.truth, 4)) | \(String(format: "%.1e", abs(rotation.mean - rotation.truth) / rotation.truth)) |

            """
        ValidationDocument.replaceBlock("motion-night-outcomes", writtenBy: "NightOutcomeTests", with: text)
    }
}

extension ResultValue {
    fileprivate var asDouble: Double? {
        switch self {
        case .real(let x): return x
        case .integer(let x): return Double(x)
        default: return nil
        }
    }

    fileprivate var asText: String? {
        if case .text(let s) = self { return s }
        return nil
    }
}
