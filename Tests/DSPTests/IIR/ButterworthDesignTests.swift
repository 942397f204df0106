import DSP
import Foundation
import Testing
import _TestSupport

@Suite("Butterworth SOS design against scipy.signal.butter")
struct ButterworthDesignTests {
    /// One row of designs.json (decoded with JSONDecoder: JSONSerialization on Linux rounds
    /// some doubles by an ulp).
    struct Record: Decodable {
        var order: Int
        var btype: String
        var edges: [Double]
        var fs: Double
        var sos: [[Double]]
        var zi: [[Double]]
        var padlen: Int
        var band: FilterBand {
            switch btype {
            case "lowpass": return .lowPass(cutoff: edges[0])
            case "highpass": return .highPass(cutoff: edges[0])
            case "bandpass": return .bandPass(low: edges[0], high: edges[1])
            default: return .bandStop(low: edges[0], high: edges[1])
            }
        }
        var label: String { "order \(order) \(band) fs \(fs)" }
    }

    static func records() throws -> [Record] {
        let data = try Data(contentsOf: Fixtures.url("DSPTests", "iir/designs.json"))
        return try JSONDecoder().decode([Record].self, from: data)
    }

    /// Largest |a − b| / (|b| + 1e-15·max|row|) over one coefficient row: relative error, with a
    /// tiny floor for coefficients that are zero in exact arithmetic.
    static func rowError(_ a: [Double], _ b: [Double]) -> Double {
        let scale = b.map(abs).max() ?? 0
        return zip(a, b).map { abs($0 - $1) / (abs($1) + 1e-15 * scale) }.max() ?? 0
    }

    @Test("Every grid design matches scipy's sos to 1e-9 relative (same sections, order, gain)")
    func grid() throws {
        let records = try Self.records()
        #expect(records.count > 300)
        var worst = 0.0
        var worstLabel = ""
        var mismatchedShapes = 0
        for r in records {
            let sos = try ButterworthDesign(order: r.order, band: r.band, sampleRate: r.fs).sos
            guard sos.count == r.sos.count else {
                mismatchedShapes += 1
                continue
            }
            for (got, want) in zip(sos.rows, r.sos) {
                let e = max(
                    Self.rowError(Array(got[0..<3]), Array(want[0..<3])),
                    Self.rowError(Array(got[3..<6]), Array(want[3..<6])))
                if e > worst { worst = e; worstLabel = r.label }
            }
        }
        #expect(mismatchedShapes == 0)
        #expect(worst < 1e-9, "worst relative coefficient error \(worst) for \(worstLabel)")
    }

    @Test("steadyStateInitialConditions matches scipy.signal.sosfilt_zi")
    func steadyState() throws {
        var worst = 0.0
        var worstLabel = ""
        for r in try Self.records() where r.order <= 10 {
            let zi = SOS(rows: r.sos).steadyStateInitialConditions()
            let scale = r.zi.flatMap { $0 }.map(abs).max() ?? 1
            for (a, b) in zip(zi.flatMap { $0 }, r.zi.flatMap { $0 }) {
                let e = abs(a - b) / max(abs(b), 1e-12 * scale)
                if e > worst { worst = e; worstLabel = "\(r.label) \(a) \(b)" }
            }
        }
        #expect(worst < 1e-8, "worst relative zi error \(worst) for \(worstLabel)")
    }

    @Test("defaultPadLength matches sosfiltfilt's default padlen")
    func padLength() throws {
        var wrong = 0
        for r in try Self.records() where SOS(rows: r.sos).defaultPadLength != r.padlen { wrong += 1 }
        #expect(wrong == 0)
    }

    @Test("Invalid parameters throw typed errors")
    func invalid() {
        let bad: [(Int, FilterBand, Double)] = [
            (0, .lowPass(cutoff: 1), 10), (51, .lowPass(cutoff: 1), 10), (2, .lowPass(cutoff: 5), 10),
            (2, .highPass(cutoff: 0), 10), (2, .bandPass(low: 3, high: 2), 10),
            (2, .bandStop(low: 1, high: 2), .nan), (2, .bandStop(low: 1, high: 2), -5),
        ]
        for (order, band, fs) in bad {
            #expect(throws: IIRError.self) { try ButterworthDesign(order: order, band: band, sampleRate: fs) }
        }
        do {
            _ = try ButterworthDesign(order: 2, band: .lowPass(cutoff: 6), sampleRate: 10)
        } catch {
            #expect(error.code == .invalidFrequency)
        }
    }
}
