/// Intensity class of an epoch from its ENMO.
public enum IntensityClass: String, Sendable, Hashable, CaseIterable {
    case sedentary, light, moderate, vigorous
}

/// One epoch of an accelerometer stream: a clock-aligned interval `[start, start + length)`.
///
/// Acceleration metrics are means over the epoch's grid samples, in milli-g: ENMO (Euclidean norm
/// minus one, negatives set to zero; van Hees et al. 2013, PLoS ONE 8(4):e61691), MAD (mean
/// amplitude deviation of the vector magnitude; Vähä-Ypyä et al. 2015, "A universal, accurate
/// intensity-based classification of different physical activities using raw data of
/// accelerometer", Clin Physiol Funct Imaging 35(1):64–70, doi:10.1111/cpf.12127), HFEN (norm of
/// the 0.2 Hz high-passed axes) and BFEN (norm of the 0.2–15 Hz band-passed axes; van Hees et al.
/// 2013). A metric is `nil` when the epoch holds less than half of its samples.
public struct MotionEpoch: Sendable, Hashable {
    /// Start time (s, the stream's time origin), a multiple of the epoch length.
    public var startSeconds: Double
    /// Epoch length in s.
    public var lengthSeconds: Double
    /// Grid samples in the epoch.
    public var samples: Int
    /// `samples` over the samples a full epoch holds.
    public var coverage: Double
    /// ENMO in mg.
    public var enmoMilliG: Double?
    /// MAD in mg.
    public var madMilliG: Double?
    /// HFEN in mg.
    public var hfenMilliG: Double?
    /// BFEN in mg (`nil` below 30 Hz: no 15 Hz band edge).
    public var bfenMilliG: Double?
    /// Angle of the mean acceleration with the x, y, z axes' planes, in degrees
    /// (`atan(a / √(b² + c²))`, GGIR's convention).
    public var angleXDegrees: Double?
    public var angleYDegrees: Double?
    public var angleZDegrees: Double?
    /// Intensity from ENMO (cut-points in ``MotionOptions``); `nil` in a non-worn epoch.
    public var intensity: IntensityClass?
    /// Whether the 15-min block holding the epoch's start is judged not worn (van Hees et al.
    /// 2013, ``NonWearDetector``); `nil` when the block has no decision (too few samples).
    public var nonWear: Bool?
    /// ActiGraph counts per axis (`nil` when the grid rate is not one the algorithm defines).
    public var countsX: Int?
    public var countsY: Int?
    public var countsZ: Int?
    /// Steps whose detection time lies in the epoch.
    public var steps: Int
    /// Why metrics are empty, or `nil`.
    public var note: String?

    /// Vector magnitude of the axis counts, √(x² + y² + z²) (ActiLife's convention).
    public var countsVectorMagnitude: Double? {
        guard let x = countsX, let y = countsY, let z = countsZ else { return nil }
        return (Double(x * x + y * y + z * z)).squareRoot()
    }
}
