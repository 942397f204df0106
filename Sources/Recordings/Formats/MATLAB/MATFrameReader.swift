/// Reads a numeric variable's real part as consecutive **frames** of `frameLength` stored
/// values (MATLAB stores arrays column-major): a whole column of a channels-in-rows matrix, or
/// one value of a channels-in-columns matrix, converting them to `Float` chunk by chunk.
final class MATFrameReader {
    let type: MATDataType
    let valueSize: Int
    let swap: Bool
    /// Stored values per frame.
    let frameLength: Int
    /// Frames available.
    let totalFrames: Int
    /// Frames delivered so far.
    private(set) var framesRead = 0
    /// The last chunk, `frames × frameLength` values, frame after frame.
    private(set) var values: [Float] = []

    private let cursor: MATDataCursor?
    private var inline: [UInt8]
    private var raw: [UInt8] = []

    /// Creates a reader of `totalFrames` frames starting `firstValue` values into the data.
    init(
        file: MATFile, variable: MATVariable, type: MATDataType, firstValue: Int, frameLength: Int,
        totalFrames: Int
    ) throws(RecordingError) {
        self.type = type
        valueSize = type.numericSize!
        swap = file.swap
        self.frameLength = frameLength
        self.totalFrames = totalFrames
        if let small = variable.inlineData {
            inline = Array(small.dropFirst(firstValue * valueSize))
            cursor = nil
        } else {
            inline = []
            cursor = try file.dataCursor(variable, skippingBytes: firstValue * valueSize)
        }
    }

    /// Reads up to `maxFrames` frames into ``values``.
    /// - Returns: the number of frames read (0 at the end).
    /// - Throws: ``RecordingError`` `.truncated` if the data end early.
    func readChunk(maxFrames: Int) throws(RecordingError) -> Int {
        let frames = min(maxFrames, totalFrames - framesRead)
        guard frames > 0 else { return 0 }
        let count = frames * frameLength
        let bytes = count * valueSize
        if values.count < count { values = [Float](repeating: 0, count: count) }
        if let cursor {
            if raw.count < bytes { raw = [UInt8](repeating: 0, count: bytes) }
            let frameOffset = framesRead
            try MATDataCursor.withBytes(of: &raw) { b throws(RecordingError) in
                try cursor.readExactly(
                    into: UnsafeMutableRawBufferPointer(rebasing: b[0..<bytes]),
                    what: "frames \(frameOffset)..<\(frameOffset + frames) of the data")
            }
            raw.withUnsafeBytes { r in
                values.withUnsafeMutableBufferPointer { v in
                    type.decode(r.baseAddress!, count: count, swap: swap, into: v.baseAddress!)
                }
            }
        } else {
            let from = framesRead * frameLength * valueSize
            inline.withUnsafeBytes { r in
                values.withUnsafeMutableBufferPointer { v in
                    type.decode(r.baseAddress! + from, count: count, swap: swap, into: v.baseAddress!)
                }
            }
        }
        framesRead += frames
        if framesRead == totalFrames { try cursor?.verifyEnd() }
        return frames
    }
}
