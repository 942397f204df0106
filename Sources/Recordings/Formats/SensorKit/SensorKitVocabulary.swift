/// The enumerations of the SensorKit export schema v1, by Swift case name and (where Apple
/// defines one) integer raw value: `SRElectrocardiogramSample.Lead`,
/// `SRElectrocardiogramSession.State`, `SRElectrocardiogramSession.SessionGuidance`,
/// `SRPhotoplethysmogramSample.Usage`, `SRPhotoplethysmogramOpticalSample.Condition` and
/// `SRDeletionReason`.
struct SensorKitEnum {
    /// Schema field name (for messages).
    let field: StaticString
    /// Case names in order.
    let names: [StaticString]
    /// Integer raw values, parallel to `names`; empty when only names are valid (Apple's
    /// string-valued `Usage` and `Condition`).
    let rawValues: [Int64]

    static let lead = SensorKitEnum(
        field: "lead", names: ["rightArmMinusLeftArm", "leftArmMinusRightArm"],
        rawValues: [1, 2])
    static let sessionState = SensorKitEnum(
        field: "state", names: ["begin", "active", "end"],
        rawValues: [1, 2, 3])
    static let sessionGuidance = SensorKitEnum(
        field: "sessionGuidance", names: ["guided", "unguided"],
        rawValues: [1, 2])
    static let usage = SensorKitEnum(
        field: "usage",
        names: [
            "foregroundHeartRate", "deepBreathing",
            "foregroundBloodOxygen", "backgroundSystem",
        ],
        rawValues: [])
    static let condition = SensorKitEnum(
        field: "conditions", names: ["signalSaturation", "unreliableNoise"],
        rawValues: [])
    static let deletionReason = SensorKitEnum(
        field: "reason",
        names: [
            "userInitiated", "lowDiskSpace", "ageLimit",
            "noInterestedClients", "systemInitiated",
        ],
        rawValues: [0, 1, 2, 3, 4])

    /// Name of case `index`.
    func name(_ index: Int) -> String { names[index].description }

    var expectation: String {
        let cases = names.indices.map { k in
            rawValues.isEmpty ? names[k].description : "\(names[k]) (\(rawValues[k]))"
        }
        return cases.count <= 2
            ? cases.joined(separator: " or ")
            : cases.dropLast().joined(separator: ", ") + " or " + cases.last!
    }

    /// Reads the enum value at the scanner (a case name, or an integer raw value).
    /// - Returns: the case index in ``names``.
    func read(_ s: inout JSONScanner) throws(ScanError) -> Int {
        s.skipWhitespace()
        let at = s.i
        if s.byte(at) == UInt8(ascii: "\"") {
            let (start, length, escaped) = try s.scanString()
            if !escaped {
                for (k, n) in names.enumerated()
                where n.utf8CodeUnitCount == length
                    && memcmp(s.base + start, n.utf8Start, length) == 0
                {
                    return k
                }
            } else {
                let text = s.decodeString(start: start, length: length, escaped: true)
                if let k = names.firstIndex(where: { $0.description == text }) { return k }
            }
            let text = s.decodeString(start: start, length: length, escaped: escaped)
            throw ScanError(.outOfRange, at: at, "unknown value \"\(text)\" for '\(field)' (expected \(expectation))")
        }
        if !rawValues.isEmpty {
            let b = s.byte(at)
            if b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) {
                let v = try s.readInt64(field)
                if let k = rawValues.firstIndex(of: v) { return k }
                throw ScanError(.outOfRange, at: at, "unknown value \(v) for '\(field)' (expected \(expectation))")
            }
            throw s.wrongType("a string or an integer", field)
        }
        throw s.wrongType("a string", field)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
