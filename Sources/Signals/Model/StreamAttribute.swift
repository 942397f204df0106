/// The documented keys of ``StreamInfo/attributes`` for metadata that several formats carry, named
/// the same whatever the source, so a result database can hold them in one table
/// (`stream_attributes`) and a query does not need to know the format.
///
/// Every decoder that knows one of these facts stores it under this key (as text); a key is absent
/// when the source does not say. Format-specific attributes keep their own prefixed names
/// (`wfdb.*`, `gt3x.*`, `butppg.*`, `matlab.*`) next to these.
///
/// | key | meaning | sources |
/// | --- | --- | --- |
/// | `classification` | the recording device's own rhythm classification, as written (e.g. `Sinus Rhythm`) | Apple Health ECG CSV |
/// | `symptoms` | symptoms the user entered with the recording, as written (empty when none were entered) | Apple Health ECG CSV |
/// | `utc_offset_s` | offset of the recording's local clock from UTC, integer seconds east of UTC (`+0800` → `28800`) | Apple Health ECG CSV (`Recorded Date`), GT3X (`TimeZone`) |
/// | `device_name` | user-visible device name (e.g. `Apple Watch`) | SensorKit `device` line, GT3X |
/// | `device_model` | hardware model identifier (e.g. `Watch6,1`, `wGT3XBT`) | SensorKit `productType` (else `model`), Apple Health `Device`, GT3X `Device Type` |
/// | `device_system` | operating system and version (e.g. `watchOS 10.4`) | SensorKit `systemName` + `systemVersion` |
/// | `device_software` | version of the software or firmware that recorded the data (e.g. the ECG app's `1.90`, GT3X firmware `1.7.2`) | Apple Health `Software Version`, GT3X `Firmware` |
/// | `device_serial` | the device's serial number | GT3X `Serial Number` |
///
/// How times count (Unix, from the stream start, device-local) is ``StreamInfo/timeOrigin``, not
/// an attribute.
public enum StreamAttribute {
    /// `classification`: the device's rhythm classification, as written.
    public static let classification = "classification"
    /// `symptoms`: symptoms the user entered, as written.
    public static let symptoms = "symptoms"
    /// `utc_offset_s`: the recording's local-clock offset from UTC, integer seconds east of UTC.
    public static let utcOffsetSeconds = "utc_offset_s"
    /// `device_name`: user-visible device name.
    public static let deviceName = "device_name"
    /// `device_model`: hardware model identifier.
    public static let deviceModel = "device_model"
    /// `device_system`: operating system name and version.
    public static let deviceSystem = "device_system"
    /// `device_software`: version of the recording software or firmware.
    public static let deviceSoftware = "device_software"
    /// `device_serial`: serial number.
    public static let deviceSerial = "device_serial"

    /// Every documented key, in the order of the table above.
    public static let allKeys = [
        classification, symptoms, utcOffsetSeconds, deviceName, deviceModel,
        deviceSystem, deviceSoftware, deviceSerial,
    ]

    /// The device attributes of a SensorKit-style device description: `device_name`,
    /// `device_model` (`productType`, else `model`), `device_system` (`systemName` and
    /// `systemVersion`, joined by a space); only those the description gives.
    /// - Parameter device: the device.
    /// - Returns: key → value.
    /// - Complexity: O(1).
    public static func deviceAttributes(of device: DeviceInfo) -> [String: String] {
        var a = [String: String]()
        if let n = device.name, !n.isEmpty { a[deviceName] = n }
        if let m = device.productType ?? device.model, !m.isEmpty { a[deviceModel] = m }
        let system = [device.systemName, device.systemVersion].compactMap { $0 }.filter { !$0.isEmpty }
        if !system.isEmpty { a[deviceSystem] = system.joined(separator: " ") }
        return a
    }
}
