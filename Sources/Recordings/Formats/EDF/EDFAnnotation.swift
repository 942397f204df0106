/// One EDF+/BDF+ annotation: a text with an onset and an optional duration, read from a
/// time-stamped annotations list (TAL) of an `EDF Annotations` signal (EDF+ specification,
/// Kemp & Olivan 2003, section 2.2.2).
public struct EDFAnnotation: Sendable, Hashable {
    /// Onset, seconds after the header's start date and time (the TAL's onset as written, so a
    /// sub-second start shows in the first record's time-keeping onset, not here).
    public var onsetSeconds: Double
    /// Duration, seconds, or `nil` when the TAL gives none.
    public var durationSeconds: Double?
    /// The annotation text (UTF-8; invalid bytes replaced by U+FFFD).
    public var text: String
    /// Index of the data record it was read from.
    public var record: Int

    /// Creates an annotation.
    /// - Parameters:
    ///   - onsetSeconds: seconds after the header's start.
    ///   - durationSeconds: seconds, or `nil`.
    ///   - text: the text.
    ///   - record: the data record (0 when written).
    public init(onsetSeconds: Double, durationSeconds: Double?, text: String, record: Int = 0) {
        self.onsetSeconds = onsetSeconds
        self.durationSeconds = durationSeconds
        self.text = text
        self.record = record
    }
}

/// Parses the TALs of one annotation signal in one data record.
enum EDFTALParser {
    /// What one annotation signal of one record holds.
    struct Parsed {
        /// The time-keeping onset (the first TAL's onset, whose first annotation is empty), if
        /// this signal starts with one.
        var timeKeeping: Double?
        var annotations: [EDFAnnotation] = []
    }

    /// A malformed TAL: byte offset within the signal's bytes and what is wrong.
    struct Problem: Error {
        var offset: Int
        var message: String
    }

    /// Parses `bytes` (one annotation signal's bytes of one record).
    /// - Parameters:
    ///   - bytes: the signal's bytes; unused bytes are 0.
    ///   - record: the record index, stored in each annotation.
    ///   - firstSignal: whether this is the record's first annotation signal (its first TAL is
    ///     the time-keeping one).
    /// - Throws: ``Problem`` for bytes that are no TAL.
    /// - Complexity: O(bytes).
    static func parse(_ bytes: UnsafeRawBufferPointer, record: Int, firstSignal: Bool) throws(Problem) -> Parsed {
        var out = Parsed()
        var p = 0
        let n = bytes.count
        var talIndex = 0
        while p < n && bytes[p] != 0 {
            let talStart = p
            // Onset: [+-] digits [. digits], then optional 0x15 duration, then 0x14.
            guard bytes[p] == 0x2B || bytes[p] == 0x2D else {
                throw Problem(offset: p, message: "a TAL must start with '+' or '-' (found byte 0x\(hex(bytes[p])))")
            }
            var q = p + 1
            while q < n && bytes[q] != 0x14 && bytes[q] != 0x15 && bytes[q] != 0 { q += 1 }
            guard q < n, bytes[q] != 0, let onset = number(bytes, p..<q, signed: true) else {
                throw Problem(offset: p, message: "TAL onset '\(text(bytes, p..<min(q, n)))' is not a number followed by 0x14")
            }
            var duration: Double?
            if bytes[q] == 0x15 {
                let d0 = q + 1
                q = d0
                while q < n && bytes[q] != 0x14 && bytes[q] != 0 { q += 1 }
                guard q < n, bytes[q] == 0x14, let d = number(bytes, d0..<q, signed: false) else {
                    throw Problem(offset: d0, message: "TAL duration '\(text(bytes, d0..<min(q, n)))' is not a number followed by 0x14")
                }
                duration = d
            }
            // Annotations: each ends with 0x14; the TAL ends with 0x00.
            q += 1
            var annotationIndex = 0
            while q < n && bytes[q] != 0 {
                let a0 = q
                while q < n && bytes[q] != 0x14 && bytes[q] != 0 { q += 1 }
                guard q < n, bytes[q] == 0x14 else {
                    throw Problem(offset: a0, message: "TAL annotation text does not end with 0x14 before the TAL ends")
                }
                let t = text(bytes, a0..<q)
                if firstSignal && talIndex == 0 && annotationIndex == 0 {
                    // The time-keeping annotation: its text is empty by definition.
                    out.timeKeeping = onset
                } else if !t.isEmpty {
                    out.annotations.append(EDFAnnotation(onsetSeconds: onset, durationSeconds: duration, text: t, record: record))
                }
                annotationIndex += 1
                q += 1
            }
            guard q < n else {
                throw Problem(offset: talStart, message: "TAL does not end with 0x00 within the signal")
            }
            if annotationIndex == 0 {
                throw Problem(offset: talStart, message: "TAL has an onset but no 0x14-terminated annotation")
            }
            p = q + 1
            talIndex += 1
        }
        return out
    }

    static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }

    static func text(_ bytes: UnsafeRawBufferPointer, _ r: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[r]), as: UTF8.self)
    }

    /// A TAL number: `[+-]digits[.digits]` (onsets carry the sign, durations do not).
    static func number(_ bytes: UnsafeRawBufferPointer, _ r: Range<Int>, signed: Bool) -> Double? {
        var i = r.lowerBound
        if signed {
            guard i < r.upperBound, bytes[i] == 0x2B || bytes[i] == 0x2D else { return nil }
            i += 1
        }
        var digits = 0, dots = 0
        for k in i..<r.upperBound {
            let c = bytes[k]
            if c >= 0x30 && c <= 0x39 {
                digits += 1
            } else if c == 0x2E {
                dots += 1
            } else {
                return nil
            }
        }
        guard digits > 0, dots <= 1, r.count <= 40 else { return nil }
        guard let v = Double(text(bytes, r.lowerBound..<r.upperBound)), v.isFinite else {
            return nil
        }
        return v
    }
}
