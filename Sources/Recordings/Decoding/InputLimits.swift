/// The limits SensorPipe applies where a file's claims enter a decoder, so that a crafted or
/// corrupt file is a clear error for that file instead of a trap, a hang or an allocation sized
/// by the file.
///
/// The rule everywhere: a count or size read from a file is checked against the bytes that
/// remain (or, for compressed data, is read incrementally) and against a cap documented here
/// before anything is allocated from it; rates are range-checked where they are read; and
/// every `Double`→`Int` conversion of a value derived from a file is checked
/// (``checkedInt(_:)``).
public enum InputLimits {
    /// Sample rates a recording may declare, Hz: 0.001 … 100,000 (one sample per 1,000 s up to
    /// 100 kHz, well beyond any wearable or clinical ECG/PPG/accelerometer). Outside it, times
    /// and window counts derived from the rate overflow or exhaust memory downstream.
    public static let sampleRateHz: ClosedRange<Double> = 1e-3...1e5

    /// Why `hz` is not an accepted sample rate, or `nil` when it is.
    /// - Parameter hz: a declared rate, Hz.
    /// - Returns: e.g. `"1e-300 Hz is outside the accepted range 0.001 … 100000 Hz"`.
    /// - Complexity: O(1).
    public static func sampleRateProblem(_ hz: Double) -> String? {
        if sampleRateHz.contains(hz) { return nil }
        if hz.isNaN { return "the rate is not a number" }
        return "\(hz) Hz is outside the accepted range 0.001 … 100000 Hz"
    }

    /// Sample times a recording may carry, seconds: absolute times (Unix or device-local seconds
    /// since 1970) from 1970-01-01T00:00:00 up to 2^32 s (2106-02-07T06:28:16), relative times
    /// (from the stream start) within ±2^32 s. A time outside it (1e20 s, a negative Unix time,
    /// ±infinity, NaN) is no clock reading: it would size windows and grids by the time span,
    /// or overflow an index, downstream. Decoders reject such a sample (or its line or row) where
    /// they read it, naming the place; a clock that resets to 1970 stays inside the range and
    /// is a backward step (a new segment), its jump a gap — analyses step over gaps
    /// (docs/HARDENING.md, "Time plausibility").
    public static let absoluteTimeSeconds: ClosedRange<Double> = 0...4_294_967_296
    /// Relative sample times accepted (seconds from the stream start): ±2^32 s.
    public static let relativeTimeSeconds: ClosedRange<Double> = -4_294_967_296...4_294_967_296
    /// Times in results (a report reads them without knowing which columns count from 1970 and
    /// which from a stream's start): the union of ``absoluteTimeSeconds`` and
    /// ``relativeTimeSeconds``, widened by one day for what analyses derive from sample times
    /// (a window's end after the last sample, a local day's start up to 18 h before its first
    /// sample): ±(2^32 + 86,400) s. The one time-plausibility rule, read on both sides.
    public static let resultTimeSeconds: ClosedRange<Double> = -4_295_053_696...4_295_053_696

    /// Why `seconds` is not a plausible sample time, or `nil` when it is.
    /// - Parameters:
    ///   - seconds: a sample time, seconds.
    ///   - absolute: whether the time counts from 1970 (Unix or device-local seconds) rather
    ///     than from the stream start.
    /// - Returns: e.g. `"time 1e+20 s is outside 1970-01-01 … 2106-02-07 (0 … 2^32 s)"`.
    /// - Complexity: O(1).
    public static func timeProblem(_ seconds: Double, absolute: Bool = true) -> String? {
        if absolute ? absoluteTimeSeconds.contains(seconds) : relativeTimeSeconds.contains(seconds) { return nil }
        if seconds.isNaN { return "time is not a number" }
        return absolute
            ? "time \(seconds) s is outside 1970-01-01 … 2106-02-07 (0 … 2^32 s)"
            : "time \(seconds) s from the stream start is outside ±2^32 s"
    }

    /// Most bytes of a MAT-file's array dimensions (256 dimensions; MATLAB arrays have 2 to a
    /// few dozen).
    public static let matDimensionBytes = 1024
    /// Most bytes of a MAT-file variable or field name (MATLAB allows 63 characters).
    public static let matNameBytes = 4096
    /// Most bytes of one CSV record (a quoted field may span lines; the record as a whole is
    /// capped, not only each line): 64 MiB.
    public static let csvRecordBytes = 64 << 20
    /// Most samples per WFDB frame of one signal (the header's `xN`); real records use 1 to a few dozen.
    public static let wfdbSamplesPerFrame = 100_000
    /// Most signals of one WFDB record (PhysioNet's largest records have a few hundred); each
    /// costs a stream with its buffers.
    public static let wfdbSignals = 4096
    /// Most bytes of a WFDB header file (real headers, comments included, are a few KiB).
    public static let wfdbHeaderBytes = 16 << 20

    /// Whether a finite `Double` from a file lies beyond the range of `Float` (it would become
    /// ±infinity when stored): such samples are masked (NaN, flagged ``SampleFlags/missing`` and
    /// ``SampleFlags/saturated``) or rejected, never delivered as infinities.
    /// - Complexity: O(1).
    @inlinable
    public static func exceedsFloat(_ value: Double) -> Bool {
        value.isFinite && abs(value) > Double(Float.greatestFiniteMagnitude)
    }

    /// `value` as an `Int` when it is finite and within ±2^53 (exactly representable), else `nil`.
    /// - Parameter value: a value derived from a file.
    /// - Returns: `Int(value)` (truncated toward zero) or `nil`.
    /// - Complexity: O(1).
    @inlinable
    public static func checkedInt(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) <= 9_007_199_254_740_992 else { return nil }
        return Int(value)
    }
}
