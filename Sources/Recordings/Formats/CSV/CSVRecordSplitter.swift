#if canImport(Glibc)
    import Glibc
#endif

/// Splits one record of delimited text into fields, following RFC 4180 (Y. Shafranovich, 2005,
/// "Common Format and MIME Type for Comma-Separated Values (CSV) Files", RFC 4180, §2):
/// fields are separated by the delimiter; a field may be enclosed in double quotes, and then
/// may contain the delimiter, line breaks and quotes written twice (`""`).
///
/// Unquoted fields are taken literally (a stray quote inside one is kept, as most readers do);
/// text between a closing quote and the next delimiter violates §2.7 and is reported.
struct CSVRecordSplitter {
    /// The field separator byte (`,`, `;` or tab).
    let delimiter: UInt8
    /// The fields' contents with quoting removed, concatenated; see ``fields``.
    private(set) var content: [UInt8] = []
    /// Range of each field in ``content``.
    private(set) var fields: [Range<Int>] = []
    /// 1-based byte column in the record where each field starts.
    private(set) var columns: [Int] = []
    /// Whether ``fields`` are ranges into the record passed to ``splitInPlace(_:)`` (a record
    /// without quotes) rather than into ``content``.
    private(set) var fieldsInRecord = false

    /// How a record ended.
    enum Outcome: Equatable {
        /// All fields were split.
        case complete
        /// The record ends inside a quoted field (it continues on the next line, §2.6); the
        /// associated value is the 1-based column of the opening quote.
        case openQuote(column: Int)
        /// Text follows a closing quote before the next delimiter (1-based column).
        case textAfterQuote(column: Int)
    }

    init(delimiter: UInt8) {
        self.delimiter = delimiter
        content.reserveCapacity(256)
        fields.reserveCapacity(16)
        columns.reserveCapacity(16)
    }

    /// Splits `record` (without its final line break).
    /// - Returns: how the record ended; fields are valid only for ``Outcome/complete``.
    /// - Complexity: O(n).
    mutating func split(_ record: UnsafeBufferPointer<UInt8>) -> Outcome {
        fieldsInRecord = false
        content.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        columns.removeAll(keepingCapacity: true)
        let quote: UInt8 = 0x22
        let n = record.count
        var i = 0
        while true {
            let fieldStart = content.count
            columns.append(i + 1)
            if i < n && record[i] == quote {
                let opening = i
                i += 1
                while true {
                    guard i < n else { return .openQuote(column: opening + 1) }
                    let c = record[i]
                    if c == quote {
                        if i + 1 < n && record[i + 1] == quote {
                            content.append(quote)
                            i += 2
                            continue
                        }
                        i += 1
                        break
                    }
                    content.append(c)
                    i += 1
                }
                if i < n && record[i] != delimiter { return .textAfterQuote(column: i + 1) }
            } else {
                let start = i
                while i < n && record[i] != delimiter { i += 1 }
                content.append(contentsOf: UnsafeBufferPointer(rebasing: record[start..<i]))
            }
            fields.append(fieldStart..<content.count)
            if i >= n { return .complete }
            i += 1 // the delimiter; a final one is followed by an empty field
        }
    }

    /// Splits `record` without copying when it holds no quote: ``fields`` are then ranges into
    /// `record` (``fieldsInRecord``); otherwise as ``split(_:)``.
    /// - Complexity: O(n).
    mutating func splitInPlace(_ record: UnsafeBufferPointer<UInt8>) -> Outcome {
        let n = record.count
        guard n > 0, memchr(record.baseAddress!, 0x22, n) == nil else { return split(record) }
        fieldsInRecord = true
        fields.removeAll(keepingCapacity: true)
        columns.removeAll(keepingCapacity: true)
        let d = delimiter
        var start = 0
        var i = 0
        while i < n {
            if record[i] == d {
                fields.append(start..<i)
                columns.append(start + 1)
                start = i + 1
            }
            i += 1
        }
        fields.append(start..<n)
        columns.append(start + 1)
        return .complete
    }

    /// Runs `body` on the bytes of field `index` (after ``split(_:)``).
    @inline(__always)
    func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        content.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[fields[index]])) }
    }

    /// Field `index` as a string (invalid UTF-8 replaced by U+FFFD).
    func string(_ index: Int) -> String {
        withField(index) { String(decoding: $0, as: UTF8.self) }
    }
}
