/// The data types of MAT-file Level 5 data elements (MathWorks, "MAT-File Format", Level 5,
/// table "MAT-File Data Types").
enum MATDataType: UInt32, Sendable {
    case int8 = 1, uint8 = 2, int16 = 3, uint16 = 4, int32 = 5, uint32 = 6
    case single = 7, double = 9, int64 = 12, uint64 = 13
    case matrix = 14, compressed = 15, utf8 = 16, utf16 = 17, utf32 = 18

    /// Bytes per value of a numeric type, `nil` for the others.
    var numericSize: Int? {
        switch self {
        case .int8, .uint8: return 1
        case .int16, .uint16: return 2
        case .int32, .uint32, .single: return 4
        case .double, .int64, .uint64: return 8
        default: return nil
        }
    }

    /// The type's name in the MathWorks document (`miDOUBLE`, …).
    var documentName: String {
        switch self {
        case .int8: return "miINT8"
        case .uint8: return "miUINT8"
        case .int16: return "miINT16"
        case .uint16: return "miUINT16"
        case .int32: return "miINT32"
        case .uint32: return "miUINT32"
        case .single: return "miSINGLE"
        case .double: return "miDOUBLE"
        case .int64: return "miINT64"
        case .uint64: return "miUINT64"
        case .matrix: return "miMATRIX"
        case .compressed: return "miCOMPRESSED"
        case .utf8: return "miUTF8"
        case .utf16: return "miUTF16"
        case .utf32: return "miUTF32"
        }
    }

    /// Converts `count` stored values to `Float`, swapping bytes when the file's byte order
    /// differs from the host's (little-endian on every platform SensorPipe builds for).
    /// - Complexity: O(count).
    func decode(_ raw: UnsafeRawPointer, count: Int, swap: Bool, into out: UnsafeMutablePointer<Float>) {
        switch self {
        case .int8:
            for i in 0..<count { out[i] = Float(raw.load(fromByteOffset: i, as: Int8.self)) }
        case .uint8:
            for i in 0..<count { out[i] = Float(raw.load(fromByteOffset: i, as: UInt8.self)) }
        case .int16:
            for i in 0..<count {
                let v = raw.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)
                out[i] = Float(swap ? v.byteSwapped : v)
            }
        case .uint16:
            for i in 0..<count {
                let v = raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)
                out[i] = Float(swap ? v.byteSwapped : v)
            }
        case .int32:
            for i in 0..<count {
                let v = raw.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)
                out[i] = Float(swap ? v.byteSwapped : v)
            }
        case .uint32:
            for i in 0..<count {
                let v = raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)
                out[i] = Float(swap ? v.byteSwapped : v)
            }
        case .int64:
            for i in 0..<count {
                let v = raw.loadUnaligned(fromByteOffset: 8 * i, as: Int64.self)
                out[i] = Float(swap ? v.byteSwapped : v)
            }
        case .uint64:
            for i in 0..<count {
                let v = raw.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                out[i] = Float(swap ? v.byteSwapped : v)
            }
        case .single:
            for i in 0..<count {
                let bits = raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)
                out[i] = Float(bitPattern: swap ? bits.byteSwapped : bits)
            }
        case .double:
            for i in 0..<count {
                let bits = raw.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                out[i] = Float(Double(bitPattern: swap ? bits.byteSwapped : bits))
            }
        case .matrix, .compressed, .utf8, .utf16, .utf32:
            preconditionFailure("not a numeric data type")
        }
    }
}

/// MATLAB array classes (the low byte of a matrix's array flags).
enum MATArrayClass: UInt8, Sendable {
    case cell = 1, structure = 2, object = 3, char = 4, sparse = 5
    case double = 6, single = 7, int8 = 8, uint8 = 9, int16 = 10, uint16 = 11
    case int32 = 12, uint32 = 13, int64 = 14, uint64 = 15

    /// Whether the class is a numeric matrix SensorPipe can read as channels.
    var isNumeric: Bool { rawValue >= 6 }

    /// MATLAB's name of the class.
    var name: String {
        switch self {
        case .cell: return "cell"
        case .structure: return "struct"
        case .object: return "object"
        case .char: return "char"
        case .sparse: return "sparse"
        case .double: return "double"
        case .single: return "single"
        case .int8: return "int8"
        case .uint8: return "uint8"
        case .int16: return "int16"
        case .uint16: return "uint16"
        case .int32: return "int32"
        case .uint32: return "uint32"
        case .int64: return "int64"
        case .uint64: return "uint64"
        }
    }
}
