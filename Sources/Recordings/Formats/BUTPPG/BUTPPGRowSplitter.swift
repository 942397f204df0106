/// Splits one line of the BUT PPG export into fields: separated by runs of spaces (or tabs),
/// a field either bare or enclosed in double quotes (no quotes inside; quotes never span lines).
struct BUTPPGRowSplitter {
    /// Why a line could not be split.
    enum Failure: Equatable {
        /// A quote opened at this 0-based column is never closed on the line.
        case unterminatedQuote(column: Int)
        /// Text follows a closing quote at this 0-based column without a separator.
        case textAfterQuote(column: Int)
    }

    /// Byte ranges of the fields (inside the quotes for quoted fields), relative to the line.
    private(set) var fields: [Range<Int>] = []

    @inline(__always) static func isSeparator(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    /// Splits `line`.
    /// - Returns: `nil` on success, otherwise the failure.
    /// - Complexity: O(line length).
    mutating func split(_ line: UnsafeBufferPointer<UInt8>) -> Failure? {
        fields.removeAll(keepingCapacity: true)
        let n = line.count
        var i = 0
        while true {
            while i < n && Self.isSeparator(line[i]) { i += 1 }
            guard i < n else { return nil }
            if line[i] == 0x22 {
                var j = i + 1
                while j < n && line[j] != 0x22 { j += 1 }
                guard j < n else { return .unterminatedQuote(column: i) }
                fields.append((i + 1)..<j)
                if j + 1 < n && !Self.isSeparator(line[j + 1]) { return .textAfterQuote(column: j + 1) }
                i = j + 1
            } else {
                var j = i
                while j < n && !Self.isSeparator(line[j]) { j += 1 }
                fields.append(i..<j)
                i = j
            }
        }
    }

    /// Byte ranges of the space-separated tokens of `range` of `line`, appended to `tokens`.
    /// - Complexity: O(range length).
    static func tokens(of line: UnsafeBufferPointer<UInt8>, in range: Range<Int>, into tokens: inout [Range<Int>]) {
        tokens.removeAll(keepingCapacity: true)
        var i = range.lowerBound
        let end = range.upperBound
        while true {
            while i < end && isSeparator(line[i]) { i += 1 }
            guard i < end else { return }
            var j = i
            while j < end && !isSeparator(line[j]) { j += 1 }
            tokens.append(i..<j)
            i = j
        }
    }
}
