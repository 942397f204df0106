/// A LAPACK routine reported failure (`info ≠ 0`).
///
/// `code` says what kind of failure; `message` names the routine and the input, and `info` is
/// LAPACK's own status value for reference.
public struct LinearAlgebraError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Kinds of failure. New kinds may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        @usableFromInline let raw: String
        /// An iterative algorithm (SVD, eigenvalue QR / divide and conquer) did not converge
        /// (`info > 0`); the input is typically badly scaled or contains NaN or infinity.
        public static let noConvergence = Code(raw: "noConvergence")
        /// LAPACK rejected an argument (`info < 0`, or LAPACKE's −1010 for out of memory).
        public static let invalidArgument = Code(raw: "invalidArgument")
        /// Non-finite input detected before calling LAPACK.
        public static let nonFiniteInput = Code(raw: "nonFiniteInput")
        /// The code's name.
        public var description: String { raw }
    }

    /// What went wrong.
    public var code: Code
    /// Human-readable description naming the routine and the input.
    public var message: String
    /// LAPACK's `info` return value (0 when the error was detected before the call).
    public var info: Int

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - message: description naming the routine and the input.
    ///   - info: LAPACK's `info`, or 0.
    public init(code: Code, message: String, info: Int = 0) {
        self.code = code
        self.message = message
        self.info = info
    }

    /// `"<code>: <message>"`.
    public var description: String { "\(code): \(message)" }

    /// Checks a LAPACKE return value.
    static func check(_ info: Int32, routine: String, input: String) throws(LinearAlgebraError) {
        guard info != 0 else { return }
        if info > 0 {
            throw LinearAlgebraError(
                code: .noConvergence,
                message: "\(routine) did not converge for \(input) (info = \(info))",
                info: Int(info))
        }
        throw LinearAlgebraError(
            code: .invalidArgument,
            message: "\(routine) rejected argument \(-info) for \(input) (info = \(info))",
            info: Int(info))
    }

    /// Throws `nonFiniteInput` if any value is NaN or infinite (LAPACK's behaviour on such input
    /// is undefined; it may loop or return garbage).
    static func requireFinite(_ values: [Double], routine: String, input: String) throws(LinearAlgebraError) {
        for (i, v) in values.enumerated() where !v.isFinite {
            throw LinearAlgebraError(
                code: .nonFiniteInput,
                message: "\(routine): \(input) has a non-finite value (\(v)) at flat index \(i)")
        }
    }
}
