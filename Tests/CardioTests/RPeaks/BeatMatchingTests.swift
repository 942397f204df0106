import Cardio
import Testing

@Suite("EC57 beat matching")
struct BeatMatchingTests {
    // At 1000 Hz the 150 ms window is 150 samples.
    @Test("perfect, shifted and out-of-window detections")
    func basics() {
        let ref = [1000, 2000, 3000, 4000]
        let exact = BeatMatching.match(reference: ref, detections: ref, sampleRate: 1000)
        #expect(exact.truePositives == 4 && exact.falseNegatives == 0 && exact.falsePositives == 0)
        #expect(exact.sensitivity == 1 && exact.positivePredictivity == 1 && exact.f1 == 1)
        #expect(exact.jitterMilliseconds == 0)

        // 150 ms is inside the window, 151 ms is not.
        let edge = BeatMatching.match(reference: ref, detections: [1150, 2151, 3000, 3850], sampleRate: 1000)
        #expect(edge.truePositives == 3 && edge.falseNegatives == 1 && edge.falsePositives == 1)
        #expect(abs(edge.sensitivity - 0.75) < 1e-12 && abs(edge.positivePredictivity - 0.75) < 1e-12)
        #expect(abs(edge.f1 - 0.75) < 1e-12)
    }

    @Test("each beat and detection is used once; the nearer partner wins")
    func competition() {
        // Two detections near one beat: the nearer matches, the other is a false positive.
        let two = BeatMatching.match(reference: [1000], detections: [940, 1010], sampleRate: 1000)
        #expect(two.truePositives == 1 && two.falsePositives == 1 && two.falseNegatives == 0)
        #expect(two.offsets == [10])
        // One detection between two beats 200 ms apart matches the nearer beat only.
        let one = BeatMatching.match(reference: [1000, 1200], detections: [1130], sampleRate: 1000)
        #expect(one.truePositives == 1 && one.falseNegatives == 1 && one.falsePositives == 0)
        #expect(one.offsets == [-70])
        // Unsorted input is sorted first.
        let unsorted = BeatMatching.match(reference: [3000, 1000, 2000], detections: [2005, 995, 3010], sampleRate: 1000)
        #expect(unsorted.truePositives == 3 && unsorted.offsets == [-5, 5, 10])
    }

    @Test("scored range and excluded (flutter) intervals drop beats and detections")
    func ranges() {
        let ref = [100, 1100, 2100, 3100]
        let det = [100, 1500, 2100, 2600, 3100]
        let all = BeatMatching.match(reference: ref, detections: det, sampleRate: 1000)
        #expect(all.truePositives == 3 && all.falseNegatives == 1 && all.falsePositives == 2)
        let from = BeatMatching.match(reference: ref, detections: det, sampleRate: 1000, scoredRange: 1000..<Int.max)
        #expect(from.truePositives == 2 && from.falseNegatives == 1 && from.falsePositives == 2)
        let vf = BeatMatching.match(reference: ref, detections: det, sampleRate: 1000, excluded: [1000...1600, 2500...2700])
        #expect(vf.truePositives == 3 && vf.falseNegatives == 0 && vf.falsePositives == 0)
        let episodes = BeatMatching.flutterEpisodes(samples: [5, 10, 20, 30, 40], symbols: ["N", "[", "!", "]", "["], end: 99)
        #expect(episodes == [10...30, 40...99])
    }

    @Test("jitter is the median absolute deviation of the offsets, in ms")
    func jitter() {
        // Offsets (samples at 500 Hz): 0, 2, 4, 10, −6 → ms 0, 4, 8, 20, −12; median 4;
        // |dev| 4, 0, 4, 16, 16 → median 4 ms.
        let ref = [1000, 2000, 3000, 4000, 5000]
        var s = BeatMatching.match(reference: ref, detections: [1000, 2002, 3004, 4010, 4994], sampleRate: 500)
        #expect(s.offsets == [0, 2, 4, 10, -6])
        #expect(abs(s.medianOffsetMilliseconds - 4) < 1e-12)
        #expect(abs(s.jitterMilliseconds - 4) < 1e-12)
        // Gross statistics add counts and offsets.
        s.add(BeatMatching.match(reference: [100], detections: [], sampleRate: 500))
        #expect(s.truePositives == 5 && s.falseNegatives == 1 && s.offsets.count == 5)
        let empty = BeatMatching.match(reference: [], detections: [], sampleRate: 500)
        #expect(empty.sensitivity.isNaN && empty.jitterMilliseconds.isNaN)
    }
}
