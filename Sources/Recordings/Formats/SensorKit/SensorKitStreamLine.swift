/// A `stream` line: SensorPipe's extension of schema v1 (`docs/SCHEMA.md`, "Stream lines") that
/// states one stream's identity, time origin and attributes, so a recording converted from
/// another format reads back with the keys and metadata of its source.
///
/// ```json
/// {"type":"stream","deviceId":"100","sensor":"electrocardiogram","reference":"100/MLII",
///  "channel":"MLII","session":null,"timeOrigin":"stream_start","attributes":{"lead":"MLII"}}
/// ```
/// `reference` names the data the line describes, among the data lines of `deviceId` for
/// `sensor`: the ECG `session.identifier`, or the channel the decoder derives from the data
/// (`acceleration`, `rotationRate`, PPG `accelerometer`, `temperature`,
/// `optical/e<emitter>/pd<i,j>/s<signalIdentifier>`). The stream made from that data gets key
/// (`deviceId`, `sensor`, `channel`, `session`), ``StreamInfo/timeOrigin`` `timeOrigin` (default
/// `unix`), the declared rate `nominalSampleRate` in Hz when given (the schema's accelerometer
/// lines carry none) and exactly `attributes` (default none). A reader that does not know the line type
/// skips it (the schema's forward-compatibility rule) and derives the key from the data.
struct SensorKitStreamLine: Sendable, Hashable {
    var deviceID: String
    var sensor: SensorKind
    var reference: String
    var channel: String
    var session: String?
    var timeOrigin: TimeOrigin
    var nominalSampleRate: Double?
    var attributes: [String: String]

    /// Parses a `stream` line (the scanner at its start).
    /// - Throws: ``ScanError`` for malformed JSON, a missing `deviceId`, `sensor`, `reference` or
    ///   `channel`, an unknown sensor or time origin, or an attribute value that is not a string.
    /// - Complexity: O(line length).
    static func parse(_ s: inout JSONScanner, _ p: inout SensorKitRecordParser) throws(ScanError) -> SensorKitStreamLine {
        s.skipWhitespace()
        let at = s.i
        try s.beginObject("stream")
        var device: String?, sensorName: String?, reference: String?, channel: String?, session: String?
        var origin = TimeOrigin.unix
        var rate: Double?
        var attributes = [String: String]()
        var first = true
        while try s.nextKey(&first) {
            if s.keyIs("type") {
                _ = try s.readStringRange("type")
            } else if s.keyIs("deviceId") {
                device = try s.readString("deviceId")
            } else if s.keyIs("sensor") {
                sensorName = try s.readString("sensor")
            } else if s.keyIs("reference") {
                reference = try s.readString("reference")
            } else if s.keyIs("channel") {
                channel = try s.readString("channel")
            } else if s.keyIs("session") {
                session = s.readNull() ? nil : try s.readString("session")
            } else if s.keyIs("timeOrigin") {
                s.skipWhitespace()
                let valueAt = s.i
                let name = try s.readString("timeOrigin")
                guard let o = TimeOrigin(rawValue: name) else {
                    throw ScanError(
                        .outOfRange, at: valueAt,
                        "unknown timeOrigin \"\(name)\" (known: "
                            + TimeOrigin.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                }
                origin = o
            } else if s.keyIs("nominalSampleRate") {
                rate = s.readNull() ? nil : try s.readDouble("nominalSampleRate")
            } else if s.keyIs("attributes") {
                try s.beginObject("attributes")
                var firstAttribute = true
                while try s.nextKey(&firstAttribute) {
                    let key = s.key
                    attributes[key] = try s.readString("attributes")
                }
            } else {
                try p.skipUnknown(&s, in: "stream")
            }
        }
        try s.expectEnd()
        guard let device else { throw SensorKitRecordParser.missing("deviceId", in: "a stream line", at: at) }
        guard let sensorName else { throw SensorKitRecordParser.missing("sensor", in: "a stream line", at: at) }
        guard let sensor = SensorKind(rawValue: sensorName) else {
            throw ScanError(
                .outOfRange, at: at,
                "unknown sensor \"\(sensorName)\" in a stream line (known: "
                    + SensorKind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        guard let reference else { throw SensorKitRecordParser.missing("reference", in: "a stream line", at: at) }
        guard let channel else { throw SensorKitRecordParser.missing("channel", in: "a stream line", at: at) }
        return SensorKitStreamLine(
            deviceID: device, sensor: sensor, reference: reference, channel: channel,
            session: session, timeOrigin: origin, nominalSampleRate: rate, attributes: attributes)
    }
}
