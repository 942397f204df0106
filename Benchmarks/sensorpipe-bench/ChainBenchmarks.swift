import Cardio
import Foundation
import Pipeline
import Recordings

/// Rows are counted and dropped: the chain benchmark measures analysis, not output.
final class DiscardingSink: ResultSink {
    var rows = 0
    func begin(recording: String) throws {}
    func declare(_ table: ResultTable) throws {}
    func write(_ table: ResultTable, values: [ResultValue]) throws { rows += 1 }
    func commit() throws {}
    func rollback() {}
}

/// The whole single-recording ECG family on a day of 512 Hz ECG: WFDB format-16 decode → R-peak
/// detection (with its band-pass filtering) → artefact correction → heart rate per 10 s → HRV per
/// 5 min and for the day (→ quality per 10 s, once the quality stage is in the chain), as
/// `sensorpipe analyze` runs it, against one pass of the scalar SOS loop over the same number of
/// samples (``referenceSOSPass``), with `memcpy` of the decoded samples as information.
///
/// The record is the tiled MIT-BIH excerpt of ``ecgDay(count:)``, written once in set-up as a
/// WFDB record (format 16, 200 adu/mV) in a temporary folder.
func chainBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let count = scale.dayAt512Hz
    let reference = sosReferenceName
    return [
        BenchmarkCase(
            name: "ecg/analyze-chain/day512/wfdb16", samples: count, bytes: count * 2, reference: reference,
            info: [memcpyDayName]
        ) {
            let hea = chainRecord(count: count)
            return {
                let sink = DiscardingSink()
                // The ECG family alone: the other families (features claims every stream) have
                // benchmarks of their own.
                let summary = try! RecordingAnalysis.run(
                    recording: RecordingInput(path: hea.path), analysis: AnalysisConfiguration(),
                    families: [AnalysisFamilyEntry(ECGFamily.self)], sink: sink)
                precondition(summary.beats > count / 512 / 2, "chain benchmark: \(summary.beats) beats")
                blackHole(sink.rows)
            }
        },
        twoLeadChain(count: count, fused: true),
        twoLeadChain(count: count, fused: false),
    ]
}

/// The single-lead day of ``chainBenchmarks(_:)`` as a WFDB record (format 16, 200 adu/mV) in the
/// scratch folder, written on first use; returns its header.
func chainRecord(count: Int) -> URL {
    let dir = benchmarkScratch.appendingPathComponent("chain-\(count)")
    let hea = dir.appendingPathComponent("day.hea")
    if FileManager.default.fileExists(atPath: hea.path) { return hea }
    let signal = ecgDay(count: count)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    var adu = [Int16](repeating: 0, count: count)
    var checksum = 0
    for i in 0..<count {
        let v = Int16(clamping: Int((Double(signal[i]) * 200).rounded()))
        adu[i] = v
        checksum = (checksum + Int(v)) & 0xFFFF
    }
    let dat = dir.appendingPathComponent("day.dat")
    adu.withUnsafeBytes { try! Data($0).write(to: dat) }
    let signed = checksum >= 32768 ? checksum - 65536 : checksum
    let header = "day 1 512 \(count)\nday.dat 16 200/mV 16 0 \(adu[0]) \(signed) 0 ECG\n"
    try! Data(header.utf8).write(to: hea)
    return hea
}

/// The ECG family on a two-lead day (lead 1: lead 0 inverted, scaled by 0.6, delayed by 8 ms,
/// with its own white noise), with the fused beat series (``LeadFusion``) on or off, against the
/// scalar SOS pass over one lead's samples. The fused case reports the unfused one as
/// information: their ratio is the cost of fusion on top of two per-lead chains.
func twoLeadChain(count: Int, fused: Bool) -> BenchmarkCase {
    let name = "ecg/analyze-chain-2lead\(fused ? "" : "-nofuse")/day512/wfdb16"
    return BenchmarkCase(
        name: name, samples: 2 * count, bytes: count * 4, reference: sosReferenceName,
        info: fused ? ["ecg/analyze-chain-2lead-nofuse/day512/wfdb16"] : []
    ) {
        let signal = ecgDay(count: count)
        let dir = benchmarkScratch.appendingPathComponent("chain2-\(count)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let hea = dir.appendingPathComponent("day2.hea")
        if !FileManager.default.fileExists(atPath: hea.path) {
            var adu = [Int16](repeating: 0, count: 2 * count)
            var sums = (0, 0)
            var state: UInt64 = 0x5151_2020
            for i in 0..<count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Double(Int64(bitPattern: state) >> 40) / Double(1 << 23)
                let a = Int16(clamping: Int((Double(signal[i]) * 200).rounded()))
                let b = Int16(clamping: Int(((-0.6 * Double(signal[max(i - 4, 0)]) + 0.02 * noise) * 200).rounded()))
                adu[2 * i] = a
                adu[2 * i + 1] = b
                sums = ((sums.0 + Int(a)) & 0xFFFF, (sums.1 + Int(b)) & 0xFFFF)
            }
            adu.withUnsafeBytes { try! Data($0).write(to: dir.appendingPathComponent("day2.dat")) }
            func signed(_ c: Int) -> Int { c >= 32768 ? c - 65536 : c }
            let header =
                "day2 2 512 \(count)\nday2.dat 16 200/mV 16 0 \(adu[0]) \(signed(sums.0)) 0 MLII\n"
                + "day2.dat 16 200/mV 16 0 \(adu[1]) \(signed(sums.1)) 0 V5\n"
            try! Data(header.utf8).write(to: hea)
        }
        var options = ECGOptions()
        options.fusesLeads = fused
        var analysis = AnalysisConfiguration()
        analysis[ECGFamily.self] = options
        return {
            let sink = DiscardingSink()
            let summary = try! RecordingAnalysis.run(
                recording: RecordingInput(path: hea.path), analysis: analysis,
                families: [AnalysisFamilyEntry(ECGFamily.self)], sink: sink)
            precondition(summary.beats > count / 512, "two-lead chain benchmark: \(summary.beats) beats")
            blackHole(sink.rows)
        }
    }
}
