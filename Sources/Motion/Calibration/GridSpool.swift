#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The grid runs of one accelerometer stream kept for a second pass: in memory up to a budget,
/// then in an anonymous temporary file (`tmpfile`, removed by the system when closed, so a
/// crash leaves nothing behind). The auto-calibration needs every still window of the recording
/// before the epochs can be computed; the spool keeps memory bounded however long the recording.
///
/// Record: grid index of the first sample and sample count (two `Int64`; count −1 marks the end
/// of a run), then the x, y and z values (`Float`).
///
/// - Complexity: O(samples) to write and to replay; memory O(budget + largest run).
final class GridSpool: @unchecked Sendable {
    // One owner at a time: the spool belongs to one MotionStreamAnalyzer, which is consumed by
    // one task; hence the unchecked conformance.
    let memoryBudget: Int
    private var buffer: [UInt8] = []
    private var file: UnsafeMutablePointer<FILE>? = nil
    /// Whether a write to the temporary file failed (the spool is then incomplete).
    private(set) var failed = false
    /// Bytes written to the temporary file.
    private(set) var spilledBytes = 0

    init(memoryBudget: Int = 16 << 20) {
        self.memoryBudget = memoryBudget
    }

    deinit { if let f = file { fclose(f) } }

    /// Appends a run of grid samples.
    func append(
        firstIndex: Int, x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>
    ) {
        var header = (Int64(firstIndex), Int64(x.count))
        withUnsafeBytes(of: &header) { write($0) }
        write(UnsafeRawBufferPointer(x))
        write(UnsafeRawBufferPointer(y))
        write(UnsafeRawBufferPointer(z))
    }

    /// Marks the end of a run (a gap).
    func appendEndRun() {
        var header = (Int64(0), Int64(-1))
        withUnsafeBytes(of: &header) { write($0) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) {
        guard !failed, bytes.count > 0 else { return }
        if file == nil && buffer.count + bytes.count <= memoryBudget {
            buffer.append(contentsOf: bytes)
            return
        }
        if file == nil {
            guard let f = tmpfile() else {
                failed = true
                return
            }
            file = f
            if !buffer.isEmpty {
                let written = buffer.withUnsafeBytes { fwrite($0.baseAddress!, 1, $0.count, f) }
                spilledBytes += written
                if written != buffer.count { failed = true }
                buffer = []
            }
        }
        let written = fwrite(bytes.baseAddress!, 1, bytes.count, file!)
        spilledBytes += written
        if written != bytes.count { failed = true }
    }

    /// Outcome of a replay step.
    enum ReplayState { case more, done, failed }

    private var reading = false
    private var readOffset = 0
    private var x: [Float] = [], y: [Float] = [], z: [Float] = []

    /// Hands the next runs, in order, to `consumer` (at most `maximumRecords` records), freeing
    /// the spool when it is exhausted. Nothing may be appended once replay has started.
    /// - Returns: `.more` while records remain, `.done` at the end, `.failed` when the temporary
    ///   file cannot be read back.
    func replay<C: GridConsumer>(into consumer: inout C, maximumRecords: Int) -> ReplayState {
        if !reading {
            reading = true
            if let f = file {
                guard fflush(f) == 0 else { return release(.failed) }
                rewind(f)
            }
        }
        var header = (Int64(0), Int64(0))
        for _ in 0..<maximumRecords {
            if let f = file {
                let got = withUnsafeMutableBytes(of: &header) { fread($0.baseAddress!, 1, $0.count, f) }
                if got == 0 { return release(.done) }
                guard got == 16 else { return release(.failed) }
            } else {
                guard readOffset + 16 <= buffer.count else { return release(.done) }
                let o = readOffset
                buffer.withUnsafeBytes { b in
                    withUnsafeMutableBytes(of: &header) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: b[o..<(o + 16)])) }
                }
                readOffset += 16
            }
            if header.1 < 0 {
                consumer.endRun()
                continue
            }
            let n = Int(header.1)
            if x.count < n {
                x = [Float](repeating: 0, count: n)
                y = x
                z = x
            }
            if let f = file {
                let read =
                    x.withUnsafeMutableBytes { fread($0.baseAddress!, 4, n, f) }
                    + y.withUnsafeMutableBytes { fread($0.baseAddress!, 4, n, f) }
                    + z.withUnsafeMutableBytes { fread($0.baseAddress!, 4, n, f) }
                guard read == 3 * n else { return release(.failed) }
            } else {
                let o = readOffset, bytes = 4 * n
                guard o + 3 * bytes <= buffer.count else { return release(.failed) }
                buffer.withUnsafeBytes { b in
                    x.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: b[o..<(o + bytes)])) }
                    y.withUnsafeMutableBytes {
                        $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: b[(o + bytes)..<(o + 2 * bytes)]))
                    }
                    z.withUnsafeMutableBytes {
                        $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: b[(o + 2 * bytes)..<(o + 3 * bytes)]))
                    }
                }
                readOffset += 3 * bytes
            }
            x.withUnsafeBufferPointer { bx in
                y.withUnsafeBufferPointer { by in
                    z.withUnsafeBufferPointer { bz in
                        consumer.consume(
                            firstIndex: Int(header.0), x: UnsafeBufferPointer(rebasing: bx[0..<n]),
                            y: UnsafeBufferPointer(rebasing: by[0..<n]), z: UnsafeBufferPointer(rebasing: bz[0..<n]))
                    }
                }
            }
        }
        return .more
    }

    private func release(_ state: ReplayState) -> ReplayState {
        buffer = []
        x = []
        y = []
        z = []
        if let f = file { fclose(f) }
        file = nil
        return state
    }
}
