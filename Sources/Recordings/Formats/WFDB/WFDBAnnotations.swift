/// The annotations of a WFDB annotation file in MIT format (e.g. the reference beat labels
/// `100.atr` of the MIT-BIH Arrhythmia Database), read whole (annotation files hold about two
/// bytes per beat).
///
/// Format (annot(5)): a sequence of little-endian 16-bit words. The top 6 bits are the type code
/// `A`, the low 10 bits `I`. For `0 < A ≤ 49` the word is an annotation `I` samples after the
/// previous one (from sample 0 for the first). Pseudo-codes modify it or the time:
/// `SKIP` (59): the next 4 bytes are a 32-bit interval (high 16-bit word first, each word little
/// endian) added to the time, for intervals beyond 1023; `NUM` (60), `SUB` (61), `CHN` (62): `I`
/// sets the number, subtype or channel of the annotation (number and channel persist to the
/// following annotations; subtype and aux do not); `AUX` (63): the low 8 bits of `I` are a byte
/// count, followed by that many bytes of text padded to an even length. A zero word ends the
/// file. Modification labels and `## time resolution` notes (comment annotations at sample 0)
/// are returned as ordinary `"` annotations; AHA-format files are not read.
///
/// Source: PhysioNet WFDB Applications Guide, annot(5); WFDB library `annot.c` (`getann`;
/// G. B. Moody); Goldberger A. L. et al., Circulation 101(23):e215–e220, 2000,
/// doi:10.1161/01.CIR.101.23.e215.
public struct WFDBAnnotations: Sendable {
    /// The file read, as given by the caller.
    public var path: String
    /// All annotations in file order (time order for files written by the WFDB library).
    public var annotations: [WFDBAnnotation]
    /// Whether the file ends with the zero end-of-file word (a file without it is read to its
    /// last complete annotation).
    public var isTerminated: Bool

    /// The annotations that label beats (``WFDBAnnotationCode/isBeat``, ANSI/AAMI EC57).
    public var beats: [WFDBAnnotation] { annotations.filter { $0.code.isBeat } }

    /// Number of annotations of each code.
    /// - Complexity: O(annotations).
    public var counts: [WFDBAnnotationCode: Int] {
        var c = [WFDBAnnotationCode: Int]()
        for a in annotations { c[a.code, default: 0] += 1 }
        return c
    }

    /// Reads an annotation file (plain or gzip).
    /// - Parameter path: e.g. `100.atr`.
    /// - Throws: ``RecordingError`` `.truncated` (file ends inside a word, a `SKIP` interval or an
    ///   aux string), `.syntax` (a modifier before the first annotation), `.unsupported`
    ///   (AHA format), with the byte offset; or the errors of ``ByteSource``.
    /// - Complexity: O(file size).
    public init(path: String) throws(RecordingError) {
        let source = try ByteSource(path: path)
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { b in
                Result { () throws(RecordingError) -> Int in try source.read(into: b) }
            }.get()
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Parses annotation-file content already in memory.
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - path: the name used in error messages.
    /// - Throws: as ``init(path:)``.
    /// - Complexity: O(bytes).
    public init(bytes: [UInt8], path: String) throws(RecordingError) {
        self.path = path
        annotations = []
        isTerminated = false
        func word(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        if bytes.count >= 2 && bytes[0] == 0 && Array("EFNOPQRUV".utf8).contains(bytes[1]) {
            throw RecordingError(
                .unsupported, file: path, byteOffset: 0,
                "AHA-format annotation files are not read (MIT format expected)")
        }
        var i = 0
        var time = 0
        var channel = 0
        var number = 0
        var current: WFDBAnnotation?
        while true {
            guard i + 2 <= bytes.count else {
                if i < bytes.count {
                    throw RecordingError(
                        .truncated, file: path, byteOffset: i,
                        "the file ends inside a 16-bit annotation word")
                }
                break
            }
            let w = word(i)
            if w == 0 {
                isTerminated = true
                break
            }
            let code = w >> 10, data = w & 0x3ff
            switch code {
            case 59: // SKIP
                guard i + 6 <= bytes.count else {
                    throw RecordingError(
                        .truncated, file: path, byteOffset: i,
                        "SKIP needs a 4-byte interval; the file ends first")
                }
                let high = Int(Int16(truncatingIfNeeded: word(i + 2)))
                time += high << 16 | word(i + 4)
                i += 6
                continue
            case 60, 61, 62, 63:
                guard current != nil else {
                    throw RecordingError(
                        .syntax, file: path, byteOffset: i,
                        "modifier \(["NUM", "SUB", "CHN", "AUX"][code - 60]) before the first annotation")
                }
                switch code {
                case 60:
                    number = Int(Int8(truncatingIfNeeded: data))
                    current!.number = number
                case 61:
                    current!.subtype = Int(Int8(truncatingIfNeeded: data))
                case 62:
                    channel = data & 0xff
                    current!.channel = channel
                default:
                    let length = data & 0xff
                    let padded = (length + 1) & ~1
                    guard i + 2 + padded <= bytes.count else {
                        throw RecordingError(
                            .truncated, file: path, byteOffset: i,
                            "aux string of \(length) bytes runs past the end of the file")
                    }
                    var text = bytes[(i + 2)..<(i + 2 + length)]
                    while text.last == 0 { text.removeLast() }
                    current!.aux = String(String.UnicodeScalarView(text.map { Unicode.Scalar($0) }))
                    i += padded
                }
                i += 2
                continue
            default:
                if let c = current { annotations.append(c) }
                time += data
                current = WFDBAnnotation(
                    sample: time, code: WFDBAnnotationCode(rawValue: code),
                    channel: channel, number: number)
                i += 2
            }
        }
        if let c = current { annotations.append(c) }
    }
}
