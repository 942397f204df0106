/// A filter specification that cannot be designed, with a message naming the offending input.
///
/// Thrown by ``FIRDesign``. Match on ``code``; the ``message`` is for people.
public struct FIRDesignError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; new codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Stable identifier of the code.
        public let rawValue: String
        /// The tap count is < 1.
        public static let invalidTapCount = Code(rawValue: "invalidTapCount")
        /// The sample rate is not finite and > 0.
        public static let invalidSampleRate = Code(rawValue: "invalidSampleRate")
        /// A cutoff is outside (0, sampleRate/2), the cutoffs are not strictly increasing, or
        /// there are none.
        public static let invalidCutoff = Code(rawValue: "invalidCutoff")
        /// An even tap count was asked for a response that passes the Nyquist frequency
        /// (high-pass, band-stop): a symmetric even-length filter is zero there.
        public static let evenTapCountPassesNyquist = Code(rawValue: "evenTapCountPassesNyquist")
        /// A window parameter (Kaiser β) is not finite.
        public static let invalidWindow = Code(rawValue: "invalidWindow")
        /// A Kaiser specification outside the validity of Kaiser's formulas (ripple < 8 dB,
        /// transition width not in (0, sampleRate/2]).
        public static let invalidSpecification = Code(rawValue: "invalidSpecification")

        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// Human-readable explanation naming the input and its value.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - message: explanation naming the input and its value.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "FIRDesignError.\(code): \(message)" }
}
