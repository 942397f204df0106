/// Bad data given to an HRV computation (too few intervals, a non-finite or non-positive
/// interval, beat times out of order): a code and a message naming the input and position.
public struct HRVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is; new codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
        /// Fewer intervals, beats or resampled points than the metric needs.
        public static let tooFewIntervals = Code(rawValue: "too-few-intervals")
        /// An interval is not a finite positive number of ms.
        public static let invalidInterval = Code(rawValue: "invalid-interval")
        /// A time is NaN or infinite.
        public static let nonFinite = Code(rawValue: "non-finite")
        /// A time is not after the one before.
        public static let timeOrder = Code(rawValue: "time-order")
        /// The spectral estimate failed (its error is in the message).
        public static let spectrum = Code(rawValue: "spectrum")
    }

    /// What kind of problem.
    public var code: Code
    /// What went wrong, naming the input and, where there is one, the position.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: human-readable description naming the input.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `"HRVError: <message>"` (the code is in ``code``).
    public var description: String { "HRVError: \(message)" }
}
