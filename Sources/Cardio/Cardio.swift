/// `Cardio`: ECG and PPG analyses (R-peaks, heart rate, HRV, signal quality, PPG pulses).
///
/// This file documents the module; the analyses live in their own folders by concept
/// (`RPeaks/`, `HRV/`, `Quality/`, …). Inputs are contiguous `Float` samples with a sample
/// rate in Hz; times are seconds; RR/NN intervals are milliseconds unless a name says otherwise.
public enum Cardio {
    /// Version of the Cardio algorithms' outputs; bump when a result would change.
    public static let algorithmVersion = 1
}
