/// How an option's text becomes a value, and what the text must be: the usage error of a value
/// the rule refuses says so (`--jobs needs an integer from 1 to 64, got '0'`).
struct ValueRule<Value> {
    /// Placeholder and completion (`N`, a file, one of these words).
    var kind: OptionSpec.Value
    /// What the value must be, after "needs": `a non-empty path`.
    var expectation: String
    /// The value, or `nil` when the text breaks the rule.
    var parse: (String) -> Value?
}

extension ValueRule where Value == String {
    /// A file path, not empty.
    static func file(_ placeholder: String) -> Self {
        Self(kind: .file(placeholder), expectation: "a \(placeholder), not an empty path") { $0.isEmpty ? nil : $0 }
    }

    /// A folder path, not empty.
    static func folder(_ placeholder: String) -> Self {
        Self(kind: .folder(placeholder), expectation: "a \(placeholder), not an empty path") { $0.isEmpty ? nil : $0 }
    }

    /// Any text, not empty.
    static func text(_ placeholder: String) -> Self {
        Self(kind: .text(placeholder), expectation: "a \(placeholder)") { $0.isEmpty ? nil : $0 }
    }
}

extension ValueRule where Value == Int {
    /// An integer within `range`.
    static func integer(_ placeholder: String, in range: ClosedRange<Int>) -> Self {
        let bound = range.upperBound == Int.max ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
        return Self(kind: .text(placeholder), expectation: "an integer \(bound)") { Int($0).flatMap { range.contains($0) ? $0 : nil } }
    }
}

extension ValueRule {
    /// One of `values`, named by `name` (its word on the command line).
    static func choice(_ placeholder: String, _ values: [Value], name: @escaping (Value) -> String) -> Self {
        let words = values.map(name)
        return Self(kind: .choice(placeholder, words), expectation: "one of " + words.joined(separator: ", ")) { text in
            values.first { name($0) == text }
        }
    }

    /// A value made by `make` (`nil` when the text is not one), described by `expectation`.
    static func parsed(_ placeholder: String, _ expectation: String, _ make: @escaping (String) -> Value?) -> Self {
        Self(kind: .text(placeholder), expectation: expectation, parse: make)
    }
}

extension ValueRule where Value: RawRepresentable<String> & CaseIterable {
    /// One of the type's cases, by raw value.
    static func choice(_ placeholder: String) -> Self { .choice(placeholder, Array(Value.allCases), name: \.rawValue) }
}
