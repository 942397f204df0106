import Pipeline
import Recordings

/// The analysis options of `analyze`, `run` and `features`, declared once: every option every
/// registered family declares (``OptionDescriptor``: `--ecg-hrv-window-s 300`), plus the short
/// aliases below. Parsing, `--help`, completions and the man page all use ``options``.
enum AnalysisOptions {
    /// A short spelling that sets one or several family options to the same value.
    struct Alias {
        var flag: String
        var placeholder: String
        /// The family options it sets (their flags).
        var targets: [String]
        /// Extra meaning after "alias of …" / "sets …", or empty.
        var note = ""
    }

    /// Every alias (the heart-rate windows set the options of every family that has them: ECG and PPG).
    static let aliases: [Alias] = [
        Alias(flag: "--hr-window", placeholder: "S", targets: ["--ecg-heart-rate-window-s", "--ppg-heart-rate-window-s"]),
        Alias(flag: "--hr-step", placeholder: "S", targets: ["--ecg-heart-rate-step-s", "--ppg-heart-rate-step-s"]),
        Alias(flag: "--features", placeholder: "SET", targets: ["--features-catalog"], note: "(`sensorpipe features --list`)"),
        Alias(
            flag: "--channel", placeholder: "NAME|INDEX", targets: ["--ecg-channel"],
            note: "(ECG leads to analyse: comma-separated channel names or 0-based indexes among the ECG streams)"),
    ]

    /// The family options and the aliases, bound to the analysis configuration.
    static var options: [CommandOption<AnalysisConfiguration>] {
        let descriptors = AnalysisRegistry.families.flatMap(\.options)
        var out = descriptors.map { d in option(flag: d.flag, placeholder: "V", help: help(d), setting: [d]) }
        for a in aliases {
            let targets = a.targets.map { t in descriptors.first { $0.flag == t } }
            precondition(!targets.contains { $0 == nil }, "alias \(a.flag) names an undeclared option")
            let names = a.targets.count == 1 ? "alias of \(a.targets[0])" : "sets " + a.targets.joined(separator: " and ")
            out.append(
                option(
                    flag: a.flag, placeholder: a.placeholder, help: names + (a.note.isEmpty ? "" : " " + a.note),
                    setting: targets.map { $0! })
            )
        }
        return out
    }

    /// `summary (default V unit, range)`.
    static func help(_ o: OptionDescriptor) -> String {
        let unit = o.unit.map { " \($0)" } ?? ""
        let range: String
        switch o.kind {
        case .number(let r): range = ", \(OptionValue.number(r.lowerBound))–\(OptionValue.number(r.upperBound))\(unit)"
        case .flag: range = ", true|false"
        case .choice(let w): range = w.count <= 6 ? ", " + w.joined(separator: "|") : "" // long lists: completion offers them
        case .text: range = ""
        }
        return "\(o.summary) (default \(o.defaultValue)\(unit)\(range))"
    }

    /// An option that parses its value by the first target's kind and sets every target.
    private static func option(flag: String, placeholder: String, help: String, setting targets: [OptionDescriptor])
        -> CommandOption<AnalysisConfiguration>
    {
        let value: OptionSpec.Value
        switch targets[0].kind {
        case .choice(let words): value = .choice(placeholder, words)
        case .flag: value = .choice(placeholder, ["true", "false"])
        case .number, .text: value = .text(placeholder)
        }
        return CommandOption(spec: OptionSpec(flags: [flag], value: value, help: help)) { analysis, text throws(UsageError) in
            let text = text ?? ""
            for d in targets {
                guard let v = AnalysisOption<Void>.parse(text, kind: d.kind) else {
                    throw UsageError("\(flag): '\(text)' is not a valid value")
                }
                do {
                    try analysis.set(family: d.family, key: d.key, value: v, origin: flag)
                } catch {
                    throw UsageError("\(error)")
                }
            }
        }
    }
}

/// The decode and configuration options several commands share, declared once and bound where
/// each command keeps them.
enum SharedOptions {
    /// `--preset NAME`.
    static func preset<O>(_ path: WritableKeyPath<O, DecodeOptions>) -> CommandOption<O> {
        CommandOption<O>.value(
            "--preset", rule: .choice("NAME"), help: "layout of CSV/MATLAB inputs (default: detected from content)",
            path.appending(path: \.preset))
    }

