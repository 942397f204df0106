/// Decodes the frames of one WFDB signal file (one *signal group*: the signals that share the
/// file, stored interleaved frame by frame) from raw bytes into physical sample columns.
///
/// A frame holds `samplesPerFrame[k]` consecutive samples of each signal `k`, in signal order;
/// the samples of all frames form one sample stream packed by the storage format (signal(5)):
/// - 8: 8-bit first differences (sample = previous + byte, starting from the initial value);
/// - 16 / 61: 16-bit two's complement, little / big endian; 24, 32: little-endian;
/// - 80 / 160: 8 / 16-bit offset binary (subtract 128 / 32,768);
/// - 212: two 12-bit samples in 3 bytes (sample 0 = bits 0–11 of the little-endian byte pair,
///   sample 1 = byte 2 plus the high nibble of byte 1 as bits 8–11);
/// - 310: three 10-bit samples in two little-endian 16-bit words (bits 1–10 of each word, the
///   third from bits 11–15 of both); 311: three 10-bit samples in bits 0–29 of a little-endian
///   32-bit word.
/// A trailing partial packet is read as the WFDB library writes it (one 212 sample in 2 bytes,
/// one or two 310/311 samples in 2 or 4 bytes).
///
/// The lowest value of each amplitude format (−32,768 for 16, −2,048 for 212, −512 for 310/311,
/// −128 for 80, −2²³ for 24, −2³¹ for 32) is `WFDB_INVALID_SAMPLE`: it decodes to NaN flagged
/// ``SampleFlags/missing`` but is counted in the checksum with its raw value, as the WFDB library
/// does. Physical values are `Float((adu − baseline) / gain × outputScale)`, computed in `Double`
/// and rounded once.
///
/// Checksums are the sums of the raw samples of each signal over the first `checksumFrames`
/// frames, reduced to 16 bits (header(5)).
///
/// Source: PhysioNet WFDB Applications Guide, signal(5) and header(5) (G. B. Moody); WFDB
/// library `signal.c` (`r212`, `r310`, `r311`, `getskewedframe`); Goldberger A. L. et al.,
/// Circulation 101(23):e215–e220, 2000, doi:10.1161/01.CIR.101.23.e215.
public struct WFDBFrameDecoder: Sendable {
    /// Storage format of the group.
    public let format: Int
    /// Samples per frame of each signal of the group.
    public let samplesPerFrame: [Int]
    /// Samples per frame of the whole group.
    public let samplesPerGroupFrame: Int
    /// Smallest number of frames whose samples fill whole bytes (1, 2 or 3).
    public let framesPerPacket: Int
    /// Frames counted in the checksums (`nil`: all).
    public let checksumFrames: Int?

    /// Frames decoded so far.
    public internal(set) var framesDecoded = 0
    /// Raw value of the first sample of each signal, once decoded.
    public internal(set) var firstValues: [Int?]
    /// Invalid-sample codes met so far per signal.
    public internal(set) var invalidCounts: [Int]
    var sums: [Int]
    var previous: [Int] // format 8 running values
    let baselines: [Double]
    let gains: [Double]
    let scales: [Double]
    let invalidCode: Int?
    var flat: [Int32] = []
    var tables: [[Float]] = [] // format-212 fast path: physical value per 12-bit pattern
    var ended = false

    /// Formats this decoder reads.
    public static let supportedFormats: Set<Int> = [8, 16, 24, 32, 61, 80, 160, 212, 310, 311]

