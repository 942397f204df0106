#if canImport(Glibc)
    import Glibc
#endif

/// One top-level variable of a MAT-file, as listed by ``MATFile``.
struct MATVariable: Sendable {
    /// The variable's name.
    var name: String
    /// Raw class code (low byte of the array flags).
    var classCode: UInt8
    /// The class, if it is one of MATLAB's known classes.
    var arrayClass: MATArrayClass? { MATArrayClass(rawValue: classCode) }
    /// Whether the array has an imaginary part.
    var isComplex: Bool
    /// Dimensions (at least two).
    var dimensions: [Int]
    /// File offset of the top-level data element's tag.
    var elementOffset: Int
    /// Whether the element is `miCOMPRESSED`.
    var compressed: Bool
    /// File range of the element stream the cursor reads: for a compressed element the zlib
    /// stream, otherwise the `miMATRIX` element itself (tag included).
    var streamStart: Int
    var streamLength: Int
    /// Storage type of the real part (numeric classes only).
    var dataType: MATDataType?
    /// Offset of the real part's first byte in the element stream.
    var dataOffset = 0
    /// Byte count of the real part.
    var dataBytes = 0
    /// The real part's bytes when stored in the small data element format (at most 4 bytes).
    var inlineData: [UInt8]?

    /// Number of elements (product of the dimensions), `nil` if the product overflows.
    var elementCount: Int? {
        var n = 1
        for d in dimensions {
            let (p, overflow) = n.multipliedReportingOverflow(by: d)
            if overflow { return nil }
            n = p
        }
        return n
    }

    /// `rows×columns` as MATLAB prints it.
    var shapeDescription: String { dimensions.map(String.init).joined(separator: "×") }
}

/// A MATLAB Level 5 MAT-file opened for reading: the 128-byte header checked and the top-level
/// variables listed (names, classes, dimensions, where their data start), without reading any
/// variable's data.
///
/// Format: The MathWorks, Inc., "MAT-File Format" (Level 5; the document shipped with MATLAB
/// R2013b and later, chapter 1 "Level 5 MAT-File Format"): a 128-byte header (116 bytes of
/// text, 8 bytes of subsystem data offset, a 2-byte version 0x0100 and the 2-byte endian
/// indicator "IM"/"MI"), then data elements, each an 8-byte tag (type, byte count) — or the
/// 4-byte small data element format for ≤ 4 bytes — followed by data padded to 8 bytes.
/// `miCOMPRESSED` elements (MATLAB ≥ 7, the default `-v7` format) hold one zlib stream
/// (RFC 1950) that inflates to a complete `miMATRIX` element.
final class MATFile {
    let path: String
    let fd: Int32
    let fileSize: Int
    /// Whether values must be byte-swapped (big-endian file on a little-endian host).
    let swap: Bool
    /// The header's descriptive text, trailing spaces and NULs removed.
    let headerText: String
    /// Top-level variables in file order.
    private(set) var variables: [MATVariable] = []

    init(path: String) throws(RecordingError) {
        self.path = path
        let (fd, fileSize) = try RegularFile.open(path)
        self.fd = fd
        self.fileSize = fileSize
        var header = [UInt8](repeating: 0, count: 128)
        let got = header.withUnsafeMutableBytes { b in pread(fd, b.baseAddress!, 128, 0) }
        let file = path
        func fail(_ code: RecordingError.Code, _ offset: Int, _ message: String) -> RecordingError {
            RecordingError(code, file: file, byteOffset: offset, message)
        }
        guard fileSize > 0 else {
            close(fd)
            throw RecordingError(.empty, file: path, "the file is empty")
        }
        guard got == 128 else {
            close(fd)
            throw fail(.truncated, max(got, 0), "the file has \(fileSize) bytes; a MAT-file starts with a 128-byte header")
        }
        if header[0..<4].contains(0) {
            close(fd)
            throw fail(
                .unknownFormat, 0,
                "a zero byte in the first 4 bytes: a Level 4 MAT-file or not a MAT-file "
                    + "(only Level 5 is supported)")
        }
        let indicator = (header[126], header[127])
        if indicator == (0x49, 0x4D) { // "IM": written little-endian
            swap = false
        } else if indicator == (0x4D, 0x49) { // "MI": written big-endian
            swap = true
        } else {
            close(fd)
            let hex = String(header[126], radix: 16) + " " + String(header[127], radix: 16)
            throw fail(
                .unknownFormat, 126,
                "expected the endian indicator 'IM' (little-endian) or 'MI' "
                    + "(big-endian), found bytes \(hex): not a MATLAB Level 5 MAT-file")
        }
        let version =
            swap
            ? UInt16(header[124]) << 8 | UInt16(header[125])
            : UInt16(header[125]) << 8 | UInt16(header[124])
        guard version == 0x0100 else {
            close(fd)
            let hex = "0x" + String(version, radix: 16, uppercase: false)
            if version == 0x0200 {
                throw fail(
                    .unsupportedVersion, 124,
                    "version \(hex) is a MATLAB 7.3 (HDF5) MAT-file; only Level 5 "
                        + "(version 0x100, e.g. save -v7) is supported")
            }
            throw fail(.unsupportedVersion, 124, "expected MAT-file version 0x100 (Level 5), found \(hex)")
        }
        var textEnd = 116
        while textEnd > 0 && (header[textEnd - 1] == 0x20 || header[textEnd - 1] == 0) { textEnd -= 1 }
        headerText = String(decoding: header[0..<textEnd], as: UTF8.self)
        try scan() // fully initialised here: on error, deinit closes the file
    }

