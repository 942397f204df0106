/// An error from IIR filter design or filtering: bad parameters or data that cannot be filtered.
///
/// A struct with a stable ``code`` and a human-readable ``message`` naming the offending input,
/// so that new cases can be added without breaking callers (the `ValidationError` pattern).
public struct IIRError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Machine-readable kind of failure.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The code's stable name.
        public var rawValue: String
        /// Creates a code from its name.
        /// - Parameter rawValue: the stable name.
        /// - Complexity: O(1).
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The filter order is outside the supported range.
        public static let invalidOrder = Code(rawValue: "invalidOrder")
        /// A critical frequency is not in (0, sampleRate/2), or the band edges are not ordered.
        public static let invalidFrequency = Code(rawValue: "invalidFrequency")
        /// The sample rate is not a positive finite number.
        public static let invalidSampleRate = Code(rawValue: "invalidSampleRate")
        /// The signal is too short for the requested edge padding (zero-phase filtering).
        public static let signalTooShort = Code(rawValue: "signalTooShort")
    }

    /// What went wrong.
    public var code: Code
    /// A sentence naming the input and the value at fault.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: machine-readable kind.
    ///   - message: human-readable description naming the input.
    /// - Complexity: O(1).
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `"code: message"`.
    public var description: String { "\(code.rawValue): \(message)" }
}
