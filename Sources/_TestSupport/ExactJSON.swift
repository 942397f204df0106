import Foundation

/// A small strict JSON reader for test fixtures whose numbers are converted exactly
/// (`Double(String)` on the literal's text, `Int` for integer literals that fit).
enum ExactJSON {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func parse(_ bytes: [UInt8]) throws -> Any {
        var i = 0
        let v = try value(bytes, &i)
        skip(bytes, &i)
        guard i == bytes.count else { throw Failure(description: "trailing bytes at \(i)") }
        return v
    }

    static func skip(_ b: [UInt8], _ i: inout Int) {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0a || b[i] == 0x0d || b[i] == 0x09 { i += 1 }
    }

    static func value(_ b: [UInt8], _ i: inout Int) throws -> Any {
        skip(b, &i)
        guard i < b.count else { throw Failure(description: "unexpected end") }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var out = [String: Any]()
            skip(b, &i)
            if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return out }
            while true {
                skip(b, &i)
                guard let key = try value(b, &i) as? String else { throw Failure(description: "key at \(i)") }
                skip(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: ":") else { throw Failure(description: "':' at \(i)") }
                i += 1
                out[key] = try value(b, &i)
                skip(b, &i)
                guard i < b.count else { throw Failure(description: "unterminated object") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "}") { i += 1; return out }
                throw Failure(description: "',' or '}' at \(i)")
            }
        case UInt8(ascii: "["):
            i += 1
            var out = [Any]()
            skip(b, &i)
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return out }
            while true {
                out.append(try value(b, &i))
                skip(b, &i)
                guard i < b.count else { throw Failure(description: "unterminated array") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "]") { i += 1; return out }
                throw Failure(description: "',' or ']' at \(i)")
            }
        case UInt8(ascii: "\""):
            let start = i
            i += 1
            while i < b.count, b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
            i += 1
            // Let Foundation unescape the string literal.
            let literal = Data(b[start..<i])
            guard let s = try JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed) as? String else {
                throw Failure(description: "string at \(start)")
            }
            return s
        case UInt8(ascii: "t"): i += 4; return true
        case UInt8(ascii: "f"): i += 5; return false
        case UInt8(ascii: "n"): i += 4; return NSNull()
        default:
            let start = i
            while i < b.count, let c = Optional(b[i]),
                (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                    || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
            { i += 1 }
            let text = String(decoding: b[start..<i], as: UTF8.self)
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let n = Int(text) {
                return NSNumber(value: n)
            }
            guard let d = Double(text) else { throw Failure(description: "number '\(text)' at \(start)") }
            return NSNumber(value: d)
        }
    }
}
