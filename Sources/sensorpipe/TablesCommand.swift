import Foundation
import Pipeline

/// `sensorpipe tables`: the declared result tables as Markdown, or rewrites the generated blocks
/// of a document (`docs/RESULTS.md`).
enum TablesCommand {
    struct Options: CommandOptions {
        var arguments: [String] = []
        var update: String?
    }

    static var command: Command { Command(declaration) }

    static var declaration: CommandDeclaration<Options> {
        CommandDeclaration<Options>(
            name: "tables", summary: "the result tables' columns as Markdown (from their declarations)",
            arguments: .none,
            about: """
                Prints every result and bookkeeping table's columns (name, type, unit, meaning) as
                Markdown, from the declarations the sinks use. With --update FILE, rewrites each
                `<!-- columns: NAME -->` … `<!-- end columns -->` block of FILE in place.
                """,
            options: [
                .value(
                    "--update", rule: .file("FILE"), help: "rewrite the generated column blocks of FILE in place (docs/RESULTS.md)",
                    \.update)
            ],
            run: run)
    }

    static func run(_ o: Options) -> Int32 {
        let update = o.update
        guard let update else {
            for t in ResultsDocumentation.tables {
                print("## `\(t.name)`: \(t.summary)\n\n" + ResultsDocumentation.markdown(t))
            }
            return 0
        }
        guard let text = try? String(contentsOfFile: update, encoding: .utf8) else {
            CLI.error("\(update): cannot read the file")
            return 1
        }
        let (out, missing) = ResultsDocumentation.update(text)
        do {
            try out.write(toFile: update, atomically: true, encoding: .utf8)
        } catch {
            CLI.error("\(update): cannot write the file (\(error.localizedDescription))")
            return 1
        }
        for m in missing { CLI.error("warning: \(update) has no block for table \(m)") }
        return missing.isEmpty ? 0 : 1
    }
}
