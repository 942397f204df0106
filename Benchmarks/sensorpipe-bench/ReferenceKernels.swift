import CZlib
import Foundation

// Reference kernels for guarded ratios that are not FFT-based. Each is compute-bound (small
// working set, no memory-bandwidth or cache-size cliff), independent of the code under test
// (written here or taken from a Debian C library, so a change in Sources/ cannot move it), and
// costs time in proportion to the same count of samples or bytes as the case it guards.
// `memcpy` of the same bytes is still reported beside some cases, as information only: in quick
// mode it is a sub-millisecond, cache-resident copy whose time swings by tens of percent with
// what else runs on the machine, which made it an unfit denominator for a guard.

/// Order-4 Butterworth band-pass, 0.5–40 Hz at 512 Hz, as second-order sections: the output of
/// `scipy.signal.butter(4, [0.5, 40], 'band', fs=512, output='sos')` (SciPy 1.x), written out so
/// that the reference does not depend on DSP's filter design. Rows are b0 b1 b2 a1 a2 (a0 = 1).
private let referenceSOS: [(Float, Float, Float, Float, Float)] = [
    (1.9683998312956187e-03, 3.9367996625912375e-03, 1.9683998312956187e-03, -1.2435783646150400e+00, 4.0272585628473290e-01),
    (1, 2, 1, -1.5010554389440849e+00, 7.0055451184938167e-01),
    (1, -2, 1, -1.9884908200839428e+00, 9.8852987454277697e-01),
    (1, -2, 1, -1.9953588861046405e+00, 9.9539670906107591e-01),
]

/// One causal pass of ``referenceSOS`` over `count` Float samples, transposed direct form II,
/// the four sections unrolled with their state in locals: the textbook scalar loop, bound by the
/// latency of its recursion as every IIR filter is. `y` may equal `x`.
@inline(never)
func referenceSOSPass(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
    let (b00, b01, b02, a01, a02) = referenceSOS[0]
    let (b10, b11, b12, a11, a12) = referenceSOS[1]
    let (b20, b21, b22, a21, a22) = referenceSOS[2]
    let (b30, b31, b32, a31, a32) = referenceSOS[3]
    var z01: Float = 0, z02: Float = 0, z11: Float = 0, z12: Float = 0
    var z21: Float = 0, z22: Float = 0, z31: Float = 0, z32: Float = 0
    for i in 0..<count {
        let x0 = x[i]
        let y0 = b00 * x0 + z01
        z01 = b01 * x0 - a01 * y0 + z02
        z02 = b02 * x0 - a02 * y0
        let y1 = b10 * y0 + z11
        z11 = b11 * y0 - a11 * y1 + z12
        z12 = b12 * y0 - a12 * y1
        let y2 = b20 * y1 + z21
        z21 = b21 * y1 - a21 * y2 + z22
        z22 = b22 * y1 - a22 * y2
        let y3 = b30 * y2 + z31
        z31 = b31 * y2 - a31 * y3 + z32
        z32 = b32 * y2 - a32 * y3
        y[i] = y3
    }
}

/// The reference of streaming sample stages (IIR, resampling, R-peaks, quality, the ECG chain):
/// one ``referenceSOSPass`` over `count` samples of ``syntheticSignal(count:sampleRate:seed:)``,
/// the filtering pass every such signal gets anyway.
func sosReferenceCase(count: Int, name: String) -> BenchmarkCase {
    BenchmarkCase(name: name, samples: count, bytes: count * 4, reference: nil) {
        let x = syntheticSignal(count: count)
        var y = [Float](repeating: 0, count: count)
        return {
            x.withUnsafeBufferPointer { xb in
                y.withUnsafeMutableBufferPointer { referenceSOSPass(xb.baseAddress!, $0.baseAddress!, count: count) }
            }
            blackHole(y)
        }
    }
}

/// The reference of in-memory byte decoders (the WFDB frame decoder): zlib's `crc32` over the
/// same bytes (table-driven, compute-bound, reads every input byte once as the decoder must).
func crc32ReferenceCase(
    name: String, samples: Int, byteCount: Int,
    bytes: @escaping () -> [UInt8]
) -> BenchmarkCase {
    BenchmarkCase(name: name, samples: samples, bytes: byteCount, reference: nil) {
        let data = bytes()
        return {
            let crc = data.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
            blackHole(crc)
        }
    }
}

