import Foundation
import Recordings
import Testing
import _TestSupport

/// EDF/BDF values and annotations against pyedflib (`scripts/edf/pyedflib_reference.py`): every
/// sample of every signal (hash of the `Float` physical values and of the digital values) and every
/// annotation. The excerpt in `Datasets/edf` always runs; the staged files in
/// `../shared/datasets/interchange/edf-*` run when present and, in release builds, regenerate the
/// `edf-parity` table of `docs/VALIDATION.md`
/// (`swift test -c release --filter EDFValidationTests`).
@Suite("EDF/BDF reader against pyedflib")
struct EDFValidationTests {
    static let shared: URL? = Fixtures.sharedDatasets.map { $0.appendingPathComponent("interchange") }

    @Test("Datasets/edf excerpt: every sample and annotation equal to pyedflib's")
    func excerpt() throws {
        let tmp = TemporaryDirectory()
        let root = Fixtures.repositoryRoot.appendingPathComponent("Datasets/edf")
        for ref in try EDFTest.references("pyedflib-excerpt.json") {
            let name = try #require(ref["file"] as? String)
            var path = root.appendingPathComponent(name).path
            if !FileManager.default.fileExists(atPath: path) {
                // The .xz file is read as it is (ByteSource decompresses it); also check the plain bytes.
                path = root.appendingPathComponent(name + ".xz").path
            }
            let p = try EDFTest.compare(path: path, reference: ref)
            #expect(p.problems.isEmpty, "\(name): \(p.problems)")
            #expect(p.equalSignals == p.signals && p.equalAnnotations == p.annotations)
            _ = tmp
        }
    }

    @Test(
        "staged interchange files: every sample and annotation equal to pyedflib's",
        .enabled(if: shared != nil, "../shared/datasets is absent: the staged EDF/BDF files are skipped"))
    func staged() throws {
        let root = try #require(Self.shared)
        var rows: [EDFTest.Parity] = []
        for ref in try EDFTest.references("pyedflib-shared.json") {
            let name = try #require(ref["file"] as? String)
            let folder = try #require(
                ["edf-edfio", "edf-pyedflib", "edf-wfdb-python"].first {
                    FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/\(name)").path)
                }, "\(name) not found under \(root.path)")
            let p = try EDFTest.compare(path: root.appendingPathComponent("\(folder)/\(name)").path, reference: ref)
            #expect(p.problems.isEmpty, "\(name): \(p.problems)")
            rows.append(p)
        }
        #expect(rows.count == 8)
        #if !DEBUG
            var text = """
                Every ordinary signal's physical values (rounded to `Float`, as delivered) and digital values, and
                every annotation, of the EDF/BDF files staged in `../shared/datasets/interchange/edf-*`, against
                pyedflib 0.1.42 (`scripts/edf/pyedflib_reference.py` → `Tests/RecordingsTests/Fixtures/edf/pyedflib-shared.json`).
                A signal is equal when the FNV-1a 64 hashes of all its samples are; an annotation when text, onset
                (±10⁻⁷ s) and duration are.

                | file | signals equal | samples | annotations equal |
                | --- | --- | --- | --- |

                """
            for r in rows {
                text += "| `\(r.file)` | \(r.equalSignals) / \(r.signals) | \(r.samples) | \(r.equalAnnotations) / \(r.annotations) |\n"
            }
            let total = rows.reduce(into: (0, 0, 0, 0, 0)) {
                $0.0 += $1.equalSignals
                $0.1 += $1.signals
                $0.2 += $1.samples
                $0.3 += $1.equalAnnotations
                $0.4 += $1.annotations
            }
            text += "| **all** | \(total.0) / \(total.1) | \(total.2) | \(total.3) / \(total.4) |\n"
            ValidationDocument.replaceBlock("edf-parity", writtenBy: "EDFValidationTests", with: text)
        #endif
    }
}