    deinit { close(fd) }

    func u32(_ b: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        let v = b.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return swap ? v.byteSwapped : v
    }

    /// Lists the top-level data elements.
    private func scan() throws(RecordingError) {
        var p = 128
        var tag = [UInt8](repeating: 0, count: 8)
        while p < fileSize {
            guard fileSize - p >= 8 else {
                throw RecordingError(
                    .truncated, file: path, byteOffset: p,
                    "expected an 8-byte data element tag, but only \(fileSize - p) bytes remain")
            }
            let got = tag.withUnsafeMutableBytes { b in pread(fd, b.baseAddress!, 8, off_t(p)) }
            guard got == 8 else {
                throw RecordingError(.unreadable, file: path, byteOffset: p, "could not read a data element tag")
            }
            let (type, count) = tag.withUnsafeBytes { b in (u32(b, 0), Int(u32(b, 4))) }
            guard type >> 16 == 0 else {
                throw RecordingError(
                    .syntax, file: path, byteOffset: p,
                    "a top-level data element uses the small format (type \(type & 0xFFFF)); "
                        + "expected miMATRIX (14) or miCOMPRESSED (15)")
            }
            let kind = MATDataType(rawValue: type)
            guard count <= fileSize - p - 8 else {
                throw RecordingError(
                    .truncated, file: path, byteOffset: p,
                    "data element (\(kind?.documentName ?? "type \(type)")) declares \(count) bytes, "
                        + "but the file ends \(fileSize - p - 8) bytes after its tag")
            }
            switch kind {
            case .compressed:
                let c = try MATDataCursor(fd: fd, path: path, start: p + 8, length: count, compressed: true)
                if let v = try readMatrixHeader(c, elementOffset: p) { variables.append(v) }
                p += 8 + count
            case .matrix:
                let c = try MATDataCursor(fd: fd, path: path, start: p, length: 8 + count, compressed: false)
                if let v = try readMatrixHeader(c, elementOffset: p) { variables.append(v) }
                p += 8 + (count + 7) / 8 * 8
            default:
                p += 8 + (count + 7) / 8 * 8 // not a variable: skip
            }
        }
    }

    /// Reads a data element tag from `c`.
    /// - Returns: type, byte count, and the data when the small data element format is used.
    /// - Throws: `.syntax` for a small data element declaring more than the 4 bytes it can hold.
    func readTag(_ c: MATDataCursor, what: String) throws(RecordingError) -> (type: UInt32, count: Int, small: [UInt8]?) {
        var t = [UInt8](repeating: 0, count: 8)
        let at = c.position
        try MATDataCursor.withBytes(of: &t) { b throws(RecordingError) in try c.readExactly(into: b, what: what) }
        let tag = t.withUnsafeBytes { b -> (type: UInt32, count: Int, small: [UInt8]?) in
            let first = u32(b, 0)
            if first >> 16 != 0 {
                let n = Int(first >> 16)
                return (first & 0xFFFF, n, Array(b[4..<(4 + min(n, 4))]))
            }
            return (first, Int(u32(b, 4)), nil)
        }
        if tag.small != nil && tag.count > 4 {
            throw RecordingError(
                .syntax, file: path, byteOffset: c.compressed ? c.start - 8 : c.start + at,
                "\(what) uses the small data element format but declares \(tag.count) bytes "
                    + "(at most 4)" + (c.compressed ? " (decompressed offset \(at))" : ""))
        }
        return tag
    }

