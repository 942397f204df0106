import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

@Suite("RecordingDiscovery and ContentHash: manifests with CRLF, BOM, spaces, comments; non-regular files")
struct RecordingDiscoveryTests {
    /// Writes `bytes` as `list.manifest` beside two recording files `a.csv`, `b.csv`.
    func manifest(_ bytes: [UInt8], in dir: TemporaryDirectory) -> String {
        _ = dir.write("a.csv", "time,x\n0,1\n")
        _ = dir.write("b.csv", "time,x\n0,1\n")
        return dir.write("list.manifest", bytes)
    }

    @Test(
        "CRLF, CR and LF line ends, a BOM, trailing spaces and tabs, comment lines",
        arguments: [
            "a.csv\r\nb.csv\r\n",
            "\u{FEFF}a.csv\nb.csv\n",
            "\u{FEFF}# recordings\r\na.csv  \r\n\r\n\tb.csv\t\r\n# end\r\n",
            "a.csv\rb.csv",
            "  # comment with spaces before\na.csv \nb.csv",
        ])
    func lineEnds(text: String) throws {
        let dir = TemporaryDirectory()
        let path = manifest(Array(text.utf8), in: dir)
        let expanded = try RecordingDiscovery.expand([path])
        #expect(expanded == [dir.url.path + "/a.csv", dir.url.path + "/b.csv"], "\(text.debugDescription)")
    }

    @Test("a folder scan skips BIDMC reference companions beside their recording, but not without it")
    func bidmcCompanions() throws {
        let dir = TemporaryDirectory()
        for name in ["bidmc_01_Signals.csv.xz", "bidmc_01_Breaths.csv", "bidmc_01_Numerics.csv", "bidmc_02_Breaths.csv"] {
            _ = dir.write(name, "x\n")
        }
        let found = try RecordingDiscovery.expand([dir.url.path]).map { ($0 as NSString).lastPathComponent }
        #expect(found == ["bidmc_01_Signals.csv.xz", "bidmc_02_Breaths.csv"])
        // Named directly, a companion is still opened (and fails with the CSV layout error).
        let named = dir.url.appendingPathComponent("bidmc_01_Breaths.csv").path
        #expect(try RecordingDiscovery.expand([named]) == [named])
    }

    @Test("the main job's input, Datasets/, holds only recordings a batch can open (the README's first command)")
    func datasetsFolder() throws {
        let root = Fixtures.repositoryRoot.appendingPathComponent("Datasets").path
        let found = try RecordingDiscovery.expand([root]).map { ($0 as NSString).lastPathComponent }
        #expect(!found.contains { $0.lowercased().contains("_breaths.") || $0.lowercased().contains("_numerics.") })
        #expect(found.contains("bidmc_01_excerpt_Signals.csv.xz"))
        // The Apple Health excerpt is read once, as the Health app's export.zip.
        #expect(found.filter { $0 == "export.zip" }.count == 1 && !found.contains("export-excerpt.xml"))
    }

    @Test("a line that is not UTF-8 is a path of those bytes (file names may hold any byte but / and NUL)")
    func invalidUTF8() throws {
        let dir = TemporaryDirectory()
        let path = manifest(Array("a.csv\r\n".utf8) + [0x62, 0xff, 0x0a], in: dir)
        let expanded = try RecordingDiscovery.expand([path])
        #expect(expanded.count == 2)
        #expect(FilePathBytes.bytes(expanded[1]) == Array((dir.url.path + "/b").utf8) + [0xff])
    }

    @Test("a FIFO named like a manifest, or listed as a recording, is refused without blocking")
    func fifo() throws {
        let dir = TemporaryDirectory()
        let list = dir.url.path + "/pipe.list"
        #expect(mkfifo(list, 0o644) == 0)
        do {
            _ = try RecordingDiscovery.expand([list])
            Issue.record("expected a manifest error")
        } catch let e as RecordingDiscovery.ManifestError {
            #expect(e.description.hasPrefix("\(list): the path names a FIFO (named pipe), not a regular file"))
        }
        let fifo = dir.url.path + "/rec.csv"
        #expect(mkfifo(fifo, 0o644) == 0)
        // A folder scan keeps it (so the batch reports it as a failed recording) …
        #expect(try RecordingDiscovery.expand([dir.url.path]).contains(fifo))
        // … and hashing it fails at once with a sentence naming it.
        do {
            _ = try ContentHash.file(fifo)
            Issue.record("expected an error")
        } catch let e as RecordingError {
            #expect(
                e.description == "\(fifo): unreadable: the path names a FIFO (named pipe), not a regular file; "
                    + "only regular files (or symbolic links to them) are read")
        }
        let missing = dir.url.path + "/nothere.csv"
        do {
            _ = try ContentHash.file(missing)
            Issue.record("expected an error")
        } catch let e as RecordingError {
            #expect(e.description == "\(missing): unreadable: No such file or directory")
        }
    }
}
