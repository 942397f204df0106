import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("WFDB MIT-format annotations (annot(5))")
struct WFDBAnnotationTests {
    @Test("every code, SKIP, SUB, CHN, NUM and AUX read as wfdb-python's rdann reads them")
    func matchesRdann() throws {
        let a = try WFDBAnnotations(path: WFDBTest.fixture("annot.atr"))
        let ref = try Fixtures.json("RecordingsTests", "wfdb/expected/annot.json")
        let sample = try #require(ref["sample"] as? [Int])
        let symbol = try #require(ref["symbol"] as? [String])
        let subtype = try #require(ref["subtype"] as? [Int])
        let chan = try #require(ref["chan"] as? [Int])
        let num = try #require(ref["num"] as? [Int])
        let aux = try #require(ref["aux_note"] as? [String])
        #expect(a.isTerminated)
        #expect(a.annotations.count == sample.count)
        #expect(a.annotations.map(\.sample) == sample)
        #expect(a.annotations.map(\.code.mnemonic) == symbol)
        #expect(a.annotations.map(\.subtype) == subtype)
        #expect(a.annotations.map(\.channel) == chan)
        #expect(a.annotations.map(\.number) == num)
        #expect(a.annotations.map { $0.aux ?? "" } == aux)
        // The fixture holds intervals of 1024, 5000 and 100,000 samples (SKIP).
        let gaps = zip(sample.dropFirst(), sample).map { $0 - $1 }
        #expect(gaps.contains(100_000) && gaps.contains(1024))
    }

    @Test("the code table agrees with wfdb-python's label table, mnemonics round-trip")
    func codeTable() throws {
        let table = try Fixtures.json("RecordingsTests", "wfdb/expected/codes.json")
        #expect(table.count == 39)
        for (key, value) in table {
            let code = WFDBAnnotationCode(rawValue: try #require(Int(key)))
            #expect(code.mnemonic == value as? String)
            #expect(WFDBAnnotationCode(mnemonic: code.mnemonic) == code)
            #expect(!code.meaning.isEmpty)
        }
        #expect(WFDBAnnotationCode(rawValue: 45).mnemonic == "[45]")
        #expect(WFDBAnnotationCode(mnemonic: "zz") == nil)
    }

    @Test("EC57 beats and AAMI classes")
    func aami() {
        func cls(_ m: String) -> AAMIBeatClass? { WFDBAnnotationCode(mnemonic: m)?.aamiClass }
        let beats = "N L R B A a J S V r F e j n E / f Q ?".split(separator: " ").map(String.init)
        let all = (1...41).map { WFDBAnnotationCode(rawValue: $0) }
        #expect(Set(all.filter(\.isBeat).map(\.mnemonic)) == Set(beats))
        #expect(["N", "L", "R", "e", "j", "B", "n"].allSatisfy { cls($0) == .n })
        #expect(["A", "a", "J", "S"].allSatisfy { cls($0) == .s })
        #expect(["V", "E", "r"].allSatisfy { cls($0) == .v })
        #expect(cls("F") == .f)
        #expect(["/", "f", "Q", "?"].allSatisfy { cls($0) == .q })
        #expect(["+", "~", "|", "!", "x", "\"", "[", "]", "p", "t", "(", ")"].allSatisfy { cls($0) == nil })
    }

    @Test("hand-built words: SKIP with a negative interval, modifiers, odd aux padding, no end word")
    func handBuilt() throws {
        func w(_ code: Int, _ data: Int) -> [UInt8] {
            let v = code << 10 | data
            return [UInt8(v & 0xff), UInt8(v >> 8)]
        }
        var bytes = w(59, 0) + [0x00, 0x00, 0xd0, 0x07] // SKIP +2000 (high word 0, low 2000)
        bytes += w(1, 10) + w(62, 2) + w(60, 0x3ff) // N at 2010, chan 2, num −1
        bytes += w(28, 5) + w(63, 3) + Array("(VT".utf8) + [0] // + at 2015, aux "(VT" (padded)
        bytes += w(59, 0) + [0xff, 0xff, 0xf6, 0xff] // SKIP −10
        bytes += w(5, 1) + w(61, 0x3ff) // V at 2006, subtype −1
        let a = try WFDBAnnotations(bytes: bytes, path: "h.atr")
        #expect(!a.isTerminated)
        #expect(
            a.annotations == [
                WFDBAnnotation(sample: 2010, code: .normal, channel: 2, number: -1),
                WFDBAnnotation(sample: 2015, code: .rhythm, channel: 2, number: -1, aux: "(VT"),
                WFDBAnnotation(sample: 2006, code: .prematureVentricular, subtype: -1, channel: 2, number: -1),
            ])
        #expect(a.beats.count == 2 && a.counts[.normal] == 1)
    }

    @Test("truncated annotation files are errors naming the byte offset")
    func truncated() {
        func message(_ bytes: [UInt8]) -> String? {
            do {
                _ = try WFDBAnnotations(bytes: bytes, path: "t.atr")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(message([0x05, 0x04, 0x07]) == "t.atr: byte 2: truncated: the file ends inside a 16-bit annotation word")
        #expect(message([0x05, 0x04, 0x00, 0xec, 0x00]) == "t.atr: byte 2: truncated: SKIP needs a 4-byte interval; the file ends first")
        #expect(message([0x05, 0x04, 0x05, 0xfc, 0x28]) == "t.atr: byte 2: truncated: aux string of 5 bytes runs past the end of the file")
        #expect(message([0x02, 0xf4, 0x05, 0x04]) == "t.atr: byte 0: syntax: modifier SUB before the first annotation")
        #expect(
            message([0x00, 0x4e, 0x00, 0x00])
                == "t.atr: byte 0: unsupported: AHA-format annotation files are not read (MIT format expected)")
    }
}