    /// Reads a (non-small) element's `count` bytes and skips its padding.
    /// - Parameter cap: most bytes accepted (``InputLimits``); `count` is the file's claim and
    ///   is checked against it, and for a plain element against the bytes that remain, before
    ///   anything is allocated.
    func readPadded(
        _ c: MATDataCursor, count: Int, cap: Int, what: String,
        elementOffset: Int
    ) throws(RecordingError) -> [UInt8] {
        guard count <= cap else {
            throw RecordingError(
                .outOfRange, file: path, byteOffset: elementOffset,
                "in the data element at byte \(elementOffset): \(count) bytes declared for \(what), "
                    + "more than the \(cap) accepted")
        }
        if !c.compressed && count > c.length - c.position {
            throw c.truncation(at: c.position, needed: count, what: what)
        }
        var bytes = [UInt8](repeating: 0, count: count)
        try MATDataCursor.withBytes(of: &bytes) { b throws(RecordingError) in try c.readExactly(into: b, what: what) }
        try c.skip((8 - count % 8) % 8, what: "padding after \(what)")
        return bytes
    }

    /// Reads the array flags, dimensions, name and real-part tag of the `miMATRIX` element at
    /// the start of `c`.
    private func readMatrixHeader(_ c: MATDataCursor, elementOffset: Int) throws(RecordingError) -> MATVariable? {
        func bad(_ message: String) -> RecordingError {
            RecordingError(
                .syntax, file: path, byteOffset: elementOffset,
                "in the data element at byte \(elementOffset): \(message)")
        }
        let top = try readTag(c, what: "the miMATRIX tag")
        guard top.type == MATDataType.matrix.rawValue, top.small == nil else {
            if c.compressed { return nil } // a compressed element holding something else
            throw bad("expected an miMATRIX element, found type \(top.type)")
        }
        if top.count == 0 { return nil } // an empty placeholder element
        let flagsTag = try readTag(c, what: "the array flags tag")
        guard flagsTag.type == MATDataType.uint32.rawValue, flagsTag.count == 8, flagsTag.small == nil else {
            throw bad("expected array flags (miUINT32, 8 bytes), found type \(flagsTag.type) with \(flagsTag.count) bytes")
        }
        let flagBytes = try readPadded(c, count: 8, cap: 8, what: "the array flags", elementOffset: elementOffset)
        let flags = flagBytes.withUnsafeBytes { u32($0, 0) }
        let classCode = UInt8(flags & 0xFF)
        let isComplex = flags & 0x0800 != 0
        let dimsTag = try readTag(c, what: "the dimensions tag")
        guard dimsTag.type == MATDataType.int32.rawValue, dimsTag.count % 4 == 0, dimsTag.count >= 8 || dimsTag.small != nil else {
            throw bad("expected dimensions (miINT32, at least 2), found type \(dimsTag.type) with \(dimsTag.count) bytes")
        }
        let dimBytes: [UInt8]
        if let small = dimsTag.small {
            dimBytes = small
        } else {
            dimBytes = try readPadded(
                c, count: dimsTag.count, cap: InputLimits.matDimensionBytes,
                what: "the dimensions", elementOffset: elementOffset)
        }
        var dimensions = [Int]()
        dimBytes.withUnsafeBytes { b in
            for k in 0..<(dimsTag.count / 4) { dimensions.append(Int(Int32(bitPattern: u32(b, 4 * k)))) }
        }
        guard dimensions.count >= 2, dimensions.allSatisfy({ $0 >= 0 }) else {
            throw bad("invalid dimensions \(dimensions)")
        }
        let nameTag = try readTag(c, what: "the array name tag")
        guard nameTag.type == MATDataType.int8.rawValue || nameTag.type == MATDataType.uint8.rawValue else {
            throw bad("expected the array name (miINT8), found type \(nameTag.type)")
        }
        let nameBytes: [UInt8]
        if let small = nameTag.small {
            nameBytes = small
        } else {
            nameBytes = try readPadded(
                c, count: nameTag.count, cap: InputLimits.matNameBytes,
                what: "the array name", elementOffset: elementOffset)
        }
        var variable = MATVariable(
            name: String(decoding: nameBytes, as: UTF8.self), classCode: classCode, isComplex: isComplex,
            dimensions: dimensions, elementOffset: elementOffset, compressed: c.compressed,
            streamStart: c.start, streamLength: c.length)
        guard variable.arrayClass?.isNumeric == true, (variable.elementCount ?? 0) > 0 else { return variable }
        let realTag = try readTag(c, what: "the real part tag of '\(variable.name)'")
        variable.dataType = MATDataType(rawValue: realTag.type)
        variable.dataOffset = c.position
        variable.dataBytes = realTag.count
        variable.inlineData = realTag.small
        return variable
    }

    /// A cursor positioned at the first byte of `variable`'s real part.
    func dataCursor(_ variable: MATVariable, skippingBytes skip: Int) throws(RecordingError) -> MATDataCursor {
        let c = try MATDataCursor(
            fd: fd, path: path, start: variable.streamStart, length: variable.streamLength,
            compressed: variable.compressed)
        try c.skip(variable.dataOffset + skip, what: "the data of '\(variable.name)'")
        return c
    }
}