/// A benchmark input file written on first use into the scratch folder and shared by a case and
/// its reference (so both read the very same bytes through the page cache).
final class SharedBenchmarkFile {
    private let name: String
    private let make: () -> [UInt8]
    private var written: String?

    init(_ name: String, _ make: @escaping () -> [UInt8]) {
        self.name = name
        self.make = make
    }

    var path: String {
        if let written { return written }
        let p = benchmarkScratch.appendingPathComponent(name).path
        precondition(FileManager.default.createFile(atPath: p, contents: Data(make())), "cannot write \(p)")
        written = p
        return p
    }
}

/// The reference of file decoders (WFDB record, Apple Health CSV, CSV): `read(2)` of the same
/// file in 1 MiB chunks (the decoders' `ByteSource` chunk) with zlib's `crc32` over each chunk:
/// the same system calls and page-cache copies as the decoder, then compute-bound work on a
/// cache-resident buffer. An in-memory CRC alone left the decoders' file reading unmatched, and
/// the ratio swung by 2× with load.
func fileCRC32ReferenceCase(
    name: String, samples: Int, file: SharedBenchmarkFile,
    byteCount: Int = 0
) -> BenchmarkCase {
    BenchmarkCase(name: name, samples: samples, bytes: byteCount, reference: nil) {
        let path = file.path
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 64)
        return {
            let fd = open(path, O_RDONLY)
            precondition(fd >= 0, "cannot open \(path)")
            var crc: uLong = 0
            while true {
                let n = read(fd, buffer, chunk)
                precondition(n >= 0, "read \(path): errno \(errno)")
                if n == 0 { break }
                crc = crc32(crc, buffer.assumingMemoryBound(to: Bytef.self), uInt(n))
            }
            close(fd)
            blackHole(crc)
        }
    }
}

/// A file decoder's row and its reference (``fileCRC32ReferenceCase``) over the same generated file,
/// both sized after set-up from the file (MB/s).
/// - Parameters:
///   - name: the decoder's row.
///   - reference: the reference row's name.
///   - samples: what one run decodes (the figure's unit).
///   - file: the generated file.
///   - run: decodes the file at a path once and returns what it counted (kept from the optimiser).
/// - Returns: the reference, then the decoder's row.
func fileDecoderCases(
    name: String, reference: String, samples: Int, file: SharedBenchmarkFile, run: @escaping (String) -> Int
) -> [BenchmarkCase] {
    func sizes() -> (samples: Int, bytes: Int) {
        (samples, (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0)
    }
    var ref = fileCRC32ReferenceCase(name: reference, samples: samples, file: file)
    ref.sizesAfterSetUp = sizes
    var decode = BenchmarkCase(name: name, samples: samples, reference: reference) {
        let path = file.path // written in set-up, not in the first timed run
        return { blackHole(run(path)) }
    }
    decode.sizesAfterSetUp = sizes
    return [ref, decode]
}

/// `memcpy` of `bytes` bytes: information beside streaming stages (one pass over the input, the
/// floor of any of them), never a guarded reference (see the note at the top of this file).
func memcpyReferenceCase(bytes: Int, name: String) -> BenchmarkCase {
    BenchmarkCase(name: name, samples: bytes / 4, bytes: bytes, reference: nil) {
        let src = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let dst = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        memset(src, 1, bytes)
        memset(dst, 0, bytes)
        return {
            memcpy(dst, src, bytes)
            blackHole(dst)
        }
    }
}

/// The reference kernels shared by several areas, over a day of 512 Hz samples at `scale`.
func sharedReferenceBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let n = scale.dayAt512Hz
    return [
        sosReferenceCase(count: n, name: sosReferenceName),
        memcpyReferenceCase(bytes: n * 4, name: memcpyDayName),
    ]
}

/// One ``referenceSOSPass`` over a day of 512 Hz Float samples.
let sosReferenceName = "ref/sos-df2t-4/day512/float"
/// `memcpy` of a day of 512 Hz Float samples (information only).
let memcpyDayName = "memcpy/day512/float"
