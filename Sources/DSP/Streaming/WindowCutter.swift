/// A position on a stream's axis that windows are cut along: a sample or grid index (`Int`) or a
/// time in seconds (`Double`).
public protocol WindowPosition: Comparable, Sendable {
    /// Window `k`'s start, `origin + k · step`, computed exactly as written (for `Double`,
    /// `origin + Double(k) * step`).
    static func start(origin: Self, index k: Int, step: Self) -> Self
    /// `⌊(position − origin) ÷ step⌋`: the index of the last window that starts at or before
    /// `position` (floor division for `Int`; `Int((… / step).rounded(.down))` for `Double`).
    static func floorIndex(of position: Self, origin: Self, step: Self) -> Int
    /// `a + b`.
    static func + (a: Self, b: Self) -> Self
    /// `a − b`.
    static func - (a: Self, b: Self) -> Self
}

extension Int: WindowPosition {
    @inlinable
    public static func start(origin: Int, index k: Int, step: Int) -> Int { origin + k * step }
    @inlinable
    public static func floorIndex(of position: Int, origin: Int, step: Int) -> Int {
        let a = position - origin
        return a >= 0 ? a / step : (a - step + 1) / step
    }
}

extension Double: WindowPosition {
    @inlinable
    public static func start(origin: Double, index k: Int, step: Double) -> Double { origin + Double(k) * step }
    @inlinable
    public static func floorIndex(of position: Double, origin: Double, step: Double) -> Int {
        Int(((position - origin) / step).rounded(.down))
    }
}

/// The window cutter every windowed analysis shares: windows `k = 0, 1, …` of ``length`` every
/// ``step`` from ``origin`` (the stream's first sample, or the clock's zero for windows aligned
/// to the clock), and a **latency hold**: a cursor (``next``) that releases a window only once
/// the analysis says its results are final through the window's end (R-peaks known, pulses
/// known, counts and steps decided, or simply a later sample seen), in order, each once.
///
/// The cutter does not hold samples: each analysis keeps what its windows need (samples, sums,
/// spectra) and asks the cutter where windows start and end, which window holds a position, and
/// which windows may go. Used by the ECG quality windows (sample indices of a segment, from its
/// start), the PPG heart-rate and quality windows (25-Hz grid indices, from the first optical
/// sample, overlapping), the motion epochs (grid indices, aligned to the clock) and the feature
/// windows (seconds, from the first sample or aligned to the clock).
///
/// ```swift
/// var cutter = WindowCutter(length: 1000, step: 250, origin: 0)
/// while let k = cutter.nextFinal(through: finalSample) {   // windows ending ≤ finalSample
///     assess(start: cutter.start(of: k), end: cutter.end(of: k))
///     cutter.releaseNext()
/// }
/// ```
///
/// Streaming: the cutter's state is one index, so windows (and what an analysis computes for
/// them) do not depend on how the stream was split into blocks.
/// - Complexity: every operation O(1) (``skip(toFirstEndingAfter:)``: O(1) plus the windows it
///   steps over within one window length).
public struct WindowCutter<Position: WindowPosition>: Sendable {
    /// Window length (samples, grid points or seconds).
    public let length: Position
    /// Step between window starts (< ``length``: overlapping windows).
    public let step: Position
    /// Start of window 0.
    public let origin: Position
    /// The first window not yet released.
    public var next: Int

    /// Creates a cutter whose window 0 starts at `origin` (the stream's first sample).
    /// - Parameters:
    ///   - length: window length (> 0).
    ///   - step: step between window starts (> 0).
    ///   - origin: start of window 0.
    ///   - next: the first window to release (default 0).
    public init(length: Position, step: Position, origin: Position, next: Int = 0) {
        self.length = length
        self.step = step
        self.origin = origin
        self.next = next
    }

    /// Creates a cutter of windows aligned to the clock (window starts are multiples of `step`
    /// from `zero`) whose first window to release is the last one that starts at or before
    /// `position` (the stream's first sample).
    /// - Parameters:
    ///   - length: window length (> 0).
    ///   - step: step between window starts (> 0).
    ///   - zero: the clock's zero (0 s, grid index 0).
    ///   - position: the first sample's position.
    public init(length: Position, step: Position, alignedTo zero: Position, startingAt position: Position) {
        self.init(length: length, step: step, origin: zero)
        next = Position.floorIndex(of: position, origin: zero, step: step)
        while start(of: next) > position { next -= 1 }
    }

    /// Window `k`'s start.
    @inlinable
    public func start(of k: Int) -> Position { Position.start(origin: origin, index: k, step: step) }

    /// Window `k`'s end (exclusive): its start plus ``length``.
    @inlinable
    public func end(of k: Int) -> Position { start(of: k) + length }

    /// The index of the last window starting at or before `position` (for adjacent windows,
    /// `step == length`, the window that holds it).
    @inlinable
    public func window(containing position: Position) -> Int {
        Position.floorIndex(of: position, origin: origin, step: step)
    }

    /// Whether window `k`'s results are final when they are final up to `limit` (its end is at
    /// or before `limit`).
    @inlinable
    public func isFinal(_ k: Int, through limit: Position) -> Bool { end(of: k) <= limit }

    /// ``next`` when its results are final through `limit` (the first position whose results
    /// are not yet final), else `nil`; release it with ``releaseNext()`` once it is handed out.
    ///
    /// ```swift
    /// while let k = cutter.nextFinal(through: limit) { assess(window: k); cutter.releaseNext() }
    /// ```
    @inlinable
    public func nextFinal(through limit: Position) -> Int? { isFinal(next, through: limit) ? next : nil }

    /// Moves ``next`` past the window it names.
    @inlinable
    public mutating func releaseNext() { next += 1 }

    /// Moves ``next`` to the first window that ends after `position` (windows that can hold no
    /// sample at or after `position` are skipped, as over a long gap; ``next`` never moves back).
    /// - Parameter position: the position of the next sample.
    @inlinable
    public mutating func skip(toFirstEndingAfter position: Position) {
        let k = Position.floorIndex(of: position - length, origin: origin, step: step) + 1
        if k > next { next = k }
        while end(of: next) <= position { next += 1 }
    }
}

extension WindowCutter {
    /// The share of a window covered by valid samples, `min(1, valid ÷ expected)`, 0 when
    /// nothing is expected.
    /// - Parameters:
    ///   - valid: valid samples in the window.
    ///   - expected: samples a full window holds (length × rate).
    /// - Complexity: O(1).
    @inlinable
    public static func validFraction(valid: Int, expected: Double) -> Double {
        expected > 0 ? min(1, Double(valid) / expected) : 0
    }
}
