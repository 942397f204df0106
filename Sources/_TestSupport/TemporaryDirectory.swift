import Foundation

/// Temporary files for tests, removed when the value is dropped.
public final class TemporaryDirectory {
    public let url: URL
    public init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sensorpipe-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to `name` and returns the path.
    public func write(_ name: String, _ bytes: [UInt8]) -> String {
        let u = url.appendingPathComponent(name)
        try! Data(bytes).write(to: u)
        return u.path
    }

    public func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }
}
