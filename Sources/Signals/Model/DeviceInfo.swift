/// The device a stream was recorded on (the schema's `device` line; SensorKit `SRDevice`).
public struct DeviceInfo: Sendable, Hashable, Codable {
    /// Identifier used by data lines (`deviceId`).
    public var id: String
    /// User-visible name, e.g. "Apple Watch".
    public var name: String?
    /// Model, e.g. "Watch".
    public var model: String?
    /// Operating system name, e.g. "watchOS".
    public var systemName: String?
    /// Operating system version, e.g. "10.4".
    public var systemVersion: String?
    /// Hardware identifier, e.g. "Watch6,1".
    public var productType: String?

    /// Creates a device description; only `id` is required.
    public init(
        id: String, name: String? = nil, model: String? = nil, systemName: String? = nil,
        systemVersion: String? = nil, productType: String? = nil
    ) {
        self.id = id
        self.name = name
        self.model = model
        self.systemName = systemName
        self.systemVersion = systemVersion
        self.productType = productType
    }
}
