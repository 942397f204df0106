import Foundation

/// Reads NumPy `.npy` files (format 1.0/2.0, little-endian, C order) as written by `numpy.save`.
/// Supports dtypes `<f8`, `<f4`, `<i8`, `<i4`; values are returned as `[Double]` or `[Int]`.
public enum NPY {
    public struct Array {
        public var shape: [Int]
        public var descr: String
        public var doubles: [Double]
        public var ints: [Int]
        public var floats: [Float] { doubles.map(Float.init) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func read(_ url: URL) throws -> Array {
        let data = try Data(contentsOf: url)
        let bytes = [UInt8](data)
        guard bytes.count >= 10, bytes[0] == 0x93, Swift.Array(bytes[1...5]) == Swift.Array("NUMPY".utf8) else {
            throw Failure(description: "\(url.path): not an .npy file")
        }
        let major = bytes[6]
        let headerLength: Int
        let headerStart: Int
        if major == 1 {
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        } else {
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            headerStart = 12
        }
        let header = String(decoding: bytes[headerStart..<headerStart + headerLength], as: UTF8.self)
        func field(_ name: String) -> String? {
            guard let r = header.range(of: "'\(name)':") else { return nil }
            return String(header[r.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
        guard let d = field("descr"), let s = field("shape") else {
            throw Failure(description: "\(url.path): bad header \(header)")
        }
        let descr = String(d.dropFirst().prefix { $0 != "'" })
        if let f = field("fortran_order"), f.hasPrefix("True") {
            throw Failure(description: "\(url.path): Fortran order not supported")
        }
        let shapeText = s.dropFirst().prefix { $0 != ")" }
        let shape = shapeText.split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        let n = shape.reduce(1, *)
        let start = headerStart + headerLength
        var doubles = [Double]()
        var ints = [Int]()
        try bytes.withUnsafeBytes { raw in
            let p = raw.baseAddress! + start
            switch descr {
            case "<f8":
                doubles = (0..<n).map { p.loadUnaligned(fromByteOffset: 8 * $0, as: Double.self) }
            case "<f4":
                doubles = (0..<n).map { Double(p.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self)) }
            case "<i8":
                ints = (0..<n).map { Int(p.loadUnaligned(fromByteOffset: 8 * $0, as: Int64.self)) }
                doubles = ints.map(Double.init)
            case "<i4":
                ints = (0..<n).map { Int(p.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) }
                doubles = ints.map(Double.init)
            default:
                throw Failure(description: "\(url.path): dtype \(descr) not supported")
            }
        }
        return Array(shape: shape, descr: descr, doubles: doubles, ints: ints)
    }
}
