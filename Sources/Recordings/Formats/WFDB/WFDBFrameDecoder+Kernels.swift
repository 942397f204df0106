extension WFDBFrameDecoder {
    /// Format 212, two signals of one sample per frame (MIT-BIH and most PhysioBank records).
    mutating func decode212Pairs(
        _ src: UnsafePointer<UInt8>, frames: Int,
        columns: [UnsafeMutableBufferPointer<Float>],
        flags: [UnsafeMutableBufferPointer<UInt8>]
    ) {
        if framesDecoded == 0 {
            let p0 = Int(src[0]) | (Int(src[1] & 0x0f) << 8)
            let p1 = Int(src[2]) | (Int(src[1] & 0xf0) << 4)
            firstValues = [p0 >= 2048 ? p0 - 4096 : p0, p1 >= 2048 ? p1 - 4096 : p1]
        }
        let counted = checksummed(frames)
        let o0 = columns[0].baseAddress!, o1 = columns[1].baseAddress!
        let (a, _) = tables[0].withUnsafeBufferPointer { t0 in
            tables[1].withUnsafeBufferPointer { t1 in
                Self.signExtended12.withUnsafeBufferPointer { se in
                    (
                        Self.unpack212x2(src, 0..<counted, t0.baseAddress!, t1.baseAddress!, se.baseAddress!, o0, o1),
                        Self.unpack212x2(src, counted..<frames, t0.baseAddress!, t1.baseAddress!, se.baseAddress!, o0, o1)
                    )
                }
            }
        }
        sums[0] &+= a.0
        sums[1] &+= a.1
        // Only the invalid pattern maps to NaN: flag from the output, in a vectorisable pass.
        for k in 0..<2 {
            let out = columns[k].baseAddress!, fl = flags[k].baseAddress!
            if Self.containsNaN(out, frames) {
                invalidCounts[k] += Self.flagNaNs(out, fl, frames)
            } else {
                fl.update(repeating: 0, count: frames)
            }
        }
    }

    /// Value of each 12-bit two's-complement pattern.
    static let signExtended12: [Int32] = (0..<4096).map { Int32($0 >= 2048 ? $0 - 4096 : $0) }

    /// The format-212 hot loop: 3 bytes → 2 samples; the 12-bit pattern indexes a 4096-entry
    /// table of physical values (the invalid pattern 0x800 maps to NaN) and one of signed values
    /// for the checksums. Flags are set afterwards.
    @inline(__always)
    static func unpack212x2(
        _ src: UnsafePointer<UInt8>, _ range: Range<Int>,
        _ t0: UnsafePointer<Float>, _ t1: UnsafePointer<Float>, _ se: UnsafePointer<Int32>,
        _ o0: UnsafeMutablePointer<Float>, _ o1: UnsafeMutablePointer<Float>
    ) -> (Int, Int) {
        var s0 = 0, s1 = 0
        var p = src + 3 * range.lowerBound
        for i in range {
            let b0 = Int(p[0]), b1 = Int(p[1]), b2 = Int(p[2])
            let v0 = b0 | ((b1 & 0x0f) << 8)
            let v1 = b2 | ((b1 & 0xf0) << 4)
            o0[i] = t0[v0]
            o1[i] = t1[v1]
            s0 &+= Int(se[v0])
            s1 &+= Int(se[v1])
            p += 3
        }
        return (s0, s1)
    }

    /// Whether any of `n` values is NaN (integer test on the bit patterns, so it vectorises:
    /// |x| > +∞ ⇔ adding 0x7fffff carries into the sign bit).
    @inline(__always)
    static func containsNaN(_ x: UnsafePointer<Float>, _ n: Int) -> Bool {
        var acc: UInt32 = 0
        for i in 0..<n { acc |= (x[i].bitPattern & 0x7fff_ffff) &+ 0x007f_ffff }
        return acc & 0x8000_0000 != 0
    }

    /// Writes ``SampleFlags/missing`` where a value is NaN, 0 elsewhere; returns the NaN count.
    static func flagNaNs(_ x: UnsafePointer<Float>, _ f: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        let missing = SampleFlags.missing.rawValue
        var count = 0
        for i in 0..<n {
            let nan = x[i].isNaN
            f[i] = nan ? missing : 0
            count &+= nan ? 1 : 0
        }
        return count
    }

    /// Any format and layout: unpack the group's sample stream, then split it by signal.
    mutating func decodeGeneral(
        _ bytes: UnsafeRawBufferPointer, frames: Int,
        columns: [UnsafeMutableBufferPointer<Float>],
        flags: [UnsafeMutableBufferPointer<UInt8>]
    ) {
        let nn = samplesPerGroupFrame
        let n = frames * nn
        if flat.count < n { flat = [Int32](repeating: 0, count: n) }
        let fmt = format
        flat.withUnsafeMutableBufferPointer { out in
            Self.unpackStream(
                format: fmt, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                count: n, into: out.baseAddress!)
        }
        let counted = checksummed(frames)
        let missing = SampleFlags.missing.rawValue
        let invalid = invalidCode ?? Int.min
        let differences = format == 8
        let first = framesDecoded == 0
        var offset = 0
        for k in 0..<samplesPerFrame.count {
            let spf = samplesPerFrame[k]
            let baseline = baselines[k], gain = gains[k], scale = scales[k]
            var prev = previous[k]
            var sum = 0, bad = 0
            let out = columns[k].baseAddress!, fl = flags[k].baseAddress!
            flat.withUnsafeBufferPointer { src in
                var w = 0
                for f in 0..<frames {
                    let row = f * nn + offset
                    for j in 0..<spf {
                        var v = Int(src[row + j])
                        if differences { prev &+= v; v = prev }
                        if f < counted { sum &+= v }
                        if v == invalid {
                            out[w] = .nan
                            fl[w] = missing
                            bad += 1
                        } else {
                            out[w] = Float((Double(v) - baseline) / gain * scale)
                            fl[w] = 0
                        }
                        w += 1
                    }
                }
            }
            if first {
                let v0 = Int(flat[offset])
                firstValues[k] = differences ? previous[k] &+ v0 : v0
            }
            previous[k] = prev
            sums[k] &+= sum
            invalidCounts[k] += bad
            offset += spf
        }
    }

    /// Unpacks `count` samples of a group's stream (from a packet boundary; a trailing partial
    /// packet as the WFDB library writes it) into 32-bit values. Format 8 yields the raw
    /// differences.
    static func unpackStream(
        format: Int, _ p: UnsafePointer<UInt8>, count n: Int,
        into out: UnsafeMutablePointer<Int32>
    ) {
        switch format {
        case 8:
            for i in 0..<n { out[i] = Int32(Int8(bitPattern: p[i])) }
        case 80:
            for i in 0..<n { out[i] = Int32(p[i]) - 128 }
        case 16:
            for i in 0..<n { out[i] = Int32(Int16(bitPattern: UInt16(p[2 * i]) | UInt16(p[2 * i + 1]) << 8)) }
        case 61:
            for i in 0..<n { out[i] = Int32(Int16(bitPattern: UInt16(p[2 * i + 1]) | UInt16(p[2 * i]) << 8)) }
        case 160:
            for i in 0..<n { out[i] = Int32(UInt16(p[2 * i]) | UInt16(p[2 * i + 1]) << 8) - 32_768 }
        case 24:
            for i in 0..<n {
                let u = UInt32(p[3 * i]) | UInt32(p[3 * i + 1]) << 8 | UInt32(p[3 * i + 2]) << 16
                out[i] = Int32(bitPattern: u << 8) >> 8
            }
        case 32:
            for i in 0..<n {
                out[i] = Int32(
                    bitPattern: UInt32(p[4 * i]) | UInt32(p[4 * i + 1]) << 8
                        | UInt32(p[4 * i + 2]) << 16 | UInt32(p[4 * i + 3]) << 24)
            }
        case 212:
            let pairs = n / 2
            for i in 0..<pairs {
                let b0 = Int32(p[3 * i]), b1 = Int32(p[3 * i + 1]), b2 = Int32(p[3 * i + 2])
                out[2 * i] = ((b0 | (b1 & 0x0f) << 8) << 20) >> 20
                out[2 * i + 1] = ((b2 | (b1 & 0xf0) << 4) << 20) >> 20
            }
            if n % 2 == 1 {
                let q = p + 3 * pairs
                out[n - 1] = ((Int32(q[0]) | (Int32(q[1]) & 0x0f) << 8) << 20) >> 20
            }
        case 310:
            let triples = n / 3
            func unpack(_ q: UnsafePointer<UInt8>, _ o: UnsafeMutablePointer<Int32>, _ m: Int) {
                let w0 = Int32(q[0]) | Int32(q[1]) << 8
                let w1 = m > 1 ? Int32(q[2]) | Int32(q[3]) << 8 : 0
                o[0] = (((w0 >> 1) & 0x3ff) << 22) >> 22
                if m > 1 { o[1] = (((w1 >> 1) & 0x3ff) << 22) >> 22 }
                if m > 2 { o[2] = ((((w0 & 0xf800) >> 11) | ((w1 & 0xf800) >> 6)) << 22) >> 22 }
            }
            for i in 0..<triples { unpack(p + 4 * i, out + 3 * i, 3) }
            if n % 3 != 0 { unpack(p + 4 * triples, out + 3 * triples, n % 3) }
        default: // 311
            let triples = n / 3
            func unpack(_ q: UnsafePointer<UInt8>, _ o: UnsafeMutablePointer<Int32>, _ m: Int) {
                var w = UInt32(q[0]) | UInt32(q[1]) << 8
                if m > 1 { w |= UInt32(q[2]) << 16 }
                if m > 2 { w |= UInt32(q[3]) << 24 }
                for j in 0..<m { o[j] = (Int32(bitPattern: (w >> (10 * UInt32(j))) & 0x3ff) << 22) >> 22 }
            }
            for i in 0..<triples { unpack(p + 4 * i, out + 3 * i, 3) }
            if n % 3 != 0 { unpack(p + 4 * triples, out + 3 * triples, n % 3) }
        }
    }
}
