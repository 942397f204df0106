import Foundation
import Testing
import _TestSupport

/// Issue 16 items 5 and 6: long CSV tables for the whole batch, and the command-line conventions
/// (version in the help, completions and man page from the declared options, one-line errors).
@Suite("sensorpipe: long CSV tables, completions, man page, one-line errors")
struct CLIConventionsTests {
    /// Parses RFC 4180 CSV (quoted fields may hold commas, quotes and line breaks).
    static func parseCSV(_ text: String) -> [[String]] {
        var rows = [[String]](), row = [String](), field = "", quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" {
                        field.append("\"")
                        chars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field)
                field = ""
            } else if c == "\n" {
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }

    @Test("run --format csv writes one long table per result table: recording column + each recording's rows, in path order")
    func longTables() throws {
        let dir = TemporaryDirectory()
        let ecg = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg")
        let out = dir.url.appendingPathComponent("results").path
        let r = try SensorPipeProcess.run(["run", ecg.path, "--format", "csv", "--out", out, "--quiet", "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: out + "/recordings").filter { !$0.hasPrefix(".") }
        #expect(folders.count == 3)
        for table in ["beats", "heart_rate", "hrv", "ecg_quality"] {
            let long = Self.parseCSV(try String(contentsOfFile: "\(out)/\(table).csv", encoding: .utf8))
            // Expected: every recording folder's rows, prefixed with its path (from recording.json).
            var expected = [(String, [String])]()
            var header: [String]?
            for folder in folders {
                let meta =
                    try JSONSerialization.jsonObject(
                        with: Data(contentsOf: URL(fileURLWithPath: "\(out)/recordings/\(folder)/recording.json"))) as! [String: Any]
                let path = meta["path"] as! String
                let rows = Self.parseCSV(try String(contentsOfFile: "\(out)/recordings/\(folder)/\(table).csv", encoding: .utf8))
                header = rows[0]
                for row in rows.dropFirst() { expected.append((path, row)) }
            }
            expected.sort { $0.0 < $1.0 } // stable: rows of one recording keep their order
            #expect(long.first == ["recording"] + (header ?? []), "\(table): header")
            #expect(long.count - 1 == expected.count, "\(table): \(long.count - 1) rows, expected \(expected.count)")
            #expect(expected.count > 0, "\(table): the demo recordings give rows")
            for (k, row) in long.dropFirst().enumerated() where k < expected.count {
                #expect(row == [expected[k].0] + expected[k].1, "\(table) row \(k + 1)")
            }
        }
        // Resuming (everything skipped) rewrites the same long tables; --gzip writes them compressed
        // and removes the plain ones.
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/beats.csv"))
        let again = try SensorPipeProcess.run(["run", ecg.path, "--format", "csv", "--out", out, "--quiet", "--gzip"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/beats.csv"))
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gunzip.arguments = ["-dc", out + "/beats.csv.gz"]
        let pipe = Pipe()
        gunzip.standardOutput = pipe
        try gunzip.run()
        let inflated = pipe.fileHandleForReading.readDataToEndOfFile()
        gunzip.waitUntilExit()
        #expect(gunzip.terminationStatus == 0)
        #expect(inflated == before)
        let sqliteGzip = try SensorPipeProcess.run(["run", ecg.path, "--gzip", "--out", dir.url.appendingPathComponent("x.sqlite").path])
        #expect(sqliteGzip.status == 64 && sqliteGzip.stderr.contains("--gzip goes with --format csv"))
    }

    /// The flags a command's `--help` lists under OPTIONS and ANALYSIS OPTIONS.
    static func helpFlags(_ command: String) throws -> [String] {
        let help = try SensorPipeProcess.run([command, "--help"]).stdout
        var flags = [String]()
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            let head = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: true)
            for word in head {
                let w = word.trimmingCharacters(in: CharacterSet(charactersIn: ","))
                if w.hasPrefix("-") { flags.append(w) } else { break }
            }
        }
        return flags
    }

    static let commands = ["inspect", "analyze", "run", "merge", "convert", "tables"]

    @Test("every flag a command's --help lists is accepted by its parser and offered by both completions and the man page")
    func declaredFlagsAgree() throws {
        let top = try SensorPipeProcess.run(["--help"])
        #expect(top.stdout.contains("-V, --version"))
        let bash = try SensorPipeProcess.run(["completions", "bash"]).stdout
        let zsh = try SensorPipeProcess.run(["completions", "zsh"]).stdout
        let man = try SensorPipeProcess.run(["manpage"]).stdout
        let scratch = TemporaryDirectory() // whatever a command writes with a relative path lands here
        for command in Self.commands {
            let flags = try Self.helpFlags(command)
            #expect(flags.contains("--help"), "\(command)")
            #expect(flags.count >= 2, "\(command): \(flags)")
            for flag in flags {
                #expect(bash.contains(flag), "bash completion lacks \(command) \(flag)")
                #expect(zsh.contains("\(flag)["), "zsh completion lacks \(command) \(flag)")
                #expect(man.contains(flag.replacingOccurrences(of: "-", with: "\\-")), "man page lacks \(flag)")
                if flag == "--help" || flag == "-h" { continue }
                // The parser knows it: whatever else fails, it is not an unknown option.
                let r = try SensorPipeProcess.run([command, flag, "1", "/nonexistent/input.hea"], in: scratch.url)
                #expect(
                    !r.stderr.contains("unknown option '\(flag)'") && !r.stderr.contains("unknown argument '\(flag)'"),
                    "\(command) \(flag): \(r.stderr)")
            }
        }
        let unknown = try SensorPipeProcess.run(["run", "--no-such-flag"])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown option"))
    }

    @Test("the bash completion completes commands, options and option values")
    func bashCompletion() throws {
        let dir = TemporaryDirectory()
        let script = dir.url.appendingPathComponent("sensorpipe.bash")
        try SensorPipeProcess.run(["completions", "bash"]).stdout.write(to: script, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) throws -> [String] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/bash")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            p.arguments = [
                "-c",
                "source '\(script.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _sensorpipe; printf '%s\\n' \"${COMPREPLY[@]}\"",
            ]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        #expect(try complete(["sensorpipe", "me"]) == ["merge"])
        #expect(try complete(["sensorpipe", "run", "--for"]) == ["--format"])
        #expect(try Set(complete(["sensorpipe", "run", "--format", ""])) == ["sqlite", "csv"])
        #expect(try complete(["sensorpipe", "analyze", "--ecg-hrv-w"]) == ["--ecg-hrv-window-s"])
        #expect(try Set(complete(["sensorpipe", "completions", ""])) == ["bash", "zsh"])
    }

    @Test(
        "the zsh completion is valid zsh",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "zsh is not installed: the zsh script's syntax is not checked"
        ))
    func zshSyntax() throws {
        let dir = TemporaryDirectory()
        let script = dir.url.appendingPathComponent("_sensorpipe")
        try SensorPipeProcess.run(["completions", "zsh"]).stdout.write(to: script, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/zsh")
        p.arguments = ["-n", script.path]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(message)")
    }

    @Test("docs/sensorpipe.1 is the current `sensorpipe manpage` (scripts/make-man-page.sh)")
    func manPage() throws {
        let committed = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/sensorpipe.1"), encoding: .utf8)
        let current = try SensorPipeProcess.run(["manpage"]).stdout
        #expect(committed == current, "docs/sensorpipe.1 is stale: run scripts/make-man-page.sh")
    }

    @Test(
        "groff reads the man page without warnings",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is not installed: the page's roff is not checked"))
    func manPageRoff() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        p.arguments = ["-man", "-Tutf8", "-ww", "-z", Fixtures.repositoryRoot.appendingPathComponent("docs/sensorpipe.1").path]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test("a missing input is one plain line naming it (analyze, convert, run's failure line)")
    func missingInput() throws {
        let dir = TemporaryDirectory()
        let missing = "/nonexistent/record.hea"
        let a = try SensorPipeProcess.run(["analyze", missing, "--out", dir.url.appendingPathComponent("a").path])
        #expect(a.status == 1)
        #expect(a.stderr.split(separator: "\n").count == 1 && a.stderr.contains(missing), "\(a.stderr)")
        let c = try SensorPipeProcess.run(["convert", missing, "--to", "sensorkit-ndjson", dir.url.appendingPathComponent("c.ndjson").path])
        #expect(c.status == 1)
        #expect(c.stderr.split(separator: "\n").count == 1 && c.stderr.contains(missing), "\(c.stderr)")
        let r = try SensorPipeProcess.run(["run", missing, "--out", dir.url.appendingPathComponent("r.sqlite").path])
        #expect(r.status == 1)
        let failure = r.stderr.split(separator: "\n").filter { $0.hasPrefix("FAILED") }
        #expect(failure == ["FAILED  \(missing): unreadable: No such file or directory"], "\(r.stderr)")
    }
}

@Suite("sensorpipe: --no-verify-integrity (issue 15 class 8's opt-out)")
struct IntegrityOptOutTests {
    @Test("a WFDB checksum mismatch fails analyze, inspect and run; --no-verify-integrity delivers the data and says so")
    func optOut() throws {
        let dir = TemporaryDirectory()
        let good = StreamKeyConsistencyTests.writeRecord(in: dir)
        // The same header with a wrong checksum.
        let text = try String(contentsOfFile: good, encoding: .utf8)
        var fields = text.split(separator: "\n")[1].split(separator: " ").map(String.init)
        fields[6] = String((Int(fields[6])! + 1) & 0xFFFF)
        let bad = dir.write("rec.hea", text.split(separator: "\n")[0] + "\n" + fields.joined(separator: " ") + "\n")
        let strict = try SensorPipeProcess.run(["analyze", bad, "--out", dir.url.appendingPathComponent("a").path])
        #expect(strict.status == 1 && strict.stderr.contains("checksum"), "\(strict.stderr)")
        let lenient = try SensorPipeProcess.run([
            "analyze", bad, "--out", dir.url.appendingPathComponent("b").path, "--no-verify-integrity",
        ])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stdout.contains("beats"))
        let inspected = try SensorPipeProcess.run(["inspect", bad, "--no-verify-integrity"])
        #expect(inspected.stdout.contains("checksum"), "the mismatch is still reported: \(inspected.stdout)")
        // run: the opt-out is part of the configuration (stored, and a rerun without it does not skip).
        let db = dir.url.appendingPathComponent("r.sqlite").path
        let run1 = try SensorPipeProcess.run(["run", bad, "--out", db, "--quiet", "--no-verify-integrity", "--json"])
        #expect(run1.status == 0, "\(run1.stderr)")
        let run2 = try SensorPipeProcess.run(["run", bad, "--out", db, "--quiet", "--json"])
        #expect(run2.status == 1 && run2.stdout.contains("\"failed\":1"), "\(run2.stdout)")
        let configured = dir.url.appendingPathComponent("c.json")
        try #"{"decode": {"verify_integrity": false}}"#.write(to: configured, atomically: true, encoding: .utf8)
        let run3 = try SensorPipeProcess.run(["run", bad, "--out", db, "--quiet", "--config", configured.path, "--json"])
        #expect(run3.status == 0 && run3.stdout.contains("\"skipped\":1"), "the same configuration as run 1: \(run3.stdout)")
    }
}
