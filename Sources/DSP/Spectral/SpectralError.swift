/// Bad data given to a spectral estimator (for example, an empty signal or negative weights): a
/// code and a message naming the input.
public struct SpectralError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is; new codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
        /// Fewer samples than the estimate needs (none, one, or fewer than the window).
        public static let tooFewSamples = Code(rawValue: "too-few-samples")
        /// A time or value is NaN or infinite.
        public static let nonFinite = Code(rawValue: "non-finite")
        /// The input spans nothing (all times equal, weights summing to zero).
        public static let degenerate = Code(rawValue: "degenerate")
        /// A weight is negative or not finite.
        public static let invalidWeight = Code(rawValue: "invalid-weight")
    }

    /// What kind of problem.
    public var code: Code
    /// What went wrong, naming the input.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: human-readable description naming the input.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `"SpectralError: <message>"` (the code is in ``code``).
    public var description: String { "SpectralError: \(message)" }
}
