/// Reads delimited-text records from a ``LineReader``: one line per record, or several when a
/// quoted field contains line breaks (RFC 4180 §2.6), with a byte-order mark on line 1 removed.
/// Records without quotes are split in place, without copying.
final class CSVRecordReader {
    let lines: LineReader
    private(set) var splitter: CSVRecordSplitter
    /// 1-based line number where the current record starts.
    private(set) var recordLine = 0
    /// Whether the current record is blank (empty or only spaces and tabs).
    private(set) var isBlank = false
    /// The outcome of splitting the current record (``CSVRecordSplitter/Outcome/complete`` or
    /// ``CSVRecordSplitter/Outcome/textAfterQuote(column:)``).
    private(set) var outcome = CSVRecordSplitter.Outcome.complete
    /// Longest record, in lines, accepted for a quoted field with line breaks.
    let maximumRecordLines = 100
    private var joined: [UInt8] = []
    private var usesJoined = false
    private var recordRange = 0..<0

    init(lines: LineReader, delimiter: UInt8) {
        self.lines = lines
        splitter = CSVRecordSplitter(delimiter: delimiter)
    }

    var path: String { lines.source.path }

    /// Skips one raw line (a preamble line).
    /// - Returns: `false` at the end of the content.
    func skipLine() throws(RecordingError) -> Bool { try lines.nextLine() != nil }

    /// Reads the next record and splits it.
    /// - Returns: `false` at the end of the content.
    /// - Throws: ``RecordingError`` `.syntax` for a quoted field that is never closed, and the
    ///   errors of the line reader.
    func next() throws(RecordingError) -> Bool {
        guard let range = try lines.nextLine() else { return false }
        recordLine = lines.lineNumber
        var lo = range.lowerBound
        if recordLine == 1 && range.count >= 3 && lines.buffer[lo] == 0xEF && lines.buffer[lo + 1] == 0xBB
            && lines.buffer[lo + 2] == 0xBF
        {
            lo += 3
        }
        recordRange = lo..<range.upperBound
        usesJoined = false
        isBlank = true
        for i in recordRange where lines.buffer[i] != 0x20 && lines.buffer[i] != 0x09 {
            isBlank = false
            break
        }
        if isBlank { return true }
        let r = recordRange
        var result = lines.buffer.withUnsafeBufferPointer { b in
            splitter.splitInPlace(UnsafeBufferPointer(rebasing: b[r]))
        }
        guard case .openQuote(let column) = result else {
            outcome = result
            return true
        }
        joined.removeAll(keepingCapacity: true)
        joined.append(contentsOf: lines.buffer[r])
        usesJoined = true
        var count = 1
        while case .openQuote = result {
            guard count < maximumRecordLines else {
                throw RecordingError(
                    .syntax, file: path, line: recordLine, column: column,
                    "quoted field still open after \(maximumRecordLines) lines (RFC 4180 §2.5)")
            }
            guard let more = try lines.nextLine() else {
                throw RecordingError(
                    .syntax, file: path, line: recordLine, column: column,
                    "quoted field is never closed (RFC 4180 §2.5): the record runs to the end of the file")
            }
            count += 1
            guard joined.count + 1 + more.count <= InputLimits.csvRecordBytes else {
                throw RecordingError(
                    .syntax, file: path, line: recordLine, column: column,
                    "quoted field makes the record longer than \(InputLimits.csvRecordBytes >> 20) MiB "
                        + "(lines \(recordLine)–\(lines.lineNumber); RFC 4180 §2.5)")
            }
            joined.append(0x0A)
            joined.append(contentsOf: lines.buffer[more])
            result = joined.withUnsafeBufferPointer { splitter.split($0) }
        }
        outcome = result
        return true
    }

    /// Runs `body` with the bytes the current record's field ranges index, the ranges, and the
    /// 1-based column of each field.
    func withFields<R>(
        _ body: (
            UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Range<Int>>,
            UnsafeBufferPointer<Int>
        ) -> R
    ) -> R {
        splitter.fields.withUnsafeBufferPointer { f in
            splitter.columns.withUnsafeBufferPointer { c in
                if !splitter.fieldsInRecord {
                    return splitter.content.withUnsafeBufferPointer { body($0, f, c) }
                }
                if usesJoined { return joined.withUnsafeBufferPointer { body($0, f, c) } }
                let r = recordRange
                return lines.buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[r]), f, c) }
            }
        }
    }

    /// Field `index` of the current record as bytes.
    func fieldBytes(_ index: Int) -> [UInt8] {
        withFields { bytes, fields, _ in Array(bytes[fields[index]]) }
    }
}
