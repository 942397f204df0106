import Foundation
import Signals

/// The summary tables researchers read first, written for every recording at its end, declared
/// like every other table: `recording_summary` (one row per family and device) and
/// `daily_summary` (the same figures per calendar day). The generic columns (family, device,
/// streams, times, span, decoded and analysed hours, time basis) are declared here; the figure
/// columns come from the registered families' declarations (``SummaryVocabulary``,
/// ``AnalysisRegistry/summaryVocabulary``) and are added up from the facts of the rows the
/// families emit (``SummaryContributing``), so a new family's figures appear without the summary
/// knowing the family.
public enum SummaryTables {
    /// One row per recording, family and device.
    public static let recording = TableSchema<RecordingSummaryRow>(
        name: "recording_summary",
        summary: "one row per recording, analysis family and device: span, hours, and each family's declared summary figures",
        columns: [
            .init("family", .text, "analysis family or beat source (ecg, ppg, motion, …)") { .text($0.family) },
            .init("device", .text, "device identifier (first part of the stream key)") { .text($0.device) },
            .init("streams", .integer, "streams of the device the family analysed") { .integer($0.streams) },
            .init("first_time", .real, unit: "s", "first sample of those streams (see time_origin)") { .finite($0.firstTime) },
            .init("last_time", .real, unit: "s", "last sample of those streams") { .finite($0.lastTime) },
            .init("time_origin", .text, "what the times count from (streams.time_origin)") { .text($0.timeOrigin.rawValue) },
            .init("span_hours", .real, unit: "h", "last_time − first_time") {
                guard let a = $0.firstTime, let b = $0.lastTime else { return .null }
                return .finite((b - a) / 3600)
            },
        ] + figureColumns(family: { $0.family }, { $0.figures })
            + timeColumns(basis: { $0.timeBasis }, offset: { $0.utcOffsetSeconds }))

    /// One row per recording, family, device and calendar day.
    public static let daily = TableSchema<DailySummaryRow>(
        name: "daily_summary",
        summary: "the recording_summary figures per local calendar day (UTC when the offset is unknown)",
        columns: [
            .init("family", .text, "analysis family or beat source") { .text($0.family) },
            .init("device", .text, "device identifier") { .text($0.device) },
            .init(
                "date", .text,
                "calendar day YYYY-MM-DD in time_basis; empty when the times are not dates (time_basis stream_start)"
            ) {
                .optional($0.date)
            },
            .init("day_number", .integer, "day of the recording in time_basis (1 = the day of its first figure)") {
                .integer($0.dayNumber)
            },
            .init("day_start", .real, unit: "s", "the day's midnight in the streams' time scale (Unix seconds for unix times)") {
                .finite($0.dayStart)
            },
        ] + figureColumns(family: { $0.family }, { $0.figures })
            + timeColumns(basis: { $0.timeBasis }, offset: { $0.utcOffsetSeconds }))

    /// Both summary tables.
    public static var all: [ResultTable] { [recording.table, daily.table] }

    /// The figure columns: decoded and analysed hours (from the signal), then one column per
    /// declared figure of ``AnalysisRegistry/summaryVocabulary``.
    static func figureColumns<Row>(
        family: @escaping @Sendable (Row) -> String, _ f: @escaping @Sendable (Row) -> SummaryFigures
    ) -> [TableSchema<Row>.Column] {
        [
            .init(
                "decoded_hours", .real, unit: "h",
                "signal decoded from any stream of the device (union of segment spans; temperature channels left out)"
            ) {
                .real(f($0).decodedSeconds / 3600)
            },
            .init("analysed_hours", .real, unit: "h", "signal of the streams this family analysed (union of segment spans)") {
                .real(f($0).analysedSeconds / 3600)
            },
        ]
            + AnalysisRegistry.summaryVocabulary.columns.map { column in
                .init(column.name, column.type, unit: column.unit, column.meaning) {
                    column.resultValue(in: f($0), family: family($0))
                }
            }
    }

    static func timeColumns<Row>(
        basis: @escaping @Sendable (Row) -> SummaryTimeBasis, offset: @escaping @Sendable (Row) -> Int?
    ) -> [TableSchema<Row>.Column] {
        [
            .init(
                "time_basis", .text,
                "how days are counted: local (Unix times + utc_offset_s), utc (offset unknown), device_local (the device's clock, offset unknown) or stream_start (days from the stream's start; not dates)"
            ) {
                .text(basis($0).rawValue)
            },
            .init(
                "utc_offset_s", .integer, unit: "s",
                "the recording's UTC offset (s east of UTC) from stream_attributes, empty when unknown"
            ) {
                .optional(offset($0))
            },
        ]
    }
}
