import Signals

/// The derived series the motion family publishes through its epoch rows
/// (``MotionFamily/publishes``).
public enum MotionEvents {
    /// `acc_enmo`: one event per epoch, at the epoch start, sampled at 1 / epoch length.
    public static let enmo = DerivedSeries(
        source: "acc", name: "enmo", summary: "ENMO per epoch (motion_epochs.enmo_mg), at the epoch start",
        attributes: [
            .number(
                "enmo_mg", unit: "mg",
                "Euclidean norm minus one, truncated at zero, mean over the epoch (van Hees et al. 2013); NaN when the epoch has no metrics"
            )
        ])
}

extension MotionEpoch: StreamDerivedValue {
    /// The epoch's ENMO (van Hees et al. 2013) as an event of ``MotionEvents/enmo``, in mg at the
    /// epoch start, rate 1 / epoch length; NaN when the epoch has no metrics (coverage below
    /// 0.5). The features family computes windowed features over it without knowing this family.
    /// - Parameter stream: the epoch's stream key.
    public func derivedEvent(stream: String) -> DerivedEvent? {
        DerivedEvent(
            series: MotionEvents.enmo.id, stream: stream, time: startSeconds,
            nominalRate: lengthSeconds > 0 ? 1 / lengthSeconds : nil, values: [.number(enmoMilliG ?? .nan)])
    }
}
