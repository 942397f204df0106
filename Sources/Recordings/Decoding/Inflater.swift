import CZlib

/// One zlib inflate stream (RFC 1950 zlib, RFC 1952 gzip or RFC 1951 raw deflate data), shared
/// by every reader of compressed data: ``ByteSource`` (gzip members), ``MATDataCursor``
/// (`miCOMPRESSED` MAT-file elements) and ``ZipEntryReader`` (deflated ZIP entries).
///
/// The caller owns the output buffer and its own error messages (they name its file and byte
/// offsets); the inflater owns the `z_stream`, at a fixed address as zlib requires, and ends it
/// exactly once, in `deinit`. Input comes from a buffer of the caller's
/// (``inflate(from:into:)``) or, for readers that fetch compressed bytes on demand, from the
/// inflater's own input buffer filled by a closure (``inflate(into:refill:)``).
final class Inflater {
    /// The framing of the compressed data.
    enum Format {
        /// gzip or zlib, told apart by the header (window bits 15 + 32); after the end of a gzip
        /// member ``reset()`` starts the next one.
        case gzipOrZlib
        /// zlib (window bits 15, as `inflateInit`).
        case zlib
        /// Raw deflate without header or trailer (window bits −15), as in ZIP entries.
        case rawDeflate

        var windowBits: Int32 {
            switch self {
            case .gzipOrZlib: return 15 + 32
            case .zlib: return 15
            case .rawDeflate: return -15
            }
        }
    }

    /// zlib could not set up a stream (`inflateInit2` failed, usually for lack of memory).
    struct SetupError: Error {
        /// zlib's return code.
        let code: Int32
    }

    /// What one call of ``inflate(from:into:)`` or ``inflate(into:refill:)`` did.
    struct Step {
        /// How it ended.
        enum Status: Equatable {
            /// zlib made progress, or none was possible (`Z_OK`, `Z_BUF_ERROR`): give it more input
            /// or more output room.
            case progressed
            /// The end marker was reached (`Z_STREAM_END`), and the zlib or gzip checksum matched.
            case streamEnded
            /// The data are corrupt or zlib failed; the reason is zlib's message (or its code).
            case failed(reason: String)
        }

        /// Input bytes consumed (also when the status is ``Status/failed(reason:)``).
        let consumed: Int
        /// Output bytes written at the start of the output buffer.
        let produced: Int
        /// How the call ended.
        let status: Status
    }

    private let stream: UnsafeMutablePointer<z_stream>
    /// Whether the stream reached its end marker (until ``reset()``).
    private(set) var hasEnded = false
    // Input buffer of ``inflate(into:refill:)``; `ownInput[inputStart..<inputEnd]` is unconsumed.
    private let ownInput: UnsafeMutableRawBufferPointer
    private var inputStart = 0
    private var inputEnd = 0

    /// Sets up a stream for `format`.
    /// - Parameters:
    ///   - format: gzip or zlib (detected), zlib, or raw deflate.
    ///   - inputBufferSize: bytes of the own input buffer that ``inflate(into:refill:)`` needs
    ///     (default 0: none, for ``inflate(from:into:)`` only).
    /// - Throws: ``SetupError`` with zlib's code if `inflateInit2` fails.
    /// - Complexity: O(1); zlib allocates its window on first use.
    init(_ format: Format, inputBufferSize: Int = 0) throws(SetupError) {
        let s = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        s.initialize(to: z_stream())
        let rc = inflateInit2_(s, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else {
            s.deinitialize(count: 1)
            s.deallocate()
            throw SetupError(code: rc)
        }
        stream = s
        ownInput = .allocate(byteCount: max(inputBufferSize, 0), alignment: 1)
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        ownInput.deallocate()
    }

    /// Compressed bytes that the `refill` of ``inflate(into:refill:)`` delivered and zlib has not
    /// consumed yet (a reader subtracts them from its file position to locate a corrupt byte).
    var bufferedInputCount: Int { inputEnd - inputStart }

    /// Inflates as much of `input` into `output` as zlib can in one call (`Z_NO_FLUSH`).
    ///
    /// `Z_BUF_ERROR` (no progress possible) counts as ``Step/Status/progressed``: zlib returns it
    /// only when it neither consumed nor produced a byte, so the caller sees a step with
    /// `consumed == 0 && produced == 0`.
    /// - Parameters:
    ///   - input: compressed bytes; the first ``Step/consumed`` of them are used up.
    ///   - output: room for inflated bytes, filled from its start.
    /// - Returns: the bytes consumed and produced, and whether the stream ended or failed.
    /// - Complexity: O(`input.count` + `output.count`).
    func inflate(from input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Step {
        // zlib's `next_in` is not const-qualified but is never written through.
        stream.pointee.next_in = input.baseAddress.map {
            UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: Bytef.self)
        }
        stream.pointee.avail_in = uInt(input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let rc = CZlib.inflate(stream, Z_NO_FLUSH)
        let consumed = input.count - Int(stream.pointee.avail_in)
        let produced = output.count - Int(stream.pointee.avail_out)
        let status: Step.Status
        switch rc {
        case Z_OK, Z_BUF_ERROR:
            status = .progressed
        case Z_STREAM_END:
            hasEnded = true
            status = .streamEnded
        default:
            status = .failed(reason: stream.pointee.msg.map { String(cString: $0) } ?? "code \(rc)")
        }
        return Step(consumed: consumed, produced: produced, status: status)
    }

    /// Inflates into `output` until it is full, the stream ends or the data prove corrupt, taking
    /// compressed bytes from the inflater's own input buffer, which `refill` fills whenever it
    /// runs dry.
    /// - Parameters:
    ///   - output: room for inflated bytes, filled from its start.
    ///   - refill: writes compressed bytes at the start of the buffer it is given and returns how
    ///     many (at least 1); when none are left it throws its caller's error instead.
    /// - Returns: the input bytes consumed and the bytes produced; the status is
    ///   ``Step/Status/streamEnded`` if the end marker was reached, ``Step/Status/failed(reason:)``
    ///   for corrupt data, otherwise ``Step/Status/progressed`` with `output` full.
    /// - Throws: what `refill` throws.
    /// - Complexity: O(bytes consumed + `output.count`).
    func inflate<E: Error>(
        into output: UnsafeMutableRawBufferPointer,
        refill: (UnsafeMutableRawBufferPointer) throws(E) -> Int
    ) throws(E) -> Step {
        precondition(ownInput.count > 0, "an Inflater made without an input buffer")
        var consumed = 0, produced = 0
        while produced < output.count && !hasEnded {
            if inputStart == inputEnd {
                let got = try refill(ownInput)
                precondition(got > 0 && got <= ownInput.count, "refill must deliver 1…\(ownInput.count) bytes or throw")
                inputStart = 0
                inputEnd = got
            }
            let step = inflate(
                from: UnsafeRawBufferPointer(rebasing: ownInput[inputStart..<inputEnd]),
                into: UnsafeMutableRawBufferPointer(rebasing: output[produced...]))
            inputStart += step.consumed
            consumed += step.consumed
            produced += step.produced
            if case .failed = step.status {
                return Step(consumed: consumed, produced: produced, status: step.status)
            }
        }
        return Step(consumed: consumed, produced: produced, status: hasEnded ? .streamEnded : .progressed)
    }

    /// Starts a new stream of the same format after the end of one: the next member of a
    /// concatenated gzip file (RFC 1952 §2.2).
    /// - Complexity: O(1); the window is kept.
    func reset() {
        inflateReset(stream)
        hasEnded = false
    }
}
