/// The per-stream (or per-device, per-series) analysers of one ``RecordingAnalyzer``, kept in
/// the order they were added.
///
/// Every family keeps one analyser value per claimed stream and mutates it block by block. A
/// value mutated through ``update(_:_:)`` is taken out of the table for the mutation and put
/// back after it, so the table never holds a second reference to the value's storage while it
/// changes (no copy-on-write of its arrays); ``remove(_:)`` hands a value out for good (at the
/// end of the recording, so its memory goes as soon as it is finished).
///
/// ```swift
/// var analyzers = AnalyzerTable<Int, MyStreamAnalyzer>()
/// analyzers.add(MyStreamAnalyzer(), for: stream.index)          // claim
/// try analyzers.update(block.stream) { try $0.consume(block) }  // consume
/// for index in analyzers.order { var a = analyzers.remove(index)!; try a.finish() }
/// ```
///
/// - Complexity: ``update(_:_:)``, ``remove(_:)`` and the subscript O(1) on average (a hashed
///   table); memory O(analysers).
public struct AnalyzerTable<Key: Hashable, Analyzer> {
    @usableFromInline var values: [Key: Analyzer] = [:]
    /// The keys in the order they were first added (removed keys stay listed).
    public private(set) var order: [Key] = []
    /// The keys of ``order``, for an O(1) membership test when adding.
    @usableFromInline var ordered: Set<Key> = []

    /// Creates an empty table.
    public init() {}

    /// Adds `analyzer` under `key` (replacing the one there; a new key goes to the end of
    /// ``order``).
    /// - Parameters:
    ///   - analyzer: the value.
    ///   - key: its stream index, device or series key.
    public mutating func add(_ analyzer: Analyzer, for key: Key) {
        if values.updateValue(analyzer, forKey: key) == nil && ordered.insert(key).inserted { order.append(key) }
    }

    /// The analyser under `key`, or `nil`; read only (mutate it with ``update(_:_:)``).
    public subscript(key: Key) -> Analyzer? { values[key] }

    /// Whether the table holds an analyser under `key`.
    public func contains(_ key: Key) -> Bool { values[key] != nil }

    /// Mutates the analyser under `key` in place: it is taken out for `body` and put back after
    /// it, also when `body` throws.
    /// - Parameters:
    ///   - key: the analyser's key.
    ///   - body: the mutation.
    /// - Returns: what `body` returns, or `nil` (without calling it) when `key` holds nothing.
    /// - Throws: what `body` throws.
    @inlinable
    @discardableResult
    public mutating func update<Result>(_ key: Key, _ body: (inout Analyzer) throws -> Result) rethrows -> Result? {
        guard var analyzer = values.removeValue(forKey: key) else { return nil }
        defer { values[key] = analyzer }
        return try body(&analyzer)
    }

    /// Removes the analyser under `key` and hands it out (its key stays in ``order``).
    /// - Returns: the analyser, or `nil` when `key` holds nothing.
    @discardableResult
    public mutating func remove(_ key: Key) -> Analyzer? { values.removeValue(forKey: key) }
}

extension AnalyzerTable: Sendable where Key: Sendable, Analyzer: Sendable {}
