import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("ByteSource and LineReader")
struct ByteSourceTests {
    func readAll(_ path: String, chunk: Int = 7) throws -> [UInt8] {
        let s = try ByteSource(path: path, chunkSize: 64)
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: chunk)
        while true {
            let n = try buf.withUnsafeMutableBytes { try s.read(into: $0) }
            if n == 0 { break }
            out += buf[0..<n]
        }
        return out
    }

    func lines(_ path: String, chunk: Int) throws -> [String] {
        let r = LineReader(source: try ByteSource(path: path, chunkSize: 64), chunkSize: chunk)
        var out = [String]()
        while let range = try r.nextLine() {
            out.append(String(decoding: r.buffer[range], as: UTF8.self))
        }
        return out
    }

    @Test("plain, gzip and concatenated gzip read back byte for byte")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        var rng = SeededGenerator(seed: 7)
        let content = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let plain = dir.write("a.bin", content)
        let gz = dir.write("a.bin.gz", gzip(content))
        let twoMembers = dir.write("b.gz", gzip(Array(content[..<1000])) + gzip(Array(content[1000...])))
        #expect(try readAll(plain) == content)
        #expect(try readAll(gz) == content)
        #expect(try readAll(twoMembers) == content)
        #expect(try ByteSource(path: gz).isCompressed)
        #expect(try !ByteSource(path: plain).isCompressed)
    }

    @Test("a truncated gzip file is an error naming the byte offset")
    func truncatedGzip() throws {
        let dir = TemporaryDirectory()
        let content = Array(String(repeating: "{\"type\":\"x\"}\n", count: 2000).utf8)
        let z = gzip(content)
        let path = dir.write("t.ndjson.gz", Array(z[..<(z.count / 2)]))
        do {
            _ = try readAll(path)
            Issue.record("expected an error")
        } catch let error as RecordingError {
            #expect(error.code == .truncated)
            #expect(error.byteOffset != nil)
            #expect(error.description.contains("t.ndjson.gz"))
        }
    }

    @Test("a missing file is an unreadable error naming the path")
    func missingFile() {
        #expect(throws: RecordingError.self) { try ByteSource(path: "/nonexistent/x.ndjson") }
    }

    @Test(
        "lines split the same for every chunk size; CRLF and a missing final newline handled",
        arguments: [1, 2, 3, 5, 64, 4096])
    func lineSplitting(chunk: Int) throws {
        let dir = TemporaryDirectory()
        let text = "first\r\nsecond\n\nthird line is longer than a few bytes\nlast"
        let path = dir.write("l.txt", text)
        let gz = dir.write("l.txt.gz", gzip(Array(text.utf8)))
        let expected = ["first", "second", "", "third line is longer than a few bytes", "last"]
        #expect(try lines(path, chunk: chunk) == expected)
        #expect(try lines(gz, chunk: chunk) == expected)
    }

    @Test("line numbers and byte offsets are those of the line starts")
    func lineOffsets() throws {
        let dir = TemporaryDirectory()
        let path = dir.write("o.txt", "ab\ncde\r\nf\n")
        let r = LineReader(source: try ByteSource(path: path), chunkSize: 2)
        var seen = [(Int, Int)]()
        while try r.nextLine() != nil { seen.append((r.lineNumber, r.lineOffset)) }
        #expect(seen.map(\.0) == [1, 2, 3])
        #expect(seen.map(\.1) == [0, 3, 8])
    }

    static let hasXZ = FileManager.default.isExecutableFile(atPath: "/usr/bin/xz")

    func xz(_ bytes: [UInt8], in dir: TemporaryDirectory) throws -> [UInt8] {
        let plain = dir.write("raw-for-xz", bytes)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xz")
        p.arguments = ["-zkf", plain]
        try p.run()
        p.waitUntilExit()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain + ".xz")))
    }

    @Test("xz files (written by the xz tool) decode in-process through liblzma; truncated or corrupt ones are errors", .enabled(if: hasXZ))
    func xzFiles() throws {
        let dir = TemporaryDirectory()
        var rng = SeededGenerator(seed: 9)
        let content = (0..<300_000).map { _ in UInt8.random(in: 0...3, using: &rng) }
        let compressed = try xz(content, in: dir)
        let path = dir.write("c.bin.xz", compressed)
        #expect(try readAll(path, chunk: 4093) == content)
        #expect(try ByteSource(path: path).isCompressed)
        let cut = dir.write("cut.bin.xz", Array(compressed[..<(compressed.count / 2)]))
        do {
            _ = try readAll(cut, chunk: 4093)
            Issue.record("expected an error for a truncated .xz file")
        } catch let error as RecordingError {
            #expect(error.code == .truncated)
            #expect(error.description.contains("cut.bin.xz"))
        }
        var bad = compressed
        bad[bad.count / 2] ^= 0xff
        let corrupt = dir.write("corrupt.bin.xz", bad)
        do {
            _ = try readAll(corrupt, chunk: 4093)
            Issue.record("expected an error for a corrupt .xz file")
        } catch let error as RecordingError {
            #expect(error.code == .syntax)
            #expect(error.description.contains("corrupt.bin.xz: byte "))
        }
        // Two concatenated streams read as one content (as `xz -dc` does).
        let twice = dir.write("twice.bin.xz", compressed + compressed)
        #expect(try readAll(twice, chunk: 4093) == content + content)
    }

    @Test("a FIFO is refused at once with a message, never opened blocking; so is a folder")
    func nonRegularFiles() throws {
        let dir = TemporaryDirectory()
        let fifo = dir.url.path + "/pipe.csv"
        #expect(mkfifo(fifo, 0o644) == 0)
        do {
            _ = try ByteSource(path: fifo)
            Issue.record("expected an error for a FIFO")
        } catch {
            #expect(
                error.description == "\(fifo): unreadable: the path names a FIFO (named pipe), not a regular file; "
                    + "only regular files (or symbolic links to them) are read")
        }
        do {
            _ = try ByteSource(path: dir.url.path)
            Issue.record("expected an error for a folder")
        } catch {
            #expect(error.description.contains("the path names a folder, not a regular file"))
        }
        // A symbolic link to a regular file is read.
        let target = dir.write("real.txt", "abc")
        #expect(symlink(target, dir.url.path + "/link.txt") == 0)
        #expect(try readAll(dir.url.path + "/link.txt", chunk: 2) == Array("abc".utf8))
    }
}
