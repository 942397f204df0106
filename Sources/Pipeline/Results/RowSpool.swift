import Foundation
import Signals

/// A recording's result rows in a compact binary form, in memory up to a budget and then in an
/// anonymous temporary file: what a batch worker hands to the single writer, so that memory
/// stays bounded however many rows a recording has (a week of ECG beats).
///
/// Encoding per row: table number (UInt16), then per value a tag byte and its payload (Int64 or
/// Double, 8 bytes; text: UInt32 length + UTF-8). The temporary file is unlinked as soon as it
/// is created, so a crash leaves nothing behind.
public final class RowSpool: @unchecked Sendable {
    /// Tables in first-use order (rows refer to them by position).
    public private(set) var tables: [ResultTable] = []
    /// Tables declared (listed even without rows), by name.
    public private(set) var declared: [String] = []
    /// Rows written.
    public private(set) var rowCount = 0
    /// Bytes held in memory before spilling to the temporary file.
    public let memoryBudget: Int
    private var buffer: [UInt8] = []
    private var fd: Int32 = -1
    private var fileBytes = 0
    private var indexOfTable: [String: Int] = [:]

    /// Creates an empty spool.
    /// - Parameter memoryBudget: bytes kept in memory before rows go to a temporary file
    ///   (default 4 MiB).
    public init(memoryBudget: Int = 4 << 20) {
        self.memoryBudget = memoryBudget
        buffer.reserveCapacity(min(memoryBudget, 1 << 16))
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Bytes of rows spilled to the temporary file.
    public var spilledBytes: Int { fileBytes }

    /// Lists a table without rows.
    public func declare(_ table: ResultTable) {
        if !declared.contains(table.name) { declared.append(table.name) }
        _ = index(of: table)
    }

    /// Appends one row.
    /// - Throws: ``BatchStoreError`` when the temporary file cannot be written.
    public func append(_ table: ResultTable, values: [ResultValue]) throws {
        let t = index(of: table)
        buffer.append(UInt8(t & 0xFF))
        buffer.append(UInt8(t >> 8))
        for v in values {
            switch v {
            case .null: buffer.append(0)
            case .integer(let i): buffer.append(1); appendWord(UInt64(bitPattern: Int64(i)))
            case .real(let x): buffer.append(2); appendWord(x.bitPattern)
            case .text(let s):
                buffer.append(3)
                let utf8 = Array(s.utf8)
                var n = UInt32(utf8.count)
                withUnsafeBytes(of: &n) { buffer.append(contentsOf: $0) }
                buffer.append(contentsOf: utf8)
            }
        }
        rowCount += 1
        if buffer.count >= memoryBudget { try spill() }
    }

    /// Reads every row back, in the order written.
    /// - Parameter body: receives each row's table and values.
    /// - Throws: `body`'s error, or ``BatchStoreError`` when the temporary file cannot be read.
    /// - Complexity: O(bytes); memory O(chunk size).
    public func forEachRow(_ body: (ResultTable, [ResultValue]) throws -> Void) throws {
        var reader = Reader(fd: fd, fileBytes: fileBytes, memory: buffer)
        var values = [ResultValue]()
        while try reader.hasMore() {
            let t = Int(try reader.byte()) | Int(try reader.byte()) << 8
            let table = tables[t]
            values.removeAll(keepingCapacity: true)
            for _ in table.columns.indices {
                switch try reader.byte() {
                case 0: values.append(.null)
                case 1: values.append(.integer(Int(Int64(bitPattern: try reader.word()))))
                case 2: values.append(.real(Double(bitPattern: try reader.word())))
                default:
                    let n = Int(try reader.word32())
                    values.append(.text(try reader.string(count: n)))
                }
            }
            try body(table, values)
        }
    }

    private func index(of table: ResultTable) -> Int {
        if let i = indexOfTable[table.name] { return i }
        precondition(tables.count < Int(UInt16.max), "too many tables")
        tables.append(table)
        indexOfTable[table.name] = tables.count - 1
        return tables.count - 1
    }

    private func appendWord(_ w: UInt64) {
        var v = w.littleEndian
        withUnsafeBytes(of: &v) { buffer.append(contentsOf: $0) }
    }

    private func spill() throws {
        if fd < 0 {
            var template = Array((NSTemporaryDirectory() + "/sensorpipe-spool-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw BatchStoreError(.spool, description: "cannot create a temporary spool file: errno \(errno)") }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { pwrite(fd, $0.baseAddress! + offset, $0.count - offset, off_t(fileBytes + offset)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw BatchStoreError(.spool, description: "cannot write the temporary spool file: errno \(errno)") }
            offset += n
        }
        fileBytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Sequential reader over the spilled file, then the in-memory tail.
    struct Reader {
        let fd: Int32
        let fileBytes: Int
        let memory: [UInt8]
        var chunk: [UInt8] = []
        var position = 0 // in chunk
        var fileOffset = 0 // next byte of the file to read
        var inMemory = false

        init(fd: Int32, fileBytes: Int, memory: [UInt8]) {
            self.fd = fd
            self.fileBytes = fileBytes
            self.memory = memory
        }

        mutating func hasMore() throws -> Bool {
            if position < chunk.count { return true }
            try refill()
            return position < chunk.count
        }

        mutating func refill() throws {
            let rest = Array(chunk[position...])
            position = 0
            if fileOffset < fileBytes {
                let want = min(1 << 20, fileBytes - fileOffset)
                var part = [UInt8](repeating: 0, count: want)
                var got = 0
                while got < want {
                    let n = part.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, want - got, off_t(fileOffset + got)) }
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw BatchStoreError(.spool, description: "cannot read the temporary spool file: errno \(errno)") }
                    got += n
                }
                fileOffset += want
                chunk = rest + part
            } else if !inMemory {
                inMemory = true
                chunk = rest + memory
            } else {
                chunk = rest
            }
        }

        mutating func need(_ n: Int) throws {
            while chunk.count - position < n {
                let before = chunk.count - position
                try refill()
                if chunk.count - position == before {
                    throw BatchStoreError(.spool, description: "temporary spool file is truncated")
                }
            }
        }

        mutating func byte() throws -> UInt8 {
            try need(1)
            position += 1
            return chunk[position - 1]
        }

        mutating func word() throws -> UInt64 {
            try need(8)
            var w: UInt64 = 0
            for k in 0..<8 { w |= UInt64(chunk[position + k]) << (8 * k) }
            position += 8
            return w
        }

        mutating func word32() throws -> UInt32 {
            try need(4)
            var w: UInt32 = 0
            for k in 0..<4 { w |= UInt32(chunk[position + k]) << (8 * k) }
            position += 4
            return w
        }

        mutating func string(count n: Int) throws -> String {
            try need(n)
            defer { position += n }
            return String(decoding: chunk[position..<position + n], as: UTF8.self)
        }
    }
}

/// A ``ResultSink`` that spools a recording's rows (``RowSpool``) for a writer on another thread.
public final class SpoolSink: ResultSink {
    private var pending: RowSpool?
    /// The rows of the last committed recording.
    public private(set) var spool = RowSpool()

    /// Creates an empty spooling sink.
    public init() {}

    public func begin(recording: String) throws { pending = RowSpool() }

    public func declare(_ table: ResultTable) throws { pending?.declare(table) }

    public func write(_ table: ResultTable, values: [ResultValue]) throws {
        guard let pending else { preconditionFailure("write outside begin/commit") }
        try pending.append(table, values: values)
    }

    public func commit() throws {
        if let pending { spool = pending }
        pending = nil
    }

    public func rollback() { pending = nil }
}

extension ResultSink {
    /// Writes a spool's rows (declared tables first) into this sink, inside its open transaction.
    /// - Complexity: O(rows); memory O(chunk size).
    public func write(_ spool: RowSpool) throws {
        for name in spool.declared {
            if let t = spool.tables.first(where: { $0.name == name }) { try declare(t) }
        }
        try spool.forEachRow { table, values in try write(table, values: values) }
    }
}
