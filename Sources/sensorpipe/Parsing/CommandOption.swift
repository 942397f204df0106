/// A usage error: the message after `sensorpipe: `; the command adds its one-line usage and the
/// `--help` hint and exits with 64.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// One option of a command, declared once: its spellings and help (``spec``: what `--help`, the
/// completions and the man page show), the rule its value must follow and where the value goes
/// (a key path into the command's options).
struct CommandOption<Options> {
    /// How the option reads in help, completions and the man page.
    var spec: OptionSpec
    /// Applied before every other option (`--config FILE`: options on the command line override
    /// the file wherever they stand).
    var appliesFirst = false
    /// Stores the value (`nil` for a flag) into the options, or throws the usage error.
    var apply: (inout Options, String?) throws(UsageError) -> Void

    /// Whether the option takes a value.
    var takesValue: Bool {
        if case .none = spec.value { return false }
        return true
    }

    /// A flag that sets `path` to `value` (default `true`).
    static func flag(
        _ flags: String..., required: Bool = false, help: String, _ path: WritableKeyPath<Options, Bool>, to value: Bool = true
    ) -> Self {
        Self(spec: OptionSpec(flags: flags, value: .none, help: help, required: required)) { o, _ in o[keyPath: path] = value }
    }

    /// An option whose value, checked by `rule`, is stored at `path`.
    static func value<V>(
        _ flags: String..., rule: ValueRule<V>, required: Bool = false, help: String, _ path: WritableKeyPath<Options, V>
    ) -> Self {
        Self(spec: OptionSpec(flags: flags, value: rule.kind, help: help, required: required)) { o, text throws(UsageError) in
            o[keyPath: path] = try Self.parse(text, flags[0], rule)
        }
    }

    /// An optional value: as ``value(_:rule:required:help:_:)`` into an optional.
    static func value<V>(
        _ flags: String..., rule: ValueRule<V>, required: Bool = false, help: String, _ path: WritableKeyPath<Options, V?>
    ) -> Self {
        Self(spec: OptionSpec(flags: flags, value: rule.kind, help: help, required: required)) { o, text throws(UsageError) in
            o[keyPath: path] = try Self.parse(text, flags[0], rule)
        }
    }

    /// A repeatable option: each value, checked by `rule`, is appended at `path`.
    static func appending<V>(_ flags: String..., rule: ValueRule<V>, help: String, _ path: WritableKeyPath<Options, [V]>) -> Self {
        Self(spec: OptionSpec(flags: flags, value: rule.kind, help: help, repeatable: true)) { o, text throws(UsageError) in
            o[keyPath: path].append(try Self.parse(text, flags[0], rule))
        }
    }

    /// This option of a part of the options (`AnalysisConfiguration` inside a command's options).
    func lifted<Outer>(_ path: WritableKeyPath<Outer, Options>) -> CommandOption<Outer> {
        let apply = self.apply
        return CommandOption<Outer>(spec: spec, appliesFirst: appliesFirst) { o, text throws(UsageError) in
            try apply(&o[keyPath: path], text)
        }
    }

    private static func parse<V>(_ text: String?, _ flag: String, _ rule: ValueRule<V>) throws(UsageError) -> V {
        guard let text, let v = rule.parse(text) else {
            throw UsageError("\(flag) needs \(rule.expectation)" + (text.map { ", got '\($0)'" } ?? ""))
        }
        return v
    }
}
