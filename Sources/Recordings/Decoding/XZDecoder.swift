import CLZMA

/// One liblzma `.xz` decoding stream (the xz file format 1.0, Tukaani Project; concatenated
/// streams and stream padding accepted, as `xz -dc` does), used by ``ByteSource``.
///
/// Memory is bounded by ``memoryLimit``: a file whose dictionary needs more fails with a clear
/// message instead of growing the process (`xz -9` needs about 65 MiB to decode).
final class XZDecoder {
    /// Most memory liblzma may use for one stream, bytes (128 MiB).
    static let memoryLimit: UInt64 = 128 << 20

    /// How one call of ``decode(from:into:finishing:)`` ended.
    enum Status: Equatable {
        /// Progress (or none possible): give more input or more output room.
        case progressed
        /// The last stream ended and its checks matched.
        case streamEnded
        /// The input ended inside a stream.
        case truncated
        /// Corrupt data, an unsupported option, or the memory limit; the reason in words.
        case failed(reason: String)
    }

    /// liblzma could not set up a decoder.
    struct SetupError: Error {
        let reason: String
    }

    private let stream: UnsafeMutablePointer<lzma_stream>
    /// Whether the end of the last stream was reached.
    private(set) var hasEnded = false

    /// Sets up a decoder with ``memoryLimit``.
    /// - Throws: ``SetupError`` when liblzma fails (out of memory).
    init() throws(SetupError) {
        let s = UnsafeMutablePointer<lzma_stream>.allocate(capacity: 1)
        s.initialize(to: lzma_stream()) // all zero: LZMA_STREAM_INIT
        // 0x08 = LZMA_CONCATENATED (a function-like macro that Swift does not import).
        let rc = lzma_stream_decoder(s, Self.memoryLimit, 0x08)
        guard rc == LZMA_OK else {
            s.deinitialize(count: 1)
            s.deallocate()
            throw SetupError(reason: Self.reason(rc))
        }
        stream = s
    }

    deinit {
        lzma_end(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    static func reason(_ rc: lzma_ret) -> String {
        switch rc {
        case LZMA_MEM_ERROR: return "liblzma ran out of memory"
        case LZMA_MEMLIMIT_ERROR:
            return "decoding needs more than the \(memoryLimit >> 20) MiB memory limit (dictionary too large)"
        case LZMA_FORMAT_ERROR: return "not .xz data (bad stream header)"
        case LZMA_OPTIONS_ERROR: return "unsupported .xz compression options"
        case LZMA_DATA_ERROR: return "corrupt .xz data"
        case LZMA_BUF_ERROR: return "the .xz data end inside a stream"
        case LZMA_UNSUPPORTED_CHECK: return "unsupported .xz integrity check"
        default: return "liblzma error \(rc.rawValue)"
        }
    }

    /// Decodes as much of `input` into `output` as liblzma can in one call.
    /// - Parameters:
    ///   - input: compressed bytes; the first `consumed` are used up.
    ///   - output: room for decoded bytes, filled from its start.
    ///   - finishing: no input follows `input` (the end of the file).
    /// - Returns: bytes consumed and produced, and the status.
    /// - Complexity: O(`input.count` + `output.count`).
    func decode(
        from input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        finishing: Bool
    ) -> (consumed: Int, produced: Int, status: Status) {
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_in = input.count
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = output.count
        let rc = lzma_code(stream, finishing ? LZMA_FINISH : LZMA_RUN)
        let consumed = input.count - stream.pointee.avail_in
        let produced = output.count - stream.pointee.avail_out
        let status: Status
        switch rc {
        case LZMA_OK: status = .progressed
        case LZMA_STREAM_END:
            hasEnded = true
            status = .streamEnded
        case LZMA_BUF_ERROR:
            // No progress possible: at the end of the input this is a truncated stream.
            status = finishing ? .truncated : .progressed
        default: status = .failed(reason: Self.reason(rc))
        }
        return (consumed, produced, status)
    }
}
