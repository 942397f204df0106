import Signals

extension MotionEpoch: StreamDerivedValue {
    /// The epoch's ENMO (van Hees et al. 2013) as a sample of the derived series `acc_enmo`, in
    /// mg at the epoch start, rate 1 / epoch length; NaN when the epoch has no metrics (coverage
    /// below 0.5). The features family computes windowed features over it without knowing this
    /// family.
    /// - Parameter stream: the epoch's stream key.
    public func derivedSample(stream: String) -> DerivedSample? {
        DerivedSample(
            stream: stream, family: "acc", channel: "enmo", unit: "mg", time: startSeconds,
            value: enmoMilliG ?? .nan, nominalRate: lengthSeconds > 0 ? 1 / lengthSeconds : nil)
    }
}
