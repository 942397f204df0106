/// The value of an analysis option, as configuration files and command lines give it.
public enum OptionValue: Sendable, Hashable, CustomStringConvertible {
    case number(Double)
    case flag(Bool)
    case choice(String)

    public var description: String {
        switch self {
        case .number(let x): return x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
        case .flag(let b): return b ? "true" : "false"
        case .choice(let s): return s
        }
    }
}

/// What values an option accepts.
public enum OptionKind: Sendable, Hashable {
    /// A number in a closed range.
    case number(ClosedRange<Double>)
    /// `true` or `false`.
    case flag
    /// One of the listed words.
    case choice([String])
    /// Free text (a list of names, say), carried as ``OptionValue/choice(_:)``; the family checks
    /// what the text means where it uses it.
    case text
}

/// One option of an analysis family, declared once: its key, meaning, unit, accepted values and
/// how it is read from and written to the family's options struct.
public struct AnalysisOption<Options>: Sendable {
    /// What values the option accepts.
    public typealias Kind = OptionKind

    /// Key in configuration files (`hrv_window_s`); the command-line flag is
    /// `--<family>-<key with _ as ->` (`--ecg-hrv-window-s`).
    public let key: String
    /// One-line meaning (shown by `--help`).
    public let summary: String
    /// Unit of a number (`s`, `Hz`, …), or `nil`.
    public let unit: String?
    /// Accepted values.
    public let kind: Kind
    let get: @Sendable (Options) -> OptionValue
    let set: @Sendable (inout Options, OptionValue) -> Void

    /// Declares a number option.
    /// - Parameters:
    ///   - key: configuration key.
    ///   - unit: unit, or `nil`.
    ///   - summary: one-line meaning.
    ///   - range: accepted values.
    ///   - get: reads it from the options.
    ///   - set: writes it into the options.
    public static func number(
        _ key: String, unit: String?, _ summary: String, range: ClosedRange<Double>,
        get: @escaping @Sendable (Options) -> Double,
        set: @escaping @Sendable (inout Options, Double) -> Void
    ) -> Self {
        Self(
            key: key, summary: summary, unit: unit, kind: .number(range), get: { .number(get($0)) },
            set: { if case .number(let x) = $1 { set(&$0, x) } })
    }

    /// Declares a `true`/`false` option.
    public static func flag(
        _ key: String, _ summary: String, get: @escaping @Sendable (Options) -> Bool,
        set: @escaping @Sendable (inout Options, Bool) -> Void
    ) -> Self {
        Self(
            key: key, summary: summary, unit: nil, kind: .flag, get: { .flag(get($0)) },
            set: { if case .flag(let b) = $1 { set(&$0, b) } })
    }

    /// Declares an option that takes one of several words.
    public static func choice(
        _ key: String, _ summary: String, choices: [String],
        get: @escaping @Sendable (Options) -> String,
        set: @escaping @Sendable (inout Options, String) -> Void
    ) -> Self {
        Self(
            key: key, summary: summary, unit: nil, kind: .choice(choices), get: { .choice(get($0)) },
            set: { if case .choice(let s) = $1 { set(&$0, s) } })
    }

    /// Declares a free-text option (its value travels as ``OptionValue/choice(_:)``).
    public static func text(
        _ key: String, _ summary: String, get: @escaping @Sendable (Options) -> String,
        set: @escaping @Sendable (inout Options, String) -> Void
    ) -> Self {
        Self(
            key: key, summary: summary, unit: nil, kind: .text, get: { .choice(get($0)) },
            set: { if case .choice(let s) = $1 { set(&$0, s) } })
    }

    /// The option's value in `options`.
    public func value(in options: Options) -> OptionValue { get(options) }

    /// Sets the option after checking `value` against ``kind``.
    /// - Returns: `nil`, or what is wrong with the value (for the caller's error message).
    public func apply(_ value: OptionValue, to options: inout Options) -> String? {
        if let problem = Self.check(value, kind) { return problem }
        set(&options, value)
        return nil
    }

    /// Parses a command-line word for an option of `kind`.
    public static func parse(_ text: String, kind: Kind) -> OptionValue? {
        switch kind {
        case .number: return Double(text).map { .number($0) }
        case .flag: return text == "true" ? .flag(true) : text == "false" ? .flag(false) : nil
        case .choice, .text: return .choice(text)
        }
    }

    /// What is wrong with `value` for `kind`, or `nil`.
    public static func check(_ value: OptionValue, _ kind: Kind) -> String? {
        switch (kind, value) {
        case (.number(let r), .number(let x)):
            return x.isFinite && r.contains(x) ? nil : "must be a number from \(r.lowerBound) to \(r.upperBound), got \(value)"
        case (.flag, .flag): return nil
        case (.text, .choice): return nil
        case (.text, _): return "must be text, got \(value)"
        case (.choice(let words), .choice(let w)):
            return words.contains(w) ? nil : "must be one of \(words.joined(separator: ", ")), got \(w)"
        case (.number, _): return "must be a number, got \(value)"
        case (.flag, _): return "must be true or false, got \(value)"
        case (.choice(let words), _): return "must be one of \(words.joined(separator: ", ")), got \(value)"
        }
    }
}
