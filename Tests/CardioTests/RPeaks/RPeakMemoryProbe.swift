import Cardio
import Foundation
import Testing
import _TestSupport

/// Not a unit test: a probe for peak memory, run only when `RPEAKS_MEMORY_HOURS` is set, e.g.
/// `RPEAKS_MEMORY_HOURS=24 /usr/bin/time -v swift test -c release --filter RPeakMemoryProbe`.
/// It streams that many hours of 512 Hz ECG (the committed MIT-BIH excerpt, tiled with a varying
/// gain) through `RPeakDetector` in one-minute blocks, generating each block on the fly, so the
/// process's maximum resident set shows the detector's memory, not the signal's.
@Suite("R-peak memory probe")
struct RPeakMemoryProbe {
    static let hours = ProcessInfo.processInfo.environment["RPEAKS_MEMORY_HOURS"].flatMap(Double.init)

    @Test("streams RPEAKS_MEMORY_HOURS hours at 512 Hz", .enabled(if: hours != nil, "set RPEAKS_MEMORY_HOURS"))
    func probe() throws {
        let tile = try NPY.read(Fixtures.url("CardioTests", "rpeaks/mitdb119_500.npy")).floats
        let total = Int(try #require(Self.hours) * 3600 * 512)
        var detector = RPeakDetector(sampleRate: 512)
        var block = [Float](repeating: 0, count: 512 * 60)
        var peaks = [Int]()
        var beats = 0
        var done = 0
        while done < total {
            let k = min(block.count, total - done)
            for i in 0..<k {
                let n = done + i
                block[i] = Float(1 + 0.4 * sin(Double(n) / 512 / 600)) * tile[n % tile.count]
            }
            peaks.removeAll(keepingCapacity: true)
            block.withUnsafeBufferPointer { detector.process(UnsafeBufferPointer(rebasing: $0[0..<k]), flags: nil, into: &peaks) }
            beats += peaks.count
            done += k
        }
        peaks.removeAll(keepingCapacity: true)
        detector.finish(into: &peaks)
        beats += peaks.count
        print("RPeakMemoryProbe: \(total) samples, \(beats) beats")
        // The 500 Hz tile played at 512 Hz is ~2.4 % fast: ~66 bpm, i.e. about 1.1 beats/s.
        #expect(Double(beats) > 0.9 * Double(total) / 512 && Double(beats) < 1.4 * Double(total) / 512)
    }
}
