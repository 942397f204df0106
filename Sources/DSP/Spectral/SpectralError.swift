/// Bad data given to a spectral estimator (for example, an empty signal or negative weights).
public struct SpectralError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the input.
    public var message: String

    /// Creates an error with a message naming the input and the problem.
    /// - Parameter message: human-readable description.
    public init(_ message: String) { self.message = message }

    /// `"SpectralError: <message>"`.
    public var description: String { "SpectralError: \(message)" }
}
