/// Where a JSON text (RFC 8259) first breaks its grammar, for messages that point at the byte:
/// configuration files and manifests are checked with it before they are decoded, so a missing
/// comma is reported as `file:3:5: expected ',' or '}' …`, not as "not in the correct format".
public enum JSONSyntax {
    /// The first syntax error of `bytes` as one JSON value (whitespace around it allowed), with
    /// its 1-based line and column (columns count UTF-8 bytes, as the CSV decoder's do); `nil`
    /// when the text is valid JSON. Nesting deeper than 256 levels is an error.
    /// - Complexity: O(bytes), no allocation besides the message.
    public static func firstError(in bytes: [UInt8]) -> (line: Int, column: Int, message: String)? {
        bytes.withUnsafeBufferPointer { buffer -> (line: Int, column: Int, message: String)? in
            guard let base = buffer.baseAddress else { return (1, 1, "empty file: expected a JSON value") }
            var scanner = JSONScanner(base: base, count: buffer.count)
            do throws(ScanError) {
                try scanner.skipValue()
                scanner.skipWhitespace()
                if scanner.i < scanner.count {
                    throw ScanError(.syntax, at: scanner.i, "unexpected \(scanner.found(at: scanner.i)) after the end of the JSON value")
                }
                return nil
            } catch {
                let offset = min(error.offset, buffer.count)
                var line = 1, lineStart = 0
                for k in 0..<offset where base[k] == 0x0A {
                    line += 1
                    lineStart = k + 1
                }
                return (line, offset - lineStart + 1, error.message)
            }
        }
    }
}
