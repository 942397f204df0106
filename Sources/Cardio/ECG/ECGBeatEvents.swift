import Signals

/// The beats the ECG family publishes as a derived series (``ECGFamily/publishes``): one event
/// per beat the R-peak detector finds on a lead (``RPeakDetector``), at its detection time, with
/// what the beat classifier measured of it (``BeatClassifier``) and the label of the quality
/// window holding it (``ECGQuality``). Published while the recording is read, once the beat's
/// quality window has been assessed (at most a few windows after the beat); the beats of a lead
/// come in time order. The fused series publishes no beats of its own (its beats are the leads').
///
/// The R amplitude above the PR-segment baseline and the QRS area are published in the lead's
/// own unit (respiration needs their modulation only, so uncalibrated leads have them too).
public enum ECGBeatEvents {
    /// `ecg_beats`.
    public static let series = DerivedSeries(
        source: "ecg", name: "beats",
        summary: "R peaks of an ECG lead as the detector finds them, at the detection time (beats.time), before artefact correction",
        isEventSeries: true,
        attributes: [
            .label(
                "class", values: BeatClass.allCases.map(\.description), "AAMI class from the beat classifier: N, S, V or Q (beats.class)"),
            .number(
                "r_amplitude", unit: "uV",
                "the classifier's morphology signal (block-averaged to 125–250 Hz, band-passed 0.7–35 Hz) at the R apex, signed; none when the lead is not in volts or the beat's samples are masked"
            ),
            .number(
                "qrs_width_s", unit: "s",
                "QRS duration from the 15 %-of-maximum slope envelope of the morphology signal; none when the beat's samples are masked"),
            .label(
                "quality", values: ECGQualityLabel.allCases.map(\.rawValue),
                "label of the ecg_quality window holding the beat (beats.quality); none outside assessed windows"),
            .number(
                "r_above_baseline", unit: "(lead unit)",
                "the R apex (the local extreme nearest the detected peak, parabola-refined) above the beat's PR-segment baseline (mean over 110–70 ms before the peak) of the block-averaged lead low-passed at 35 Hz without high-pass, in the lead's own unit whatever it is: the baseline-corrected R amplitude; none when the beat's samples are masked"
            ),
            .number(
                "qrs_area", unit: "(lead unit)·s",
                "area above the PR-segment baseline from QRS onset to offset (the qrs_width_s limits) of the same low-passed lead as r_above_baseline, signed; none when the beat's samples are masked"
            ),
            .number(
                "p_correlation", unit: "",
                "Pearson correlation of the beat's atrial window (300–60 ms before the R apex) with the classifier's running sinus P template (BeatFeatures.pCorrelation): near 1 with the sinus P wave, low when it differs or is absent; none until the template has 8 beats or when the window is masked or flat"
            ),
        ])

    /// The series' id (``DerivedSeries/id``), `ecg_beats`.
    public static let id = series.id

    /// A detected, classified beat waiting for its quality window.
    struct Pending {
        var segment: Int
        var time: Double
        var beat: ClassifiedBeat
    }

    /// Microvolts per unit of a lead's values: 1 for µV, 1000 for mV, `nil` otherwise (no
    /// amplitude is published).
    /// - Parameter unit: the lead's column unit.
    static func microvoltsPerUnit(_ unit: PhysicalUnit?) -> Double? {
        switch unit {
        case .microvolts: 1
        case .millivolts: 1000
        default: nil
        }
    }
}

extension ECGAnalyzer {
    /// Hands out the detected beats whose quality window has been assessed (or will never be:
    /// the segment has ended or has no quality windows), as events of ``ECGBeatEvents/series``,
    /// in time order.
    /// - Parameter microvoltsPerUnit: the lead's scale to µV (``ECGBeatEvents/microvoltsPerUnit(_:)``),
    ///   `nil` for no amplitude.
    /// - Complexity: O(beats released · log windows).
    mutating func takeBeatEvents(microvoltsPerUnit: Double?) -> [DerivedEvent] {
        guard !pendingBeatEvents.isEmpty else { return [] }
        // Windows are assessed in order and tile their segment from its start: a beat before the
        // end of the last assessed window of its segment has its label.
        let assessedEnd = qualityLabels.last?.end ?? -Double.infinity
        var n = 0
        while n < pendingBeatEvents.count {
            let b = pendingBeatEvents[n]
            guard detector == nil || quality == nil || b.segment != segment || b.time < assessedEnd else { break }
            n += 1
        }
        guard n > 0 else { return [] }
        let events = pendingBeatEvents[..<n].map { p in
            let f = p.beat.features
            let amplitude = microvoltsPerUnit.flatMap { scale in f.rAmplitude.map { $0 * scale } }
            return DerivedEvent(
                series: ECGBeatEvents.id, stream: streamName, time: p.time,
                values: [
                    .label(p.beat.beatClass.description), amplitude.map { .number($0) } ?? .none,
                    f.qrsWidthSeconds.map { .number($0) } ?? .none,
                    Self.label(at: p.time, in: qualityLabels).map { .label($0.rawValue) } ?? .none,
                    f.rAboveBaseline.map { .number($0) } ?? .none, f.qrsArea.map { .number($0) } ?? .none,
                    f.pCorrelation.map { .number($0) } ?? .none,
                ])
        }
        pendingBeatEvents.removeFirst(n)
        return events
    }
}
