import Foundation
import Signals

/// The summary tables researchers read first, written for every recording at its end, declared
/// like every other table: `recording_summary` (one row per family and device) and
/// `daily_summary` (the same figures per calendar day). Their figures are added up from the rows
/// the families emit (``SummaryContributing``), so a new family's figures appear without the
/// summary knowing the family.
public enum SummaryTables {
    /// One row per recording, family and device.
    public static let recording = TableSchema<RecordingSummaryRow>(
        name: "recording_summary",
        summary: "one row per recording, analysis family and device: span, hours, quality, heart rate, corrected beats, steps, wear",
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
        ] + figureColumns { $0.figures } + timeColumns(basis: { $0.timeBasis }, offset: { $0.utcOffsetSeconds }))

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
        ] + figureColumns { $0.figures } + timeColumns(basis: { $0.timeBasis }, offset: { $0.utcOffsetSeconds }))

    /// Both summary tables.
    public static var all: [ResultTable] { [recording.table, daily.table] }

    static func figureColumns<Row>(_ f: @escaping @Sendable (Row) -> SummaryFigures) -> [TableSchema<Row>.Column] {
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
            .init(
                "assessed_hours", .real, unit: "h",
                "quality windows the family assessed (ECG: ecg_quality windows; PPG: the unmasked time of each ppg_quality window's central step, summed over the optical streams); a window counts on the day it starts"
            ) {
                .real(f($0).assessedSeconds / 3600)
            },
            .init(
                "usable_share", .real,
                "share of the assessed time whose quality label allows the family's results (ECG: excellent or barely_acceptable; PPG: good or acceptable); empty when nothing was assessed"
            ) {
                .finite(f($0).usableShare)
            },
            .init("hr_windows", .integer, "heart_rate windows with a rate (source = family)") { .integer(f($0).heartRateWindows) },
            .init("hr_mean_bpm", .real, unit: "bpm", "mean of those windows' bpm; empty without any") { .finite(f($0).heartRateMean) },
            .init("hr_min_bpm", .real, unit: "bpm", "lowest window bpm") {
                let v = f($0).heartRateMin
                return .finite(v.isFinite ? v : nil)
            },
            .init("hr_max_bpm", .real, unit: "bpm", "highest window bpm") {
                let v = f($0).heartRateMax
                return .finite(v.isFinite ? v : nil)
            },
            .init("beats", .integer, "beat rows (source = family), detected, inserted and removed") { .integer(f($0).beats) },
            .init(
                "corrected_share", .real,
                "share of beat rows whose correction is not empty (ectopic, longShort, inserted, followsRemovedExtra, removedExtra); empty without beats"
            ) {
                .finite(f($0).correctedShare)
            },
            .init("steps", .integer, "steps counted; empty when no family of the recording counts steps") {
                .optional(f($0).steps.map { Int($0.rounded()) })
            },
            .init("wear_hours", .real, unit: "h", "hours judged worn; empty when no family of the recording judges wear") {
                .finite(f($0).wornSeconds.map { $0 / 3600 })
            },
        ]
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