    /// `--csv-mapping FILE`, `--csv-time SPEC`, `--csv-column SPEC`…, `--csv-no-header`: how to read CSV
    /// inputs of a layout SensorPipe does not know (``CSVMappingFile``, ``CSVColumnOptions``).
    static func csv<O>(_ path: WritableKeyPath<O, DecodeOptions>) -> [CommandOption<O>] {
        func columns(_ o: inout O) -> CSVColumnOptions { o[keyPath: path].csvColumns ?? CSVColumnOptions() }
        return [
            CommandOption<O>(
                spec: OptionSpec(
                    flags: ["--csv-mapping"], value: .file("FILE"),
                    help: "CSV inputs: the column mapping as JSON (the fields of CSVMapping; docs/SCHEMA.md \"CSV mapping file\")")
            ) { o, text throws(UsageError) in
                guard let text, !text.isEmpty else { throw UsageError("--csv-mapping needs a FILE") }
                do {
                    o[keyPath: path].csvMapping = try CSVMappingFile.read(path: text)
                } catch {
                    throw UsageError("--csv-mapping: \(error)")
                }
            },
            CommandOption<O>(
                spec: OptionSpec(
                    flags: ["--csv-time"], value: .text("SPEC"),
                    help:
                        "CSV inputs: the time column COLUMN[,UNIT[,ORIGIN]] (COLUMN: header name or #N; UNIT s|ms|us|ns; ORIGIN "
                        + "unix|start|first|local|offset=S|first=UNIX), or rate=HZ[,start=UNIX]; goes with --csv-column")
            ) { o, text throws(UsageError) in
                switch CSVColumnOptions.parseTime(text ?? "") {
                case .success(let time):
                    var c = columns(&o)
                    c.time = time
                    o[keyPath: path].csvColumns = c
                case .failure(let e): throw UsageError("--csv-time \(e)")
                }
            },
            CommandOption<O>(
                spec: OptionSpec(
                    flags: ["--csv-column"], value: .text("SPEC"),
                    help:
                        "CSV inputs: a value column SENSOR.NAME=COLUMN[,UNIT] (SENSOR acc|gyro|ecg|ppg; UNIT "
                        + CSVColumnOptions.unitNames.joined(separator: "|") + "), e.g. acc.x=ax,g; repeat for each column",
                    repeatable: true)
            ) { o, text throws(UsageError) in
                switch CSVColumnOptions.parseColumn(text ?? "") {
                case .success(let column):
                    var c = columns(&o)
                    c.columns.append(column)
                    o[keyPath: path].csvColumns = c
                case .failure(let e): throw UsageError("--csv-column \(e)")
                }
            },
            CommandOption<O>(
                spec: OptionSpec(
                    flags: ["--csv-no-header"], value: .none,
                    help: "CSV inputs with --csv-column: the file has no header row (columns by #N)")
            ) { o, _ throws(UsageError) in
                var c = columns(&o)
                c.hasHeaderRow = false
                o[keyPath: path].csvColumns = c
            },
        ]
    }

    /// `--no-verify-integrity` (``DecodeOptions/verifiesIntegrity`` off).
    static func noVerifyIntegrity<O>(_ path: WritableKeyPath<O, DecodeOptions>) -> CommandOption<O> {
        CommandOption<O>.flag(
            "--no-verify-integrity",
            help:
                "deliver data whose integrity checks fail (WFDB checksum or header/data mismatch, GT3X CRC-32) and report each "
                + "failure as an issue, instead of failing the recording",
            path.appending(path: \.verifiesIntegrity), to: false)
    }

    /// `--edf-signal LABEL=KIND` (repeatable): the sensor of an EDF/BDF signal, replacing the label rules
    /// (``EDFSignalRules``).
    static func edfSignal<O>(_ path: WritableKeyPath<O, DecodeOptions>) -> CommandOption<O> {
        CommandOption<O>(
            spec: OptionSpec(
                flags: ["--edf-signal"], value: .text("LABEL=KIND"),
                help:
                    "EDF/BDF signal LABEL is KIND (ecg, ppg, accelerometer or none), instead of what its label and transducer "
                    + "say (docs/SCHEMA.md, \"EDF and BDF\"); repeatable",
                repeatable: true)
        ) { o, text throws(UsageError) in
            guard let text, let eq = text.lastIndex(of: "="), eq != text.startIndex,
                let kind = EDFSignalRules.overrideKind(String(text[text.index(after: eq)...]))
            else {
                throw UsageError("--edf-signal needs LABEL=KIND with KIND ecg, ppg, accelerometer or none (got '\(text ?? "")')")
            }
            o[keyPath: path].edfSignalSensors[String(text[..<eq])] = kind
        }
    }

    /// `--config FILE`: the whole configuration from a file, applied before the other options.
    static func configFile<O>(_ path: WritableKeyPath<O, AnalysisConfiguration>) -> CommandOption<O> {
        var option = CommandOption<O>(
            spec: OptionSpec(
                flags: ["--config"], value: .file("FILE"),
                help:
                    "analysis options as JSON (docs/RESULTS.md, \"Configuration files\"); options given on the command line override the file"
            )
        ) { o, text throws(UsageError) in
            guard let text, !text.isEmpty else { throw UsageError("--config needs a FILE") }
            do {
                o[keyPath: path] = try AnalysisConfiguration(configurationFile: text)
            } catch {
                throw UsageError("\(error)")
            }
        }
        option.appliesFirst = true
        return option
    }

    /// `--preset`, `--no-verify-integrity` and `--config` of a command that analyses.
    static func analysis<O>(_ path: WritableKeyPath<O, AnalysisConfiguration>) -> [CommandOption<O>] {
        [preset(path.appending(path: \.decode))] + csv(path.appending(path: \.decode))
            + [
                noVerifyIntegrity(path.appending(path: \.decode)), edfSignal(path.appending(path: \.decode)),
                configFile(path),
            ]
    }
}
