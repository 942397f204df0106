import DSP
import Features
import Foundation
import Recordings

/// Collects every row the family emits, as values in column order.
final class CollectingOutput: ResultOutput {
    var rows: [String: [[ResultValue]]] = [:]

    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        rows[schema.table.name, default: []].append(schema.values(of: row))
    }

    func table(_ name: String) -> [[ResultValue]] { rows[name] ?? [] }
}

extension ResultValue {
    var double: Double? {
        switch self {
        case .real(let x): return x
        case .integer(let i): return Double(i)
        default: return nil
        }
    }

    var string: String? {
        if case .text(let s) = self { return s }
        return nil
    }
}

/// A stream to feed the family: announcement plus blocks cut from whole columns.
struct SyntheticStream {
    var info: StreamInfo
    var times: [Double]
    var columns: [[Float]]
    var flags: [UInt8]
    /// Indices where a new segment starts (besides 0).
    var segmentStarts: [Int] = []
    /// Uniform time base (start, rate) per segment instead of explicit times.
    var uniformRate: Double?

    /// Blocks of at most `capacity` samples, never across a segment boundary.
    func blocks(stream: Int, capacity: Int) -> [SampleBlock] {
        var out = [SampleBlock]()
        let bounds = [0] + segmentStarts + [times.count]
        for s in 0..<(bounds.count - 1) {
            var i = bounds[s]
            while i < bounds[s + 1] {
                let j = min(i + capacity, bounds[s + 1])
                let time: TimeBase =
                    uniformRate.map { .uniform(segmentStart: times[bounds[s]], sampleRate: $0) } ?? .explicit(Array(times[i..<j]))
                out.append(
                    SampleBlock(
                        stream: stream, segment: s, firstSample: i - bounds[s], time: time,
                        columns: columns.map { Array($0[i..<j]) }, flags: Array(flags[i..<j]), endsSegment: j == bounds[s + 1]))
                i = j
            }
        }
        return out
    }

    /// Runs the family over the stream cut in blocks of `capacity`; returns the output. The raw
    /// stream is analysed whatever `options.rawStreams` says (opt-in since issue 35).
    func run(options: FeaturesOptions = .init(), capacity: Int) throws -> CollectingOutput {
        var options = options
        options.rawStreams = true
        var analyzer = FeaturesFamily.makeAnalyzer(options: options)
        let announced = AnnouncedStream(index: 3, info: info, file: "synthetic")
        let claimed = analyzer.claim(announced)
        precondition(claimed)
        let output = CollectingOutput()
        for b in blocks(stream: 3, capacity: capacity) { try analyzer.consume(b, output: output) }
        try analyzer.finish(output: output)
        return output
    }
}
