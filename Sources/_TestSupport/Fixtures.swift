import Foundation

/// Locates the committed reference fixtures (`Tests/<Target>/Fixtures/…`), written by
/// `scripts/make-reference-vectors.py`.
public enum Fixtures {
    /// The repository root, found from this file's compile-time path.
    public static let repositoryRoot: URL = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent() // _TestSupport
            .deletingLastPathComponent() // Sources
            .deletingLastPathComponent() // root
    }()

    /// URL of `Tests/<target>/Fixtures/<relativePath>`.
    public static func url(_ target: String, _ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/\(target)/Fixtures/\(relativePath)")
    }

    /// Reads a `.npy` fixture as doubles.
    public static func doubles(_ target: String, _ relativePath: String) throws -> [Double] {
        try NPY.read(url(target, relativePath)).doubles
    }

    /// Reads a `.npy` fixture as integers.
    public static func ints(_ target: String, _ relativePath: String) throws -> [Int] {
        try NPY.read(url(target, relativePath)).ints
    }

    /// Reads a JSON fixture (parameters, small vectors) as a dictionary. Numbers come back as
    /// `NSNumber`s holding exactly the value of their decimal text (`JSONSerialization` on Linux
    /// can be off by an ulp): integers as `Int`, others through the correctly rounded
    /// `Double(String)`.
    public static func json(_ target: String, _ relativePath: String) throws -> [String: Any] {
        let data = try Data(contentsOf: url(target, relativePath))
        return try ExactJSON.parse([UInt8](data)) as? [String: Any] ?? [:]
    }

    /// `../shared/datasets` beside the repository (or the folder `SENSORPIPE_DATASETS` names, for
    /// a git worktree elsewhere), or `nil` when absent (validation suites skip).
    public static var sharedDatasets: URL? {
        let u =
            ProcessInfo.processInfo.environment["SENSORPIPE_DATASETS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets")
        return FileManager.default.fileExists(atPath: u.path) ? u : nil
    }
}
