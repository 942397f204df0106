/// Bad data given to an HRV computation (too few intervals, a non-finite or non-positive
/// interval, beat times out of order).
public struct HRVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the input and, where there is one, the position.
    public var message: String

    /// Creates an error with a message naming the input and the problem.
    /// - Parameter message: human-readable description.
    public init(_ message: String) { self.message = message }

    /// `"HRVError: <message>"`.
    public var description: String { "HRVError: \(message)" }
}