    /// Creates a decoder for the signals of one file.
    /// - Parameters:
    ///   - signals: the group's specifications, in header order; all must have the same
    ///     supported format (programmer error otherwise).
    ///   - outputScale: factor applied to the physical value of each signal (e.g. 1000 for
    ///     mV → µV); default 1 for every signal.
    ///   - checksumFrames: frames counted in the checksums (the header's samples per signal),
    ///     `nil` for all frames.
    /// - Complexity: O(signals); O(4096) per signal for format 212 with two signals.
    public init(signals: [WFDBSignalSpec], outputScale: [Double]? = nil, checksumFrames: Int? = nil) {
        precondition(!signals.isEmpty, "a signal group has at least one signal")
        let fmt = signals[0].format
        precondition(signals.allSatisfy { $0.format == fmt }, "signals of a group share one format")
        precondition(Self.supportedFormats.contains(fmt), "unsupported WFDB format \(fmt)")
        precondition(outputScale == nil || outputScale!.count == signals.count)
        format = fmt
        samplesPerFrame = signals.map(\.samplesPerFrame)
        samplesPerGroupFrame = samplesPerFrame.reduce(0, +)
        let perPacket = fmt == 212 ? 2 : (fmt == 310 || fmt == 311 ? 3 : 1)
        var fpp = 1
        while (fpp * samplesPerGroupFrame) % perPacket != 0 { fpp += 1 }
        framesPerPacket = fpp
        self.checksumFrames = checksumFrames
        firstValues = Array(repeating: nil, count: signals.count)
        invalidCounts = Array(repeating: 0, count: signals.count)
        sums = Array(repeating: 0, count: signals.count)
        previous = signals.map(\.initialValue)
        baselines = signals.map { Double($0.baseline) }
        gains = signals.map(\.effectiveGain)
        scales = outputScale ?? Array(repeating: 1, count: signals.count)
        switch fmt {
        case 16, 61, 160: invalidCode = -32_768
        case 24: invalidCode = -(1 << 23)
        case 32: invalidCode = Int(Int32.min)
        case 80: invalidCode = -128
        case 212: invalidCode = -2048
        case 310, 311: invalidCode = -512
        default: invalidCode = nil
        }
        if fmt == 212 && samplesPerFrame == [1, 1] {
            tables = (0..<2).map { k in
                (0..<4096).map { p in
                    let v = p >= 2048 ? p - 4096 : p
                    return v == -2048 ? Float.nan : physical(v, k)
                }
            }
        }
    }

    /// Physical value of raw sample `v` of signal `k` (the single definition every path uses).
    @inline(__always)
    func physical(_ v: Int, _ k: Int) -> Float {
        Float((Double(v) - baselines[k]) / gains[k] * scales[k])
    }

    /// Checksum of each signal so far: the sum of its raw samples over at most
    /// ``checksumFrames`` frames, as a signed 16-bit value (−32,768…32,767).
    public var checksums: [Int] { sums.map { Int(Int16(truncatingIfNeeded: $0)) } }

    /// Bytes that hold `frames` frames from a packet boundary (a trailing partial packet as the
    /// WFDB library writes it).
    /// - Parameter frames: number of frames.
    /// - Returns: byte count.
    /// - Complexity: O(1).
    public func byteCount(frames: Int) -> Int {
        let n = frames * samplesPerGroupFrame
        switch format {
        case 8, 80: return n
        case 16, 61, 160: return 2 * n
        case 24: return 3 * n
        case 32: return 4 * n
        case 212: return n / 2 * 3 + (n % 2) * 2
        case 310: return n / 3 * 4 + [0, 2, 4][n % 3]
        default: return n / 3 * 4 + [0, 2, 3][n % 3] // 311
        }
    }

    /// Decodes `frames` frames into one column and one flag array per signal.
    ///
    /// Calls continue the group's sample stream; every call but the last must cover a multiple
    /// of ``framesPerPacket`` frames.
    /// - Parameters:
    ///   - bytes: at least ``byteCount(frames:)`` bytes of the signal file, from a packet boundary.
    ///   - frames: frames to decode.
    ///   - columns: per signal, room for `frames × samplesPerFrame[k]` physical values.
    ///   - flags: per signal, room for as many ``SampleFlags`` raw values (`missing` for invalid
    ///     samples, 0 otherwise).
    /// - Complexity: O(frames × samplesPerGroupFrame).
    public mutating func decode(
        _ bytes: UnsafeRawBufferPointer, frames: Int,
        into columns: [UnsafeMutableBufferPointer<Float>],
        flags: [UnsafeMutableBufferPointer<UInt8>]
    ) {
        precondition(!ended, "only the last call may end inside a packet")
        precondition(frames >= 0 && bytes.count >= byteCount(frames: frames), "not enough bytes")
        precondition(columns.count == samplesPerFrame.count && flags.count == samplesPerFrame.count)
        for k in 0..<samplesPerFrame.count {
            precondition(columns[k].count >= frames * samplesPerFrame[k] && flags[k].count >= frames * samplesPerFrame[k])
        }
        guard frames > 0 else { return }
        if frames % framesPerPacket != 0 { ended = true }
        if !tables.isEmpty {
            decode212Pairs(
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), frames: frames,
                columns: columns, flags: flags)
        } else {
            decodeGeneral(bytes, frames: frames, columns: columns, flags: flags)
        }
        framesDecoded += frames
    }

    /// Frames of this call that count in the checksum.
    func checksummed(_ frames: Int) -> Int {
        guard let limit = checksumFrames else { return frames }
        return max(0, min(frames, limit - framesDecoded))
    }
}
