import Foundation
import Motion
import Recordings
import Testing
import _TestSupport

/// ActiGraph's 256 Hz resampling path (32, 64, 128, 256 Hz input) against ActiGraph's `agcounts`:
/// per-epoch counts on synthetic signals (fixtures of `scripts/motion/make-counts-fixtures.py`).
@Suite("ActiGraph counts at 32, 64, 128 and 256 Hz (agcounts' pow2 path)")
struct ActiGraphPow2Tests {
    @Test("per-axis counts of every epoch equal agcounts", arguments: [32, 64, 128, 256])
    func perAxis(rate: Int) throws {
        let input = try Fixtures.ints("MotionTests", "counts/synthetic_\(rate)hz_input.npy")
        let reference = try Fixtures.ints("MotionTests", "counts/synthetic_\(rate)hz_counts.npy")
        let n = input.count / 3
        let times = (0..<n).map { Double($0) / Double(rate) + 1_700_000_000 }
        let axis = (0..<3).map { a in (0..<n).map { Float(input[$0 * 3 + a]) / 256 } }
        let epochs = MotionTestSupport.analyze(
            times: times, x: axis[0], y: axis[1], z: axis[2], info: MotionTestSupport.info(rate: Double(rate))
        ).epochs
        #expect(epochs.count == reference.count / 3)
        var worst = 0
        var total = [0, 0, 0]
        for (i, e) in epochs.enumerated() where i < reference.count / 3 {
            let got = [e.countsX, e.countsY, e.countsZ].map { $0 ?? -1 }
            for a in 0..<3 {
                worst = max(worst, abs(got[a] - reference[i * 3 + a]))
                total[a] += got[a]
            }
        }
        #expect(worst == 0, "largest per-epoch difference \(worst) counts at \(rate) Hz; totals \(total)")
    }

    @Test("32 Hz: counts do not depend on block sizes")
    func chunked() throws {
        let input = try Fixtures.ints("MotionTests", "counts/synthetic_32hz_input.npy")
        let n = input.count / 3
        let times = (0..<n).map { Double($0) / 32 + 1_700_000_000 }
        let axis = (0..<3).map { a in (0..<n).map { Float(input[$0 * 3 + a]) / 256 } }
        let info = MotionTestSupport.info(rate: 32)
        let whole = MotionTestSupport.analyze(times: times, x: axis[0], y: axis[1], z: axis[2], info: info)
        #expect(whole.epochs.allSatisfy { $0.countsX != nil })
        for sizes in [[1], [7, 300], [4096]] {
            let part = MotionTestSupport.analyze(
                times: times, x: axis[0], y: axis[1], z: axis[2], info: info, blockSizes: sizes)
            #expect(part.epochs == whole.epochs, "\(sizes)")
        }
    }
}

/// ActiGraph's own stage vectors for the 32 Hz → 30 Hz path (`../shared/datasets/
/// actigraph-counts-example/agcounts-resampling-vectors`: a 0.7 Hz cosine, the 256 Hz values after
/// the interpolation kernel and after the single-pole low-pass, the 30 Hz output).
@Suite(
    "ActiGraph 32 Hz resampling against ActiGraph's stage vectors",
    .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent: resampling stage vectors skipped"))
struct ActiGraphResamplingVectorTests {
    static func column(_ name: String) throws -> [Double] {
        let folder = try #require(Fixtures.sharedDatasets).appendingPathComponent(
            "actigraph-counts-example/agcounts-resampling-vectors")
        // ByteSource unpacks .xz in-process (liblzma).
        let source = try ByteSource(path: folder.appendingPathComponent(name).path)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map { Double($0)! }
    }

    @Test("every stage within 1e-9 of ActiGraph's vectors (9600 → 76 800 → 76 800 → 9000 values)")
    func stages() throws {
        let input = try Self.column("32Hz_input.csv")
        let upsampled = try Self.column("upsample256Lpf.csv.xz")
        let lowPassed = try Self.column("taso256HzLpf.csv.xz")
        let thirty = try Self.column("30Hz_output.csv")
        let got = try #require(ActiGraphPow2Resampler.stages(of: input, sampleRate: 32))
        #expect(got.upsampled.count == upsampled.count)
        #expect(got.lowPassed.count == lowPassed.count)
        #expect(got.thirty.count == thirty.count)
        func worst(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).map { abs($0 - $1) }.max() ?? .infinity }
        let w = (worst(got.upsampled, upsampled), worst(got.lowPassed, lowPassed), worst(got.thirty, thirty))
        print("ActiGraph 32 Hz stage vectors: largest differences \(w.0), \(w.1), \(w.2)")
        #expect(w.0 < 1e-9)
        #expect(w.1 < 1e-9)
        #expect(w.2 < 1e-9)
    }
}
