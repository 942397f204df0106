import Signals

/// The pulses the PPG family publishes as a derived series (``PPGFamily/publishes``): one event
/// per systolic peak the pulse detector (``PPGPulseDetector``, Elgendi et al. 2013) reports on an
/// optical stream's first column, at the peak's time, with what the detector measured of it and
/// the quality label of the window centred on it (the `beats.quality` rule). Published while the
/// recording is read, once the pulse's window has its label (a few windows after the pulse); the
/// pulses of a stream come in time order.
/// The foot (the minimum since the previous pulse), the peak-to-foot amplitude, the width at
/// half that amplitude and the interval from the previous pulse come from the unfiltered signal
/// the detector holds; the pulse area is not published.
public enum PPGPulseEvents {
    /// `ppg_pulses`.
    public static let series = DerivedSeries(
        source: "ppg", name: "pulses",
        summary: "systolic peaks of an optical stream as the pulse detector finds them (Elgendi et al. 2013), at the peak",
        isEventSeries: true,
        attributes: [
            .number("peak_value", unit: "(stream unit)", "the unfiltered signal at the systolic peak"),
            .number(
                "bandpass_peak", unit: "(stream unit)",
                "maximum of the 0.5–8 Hz band-passed signal over the pulse's block of interest: the systolic peak above the local mean"),
            .number(
                "block_width_s", unit: "s",
                "length of the block of interest: where the 111-ms moving average of the clipped, squared band-passed signal exceeds the 667-ms one plus the offset"
            ),
            .label(
                "quality", values: PPGQualityLabel.allCases.map(\.rawValue),
                "label of the ppg_quality window whose central step holds the pulse (beats.quality); none outside assessed windows"),
            .number(
                "foot_value", unit: "(stream unit)",
                "the unfiltered signal at the pulse's foot: its minimum between the previous pulse (at most 1.5 s back) and the systolic peak (the baseline, whose respiratory variation is RIIV); none when a masked sample lies in that span"
            ),
            .number(
                "pulse_amplitude", unit: "(stream unit)",
                "peak_value − foot_value: the peak-to-foot amplitude (its respiratory variation is RIAV); none without a foot"),
            .number(
                "half_width_s", unit: "s",
                "width at half the peak-to-foot amplitude, crossings linearly interpolated; none without a foot or when the falling crossing is past the detector's look-ahead"
            ),
            .number(
                "pulse_interval_s", unit: "s",
                "time since the previous pulse of the stream's segment (its respiratory variation is RIFV); none for a segment's first pulse"
            ),
            .label(
                "unacceptable_cause", values: ["rhythm", "signal"],
                "why the pulse's quality is unacceptable: rhythm when its window fails only the interval-ratio rule (longest / shortest interval ≥ 2.2: a missed pulse, ectopic beats, atrial fibrillation; the pulse shapes pass: masked ≤ 20 %, template correlation ≥ 0.66, rate 40–180 bpm, longest interval < 3 s), signal otherwise; none when the quality is not unacceptable"
            ),
        ])

    /// The series' id (``DerivedSeries/id``), `ppg_pulses`.
    public static let id = series.id
}

extension PPGPulseChannel {
    /// A measurement, or none when it was not measured (NaN).
    static func measured(_ x: Double) -> DerivedValue { x.isFinite ? .number(x) : .none }

    /// Hands out the pending pulses whose window label is final (all of them when `final`), as
    /// events of ``PPGPulseEvents/series``, in time order.
    /// - Parameters:
    ///   - final: the channel has ended: every pulse is released.
    ///   - building: whether events are made of the released pulses (`false`: nobody subscribes,
    ///     they are only let go).
    /// - Complexity: O(pulses released).
    mutating func takePulseEvents(final: Bool, building: Bool = true) -> [DerivedEvent] {
        guard !pendingPulses.isEmpty else { return [] }
        // Windows are labelled in order: every pulse before the central step of the last
        // labelled window ends has its label.
        var limit = -Double.infinity
        if let grid = labelGrid, !labelCodes.isEmpty { limit = Self.centralStep(labelCodes.count - 1, grid: grid).end }
        var n = 0
        while n < pendingPulses.count && (final || pendingPulses[n].time < limit) { n += 1 }
        guard n > 0 else { return [] }
        guard building else {
            pendingPulses.removeFirst(n)
            return []
        }
        let codes = labelCodes, grid = labelGrid
        let events = pendingPulses[..<n].map { p in
            let labelled = grid.flatMap { Self.labelAndCause(at: p.time, codes: codes, grid: $0) }
            let label = labelled?.label
            let cause: DerivedValue =
                label == .unacceptable ? .label(labelled!.rhythmOnly ? "rhythm" : "signal") : .none
            return DerivedEvent(
                series: PPGPulseEvents.id, stream: name, time: p.time,
                values: [
                    .number(p.shape.peakValue), .number(p.shape.bandPassPeak),
                    .number(Double(p.shape.blockWidthSamples) / p.rate), label.map { .label($0.rawValue) } ?? .none,
                    Self.measured(p.shape.footValue), Self.measured(p.shape.peakValue - p.shape.footValue),
                    Self.measured(p.shape.halfWidthSamples / p.rate),
                    p.shape.intervalSamples.map { .number(Double($0) / p.rate) } ?? .none, cause,
                ])
        }
        pendingPulses.removeFirst(n)
        return events
    }
}

extension PPGDeviceAnalysis {
    /// Publishes the pulses of every optical stream whose labels are final (all when `final`).
    /// - Parameters:
    ///   - output: where events go.
    ///   - final: the device's analysis has ended.
    /// - Throws: the output's error.
    mutating func publishPulses(output: any ResultOutput, final: Bool) throws {
        let building = output.isSubscribed(to: PPGPulseEvents.id)
        for k in pulseChannels.indices {
            for e in pulseChannels[k].takePulseEvents(final: final, building: building) { try output.publish(e) }
        }
    }
}
