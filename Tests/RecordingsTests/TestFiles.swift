import CZlib
import Foundation

/// gzip-compresses `bytes` with zlib (one member).
func gzip(_ bytes: [UInt8]) -> [UInt8] {
    deflated(bytes, windowBits: 15 + 16)
}

/// Compresses `bytes` with zlib's deflate: window bits 15 + 16 give gzip, 15 zlib, −15 raw deflate.
func deflated(_ bytes: [UInt8], windowBits: Int32) -> [UInt8] {
    var s = z_stream()
    precondition(
        deflateInit2_(
            &s, 6, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size)) == Z_OK)
    var input = bytes
    var out = [UInt8](repeating: 0, count: Int(deflateBound(&s, uLong(bytes.count))) + 64)
    let produced: Int = input.withUnsafeMutableBufferPointer { i in
        out.withUnsafeMutableBufferPointer { o in
            s.next_in = i.baseAddress
            s.avail_in = uInt(i.count)
            s.next_out = o.baseAddress
            s.avail_out = uInt(o.count)
            precondition(deflate(&s, Z_FINISH) == Z_STREAM_END)
            return o.count - Int(s.avail_out)
        }
    }
    deflateEnd(&s)
    return Array(out[0..<produced])
}
