import DSP
import Features
import Foundation
import Pipeline

/// `sensorpipe features --list`: the feature catalog a run writes, so a study can pin it.
enum FeaturesCommand {
    struct Options: CommandOptions {
        var arguments: [String] = []
        var list = false
        var json = false
        var analysis = AnalysisConfiguration()
    }

    static var command: Command { Command(declaration) }

    static var declaration: CommandDeclaration<Options> {
        CommandDeclaration<Options>(
            name: "features", summary: "the feature catalog: every column name, unit and definition",
            arguments: .none,
            about: """
                Lists every feature column name (<family>_<channel>_<feature>) of the catalog version in
                use, with its unit (U = the channel's unit), group and definition; --features chooses the
                groups as for analyze and run (default, all = default and catch22, none, or groups joined
                by +). docs/FEATURES.md
                gives the sources.
                """,
            options: [
                .flag("--list", required: true, help: "list the catalog (required)", \.list),
                .flag("--json", help: "as one JSON object (catalog_version, features)", \.json),
                SharedOptions.configFile(\.analysis),
            ],
            analysis: \.analysis,
            run: run)
    }

    static func run(_ o: Options) -> Int32 {
        let (json, analysis) = (o.json, o.analysis)
        let options = analysis.options(of: FeaturesFamily.self)
        let rows = FeatureColumns.list(options.configuration)
        if json {
            let document = CatalogDocument(
                catalog_version: FeatureCatalog.version,
                features: rows.map { CatalogDocument.Column(name: $0.name, unit: $0.unit, group: $0.group, definition: $0.definition) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let data = try? encoder.encode(document) else { return 1 }
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("# feature catalog version \(FeatureCatalog.version): \(rows.count) columns")
            print("name\tunit\tgroup\tdefinition")
            for r in rows { print("\(r.name)\t\(r.unit)\t\(r.group)\t\(r.definition)") }
        }
        return 0
    }
}

/// `features --list --json`: the catalog version and its columns (keys sorted when encoded).
private struct CatalogDocument: Encodable {
    /// One feature column.
    struct Column: Encodable {
        var name: String
        var unit: String
        var group: String
        var definition: String
    }
    var catalog_version: Int
    var features: [Column]
}
