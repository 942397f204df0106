/// The per-stream (or per-device, per-series) analysers of one ``RecordingAnalyzer``, kept in
/// the order they were added.
///
/// Every family keeps one analyser value per claimed stream and mutates it block by block. The
/// values live in an array of slots (one per key, in the order the keys were first added) and
/// ``update(_:_:)`` mutates a value in its slot, so a value is neither moved nor copied per call
/// and the table never holds a second reference to its storage while it changes (no
/// copy-on-write of its arrays); ``remove(_:)`` hands a value out for good (at the end of the
/// recording, so its memory goes as soon as it is finished).
///
/// ```swift
/// var analyzers = AnalyzerTable<Int, MyStreamAnalyzer>()
/// analyzers.add(MyStreamAnalyzer(), for: stream.index)          // claim
/// try analyzers.update(block.stream) { try $0.consume(block) }  // consume
/// for index in analyzers.order { var a = analyzers.remove(index)!; try a.finish() }
/// ```
///
/// - Complexity: ``update(_:_:)``, ``remove(_:)`` and the subscript O(1) on average (a hashed
///   key to its slot); memory O(analysers).
public struct AnalyzerTable<Key: Hashable, Analyzer> {
    /// The analysers by slot; a removed one leaves `nil` (slot `i` belongs to `order[i]`).
    @usableFromInline var slots: [Analyzer?] = []
    /// Whether each slot holds an analyser (read without touching the analyser: a generic
    /// read of `slots[i]` copies the value, retaining its storage).
    @usableFromInline var live: [Bool] = []
    /// Each key's slot.
    @usableFromInline var slotOf: [Key: Int] = [:]
    /// The keys in the order they were first added (removed keys stay listed).
    public private(set) var order: [Key] = []

    /// Creates an empty table.
    public init() {}

    /// Adds `analyzer` under `key` (replacing the one there; a new key goes to the end of
    /// ``order``).
    /// - Parameters:
    ///   - analyzer: the value.
    ///   - key: its stream index, device or series key.
    public mutating func add(_ analyzer: Analyzer, for key: Key) {
        if let s = slotOf[key] {
            slots[s] = analyzer
            live[s] = true
        } else {
            slotOf[key] = slots.count
            slots.append(analyzer)
            live.append(true)
            order.append(key)
        }
    }

    /// The analyser under `key`, or `nil`; read only (mutate it with ``update(_:_:)``).
    public subscript(key: Key) -> Analyzer? { slotOf[key].flatMap { slots[$0] } }

    /// Whether the table holds an analyser under `key`.
    @inlinable
    public func contains(_ key: Key) -> Bool { slotOf[key].map { live[$0] } ?? false }

    /// Mutates the analyser under `key` in place, in its slot (also what `body` changed before
    /// it throws stays).
    /// - Parameters:
    ///   - key: the analyser's key.
    ///   - body: the mutation.
    /// - Returns: what `body` returns, or `nil` (without calling it) when `key` holds nothing.
    /// - Throws: what `body` throws.
    @inlinable
    @discardableResult
    public mutating func update<Result>(_ key: Key, _ body: (inout Analyzer) throws -> Result) rethrows -> Result? {
        guard let s = slotOf[key], live[s] else { return nil }
        return try body(&slots[s]!)
    }

    /// Removes the analyser under `key` and hands it out (its key stays in ``order``).
    /// - Returns: the analyser, or `nil` when `key` holds nothing.
    @discardableResult
    public mutating func remove(_ key: Key) -> Analyzer? {
        guard let s = slotOf[key] else { return nil }
        var out: Analyzer? = nil
        swap(&out, &slots[s])
        live[s] = false
        return out
    }
}

extension AnalyzerTable: Sendable where Key: Sendable, Analyzer: Sendable {}
