/// How one option reads in `--help`, the shell completions and the man page. Never written by
/// hand: made from a ``CommandOption`` (the command's own options) or from a family's
/// ``OptionDescriptor`` (``AnalysisOptions``), so what is documented is what is parsed.
struct OptionSpec {
    /// What the value is, for help and completion.
    enum Value {
        /// A flag without a value.
        case none
        /// A file path (completed from the file system).
        case file(String)
        /// A folder path.
        case folder(String)
        /// One of these words.
        case choice(String, [String])
        /// Any other text (not completed).
        case text(String)

        /// The placeholder shown in help (`PATH`, `N`), or `nil` for a flag.
        var placeholder: String? {
            switch self {
            case .none: nil
            case .file(let p), .folder(let p), .text(let p), .choice(let p, _): p
            }
        }
    }

    /// Spellings, the long one first (`--quiet`, `-q`).
    var flags: [String]
    var value: Value
    /// The help text (wrapped when printed).
    var help: String
    /// Whether the option may be given several times (`--include GLOB`…).
    var repeatable = false
    /// Whether the command needs it (shown without brackets in the synopsis).
    var required = false

    /// The synopsis word: `[--jobs N]`, `--to sensorkit-ndjson`, `[--format sqlite|csv]`,
    /// `[--include GLOB]…` (a choice of up to three words shows them).
    var synopsisWord: String {
        var placeholder = value.placeholder
        if case .choice(_, let words) = value, words.count <= 3 { placeholder = words.joined(separator: "|") }
        let word = flags[0] + (placeholder.map { " " + $0 } ?? "")
        return required ? word : "[\(word)]" + (repeatable ? "…" : "")
    }

    /// The `--help` line(s): flags and placeholder, then the text wrapped at 96 columns.
    var helpLines: String { Self.wrap(head: "  " + flags.joined(separator: ", ") + (value.placeholder.map { " " + $0 } ?? ""), help) }

    /// `head` padded to 18 columns, then `text` wrapped at 96 columns with hanging indentation.
    static func wrap(head: String, _ text: String, indent: Int = 18) -> String {
        var lines = [String]()
        var line = head.count < indent ? head.padding(toLength: indent, withPad: " ", startingAt: 0) : head + "  "
        var width = line.count
        for word in text.split(separator: " ") {
            if width + word.count > 96 && width > indent {
                lines.append(String(line.dropLast(line.hasSuffix(" ") ? 1 : 0)))
                line = String(repeating: " ", count: indent)
                width = indent
            }
            line += word + " "
            width += word.count + 1
        }
        lines.append(String(line.dropLast()))
        return lines.joined(separator: "\n")
    }
}
