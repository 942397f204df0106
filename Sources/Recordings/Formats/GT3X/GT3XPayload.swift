/// Decoders of the `log.bin` record payloads the GT3X decoder uses.
///
/// Sources: ActiGraph, "GT3X-File-Format" (github.com/actigraph/GT3X-File-Format):
/// `LogRecords/Activity.md` (ACTIVITY, 0x00), `LogRecords/Activity2.md` (ACTIVITY2, 0x1A),
/// `LogRecords/Parameters.md` (PARAMETERS, 0x15, and its floating-point encoding); ACTIVITY3
/// (0x1B, 12-bit packed in x, y, z order) as read by ActiGraph's `pygt3x` 0.7.1
/// (`activity_payload.read_activity3_payload`), which the format documentation does not cover.
enum GT3XPayload {
    /// Record types.
    static let activity: UInt8 = 0x00
    static let event: UInt8 = 0x03
    static let parameters: UInt8 = 0x15
    static let activity2: UInt8 = 0x1A
    static let activity3: UInt8 = 0x1B

    /// Name of a record type, for messages.
    static func name(_ type: UInt8) -> String {
        switch type {
        case activity: return "ACTIVITY"
        case 0x02: return "BATTERY"
        case event: return "EVENT"
        case 0x06: return "METADATA"
        case 0x0D: return "CAPSENSE"
        case parameters: return "PARAMETERS"
        case activity2: return "ACTIVITY2"
        case activity3: return "ACTIVITY3"
        default: return "type \(type)"
        }
    }

    /// Whether `type` carries accelerometer samples.
    static func isActivity(_ type: UInt8) -> Bool { type == activity || type == activity2 || type == activity3 }

    /// Number of x, y, z samples in an activity payload of `size` bytes: 6 bytes per sample for
    /// ACTIVITY2, 36 bits for the 12-bit packed types (an odd count leaves one unused nibble).
    static func sampleCount(type: UInt8, size: Int) -> Int {
        type == activity2 ? size / 6 : size * 8 / 36
    }

    /// Decodes the `count` samples of an activity payload into x, y, z buffers, in g
    /// (raw counts ÷ `scale`, one correctly rounded `Float` division; no rounding to 3 decimals).
    /// - Parameters:
    ///   - type: ACTIVITY, ACTIVITY2 or ACTIVITY3.
    ///   - payload: the payload bytes.
    ///   - count: samples to decode (``sampleCount(type:size:)``).
    ///   - scale: counts per g.
    ///   - x, y, z: outputs with room for `count` values.
    /// - Complexity: O(count).
    static func decode(
        type: UInt8, payload: UnsafeRawBufferPointer, count: Int, scale: Float,
        x: UnsafeMutablePointer<Float>, y: UnsafeMutablePointer<Float>, z: UnsafeMutablePointer<Float>
    ) {
        if type == activity2 {
            // Little-endian Int16 triples in x, y, z order.
            for i in 0..<count {
                let o = 6 * i
                let rx = Int16(bitPattern: UInt16(payload[o]) | UInt16(payload[o + 1]) << 8)
                let ry = Int16(bitPattern: UInt16(payload[o + 2]) | UInt16(payload[o + 3]) << 8)
                let rz = Int16(bitPattern: UInt16(payload[o + 4]) | UInt16(payload[o + 5]) << 8)
                x[i] = Float(rx) / scale
                y[i] = Float(ry) / scale
                z[i] = Float(rz) / scale
            }
            return
        }
        // 12-bit two's complement values, most significant nibble first: ACTIVITY stores y, x, z;
        // ACTIVITY3 x, y, z.
        let yFirst = type == activity
        let n = payload.count
        @inline(__always) func value(_ k: Int) -> Float {
            let bit = 12 * k
            let b = bit >> 3
            let b0 = Int(payload[b])
            let b1 = b + 1 < n ? Int(payload[b + 1]) : 0
            let v = bit & 7 == 0 ? (b0 << 4) | (b1 >> 4) : ((b0 & 0x0F) << 8) | b1
            return Float(v >= 2048 ? v - 4096 : v)
        }
        for i in 0..<count {
            let a = value(3 * i), b = value(3 * i + 1), c = value(3 * i + 2)
            x[i] = (yFirst ? b : a) / scale
            y[i] = (yFirst ? a : b) / scale
            z[i] = c / scale
        }
    }

    /// The `ACCEL_SCALE` parameter (address space 0, identifier 55) of a PARAMETERS payload:
    /// 8-byte little-endian items (UInt16 address space, UInt16 identifier, UInt32 value).
    /// - Returns: counts per g, or `nil` when the item is absent or not a positive finite number.
    static func accelerationScale(parameters payload: UnsafeRawBufferPointer) -> Double? {
        var i = 0
        while i + 8 <= payload.count {
            let space = UInt16(payload[i]) | UInt16(payload[i + 1]) << 8
            let id = UInt16(payload[i + 2]) | UInt16(payload[i + 3]) << 8
            if space == 0 && id == 55 {
                var v = UInt32(payload[i + 4])
                v |= UInt32(payload[i + 5]) << 8
                v |= UInt32(payload[i + 6]) << 16
                v |= UInt32(payload[i + 7]) << 24
                let d = decodeFloat(v)
                return d.isFinite && d > 0 ? d : nil
            }
            i += 8
        }
        return nil
    }

    /// ActiGraph's parameter float: a 24-bit two's-complement fraction (value × 2^23 of a
    /// mantissa in [0.5, 1)) and an 8-bit two's-complement power-of-two exponent
    /// (`Parameters.md`, `SspCodec.Decode`).
    /// - Parameter code: the encoded UInt32.
    /// - Returns: the value (±`Double.greatestFiniteMagnitude` for the overflow codes).
    static func decodeFloat(_ code: UInt32) -> Double {
        if code == 0x007F_FFFF { return .greatestFiniteMagnitude }
        if code == 0x0080_0000 { return -.greatestFiniteMagnitude }
        let exponent = Int(Int8(bitPattern: UInt8(code >> 24)))
        var fraction = Int32(bitPattern: code & 0x00FF_FFFF)
        if fraction & 0x0080_0000 != 0 { fraction |= Int32(bitPattern: 0xFF00_0000) }
        return Double(fraction) / 8_388_608 * Double(sign: .plus, exponent: exponent, significand: 1)
    }
}
