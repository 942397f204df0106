import Testing
import _TestSupport

@testable import Recordings

@Suite("Inflater: one zlib inflate stream for gzip, zlib and raw deflate")
struct InflaterTests {
    /// Compressible made-up bytes; the compressed forms come from zlib's deflate (`deflated`).
    static let content: [UInt8] = {
        var rng = SeededGenerator(seed: 11)
        return (0..<40_000).map { _ in UInt8.random(in: 0...15, using: &rng) }
    }()

    struct NoMoreInput: Error {}

    /// Inflates `compressed` through `inflate(into:refill:)`, delivering at most `chunk` bytes a
    /// refill and taking at most `room` bytes a call.
    func inflateAll(_ compressed: [UInt8], _ format: Inflater.Format, chunk: Int, room: Int) throws
        -> (bytes: [UInt8], delivered: Int, inflater: Inflater)
    {
        let inflater = try Inflater(format, inputBufferSize: chunk)
        var delivered = 0
        var out = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: room)
        while !inflater.hasEnded {
            let step = try buffer.withUnsafeMutableBytes { b in
                try inflater.inflate(into: b) { input throws(NoMoreInput) in
                    let n = min(input.count, compressed.count - delivered)
                    guard n > 0 else { throw NoMoreInput() }
                    compressed.withUnsafeBytes { c in
                        input.baseAddress!.copyMemory(from: c.baseAddress! + delivered, byteCount: n)
                    }
                    delivered += n
                    return n
                }
            }
            if case .failed(let why) = step.status { Issue.record("corrupt: \(why)"); break }
            #expect(step.status == (inflater.hasEnded ? .streamEnded : .progressed))
            #expect(inflater.hasEnded || step.produced == room)
            out += buffer[0..<step.produced]
        }
        return (out, delivered, inflater)
    }

    @Test("zlib, raw deflate and gzip inflate back to the original, whatever the chunk sizes")
    func roundTrip() throws {
        let formats: [(Inflater.Format, windowBits: Int32)] = [
            (.zlib, 15), (.rawDeflate, -15), (.gzipOrZlib, 15 + 16),
            (.gzipOrZlib, 15),
        ]
        for (format, windowBits) in formats {
            let compressed = deflated(Self.content, windowBits: windowBits)
            for (chunk, room) in [(1, 1), (7, 1000), (1 << 16, 1 << 16)] {
                let r = try inflateAll(compressed, format, chunk: chunk, room: room)
                #expect(r.bytes == Self.content, "\(format) \(windowBits) \(chunk) \(room)")
                // Everything up to the end marker (and the trailer) was consumed.
                #expect(r.delivered - r.inflater.bufferedInputCount == compressed.count)
            }
        }
    }

    @Test("a stream cut short ends in the refill's own error")
    func truncated() throws {
        let compressed = deflated(Self.content, windowBits: 15)
        #expect(throws: NoMoreInput.self) {
            _ = try inflateAll(Array(compressed.dropLast(10)), .zlib, chunk: 4096, room: 4096)
        }
    }

    @Test("corrupt data: the failure carries zlib's message and what was consumed")
    func corrupt() throws {
        // RFC 1951 §3.2.3: block type 11 (BTYPE bits 1–2 of the first byte) is reserved, an error.
        var compressed = deflated(Self.content, windowBits: -15)
        compressed[0] |= 0x06
        let inflater = try Inflater(.rawDeflate)
        var out = [UInt8](repeating: 0, count: 100)
        let step = compressed.withUnsafeBytes { c in out.withUnsafeMutableBytes { inflater.inflate(from: c, into: $0) } }
        #expect(step.status == .failed(reason: "invalid block type"))
        #expect(step.produced == 0)
        #expect(step.consumed == 1)
        #expect(!inflater.hasEnded)
    }

    @Test("no input: no progress, reported as progressed with nothing consumed or produced")
    func noInput() throws {
        let inflater = try Inflater(.gzipOrZlib)
        var out = [UInt8](repeating: 0, count: 16)
        let step = out.withUnsafeMutableBytes { inflater.inflate(from: UnsafeRawBufferPointer(start: nil, count: 0), into: $0) }
        #expect(step.status == .progressed && step.consumed == 0 && step.produced == 0)
    }

    @Test("concatenated gzip members: reset() after each end marker starts the next")
    func gzipMembers() throws {
        let a = Array(Self.content[..<1000]), b = Array(Self.content[1000...])
        let compressed = gzip(a) + gzip(b)
        let inflater = try Inflater(.gzipOrZlib)
        var out = [UInt8](), start = 0, members = 0
        var buffer = [UInt8](repeating: 0, count: 777)
        while start < compressed.count {
            if inflater.hasEnded { inflater.reset() }
            let step = compressed.withUnsafeBytes { c in
                buffer.withUnsafeMutableBytes { inflater.inflate(from: UnsafeRawBufferPointer(rebasing: c[start...]), into: $0) }
            }
            #expect(step.consumed > 0 || step.produced > 0)
            start += step.consumed
            out += buffer[0..<step.produced]
            if step.status == .streamEnded { members += 1 }
        }
        #expect(members == 2)
        #expect(out == a + b)
    }
}
