extension WFDBAnnotationCode {
    /// Whether the code labels a beat (a QRS complex) in the sense of ANSI/AAMI EC57: `N L R B A a
    /// J S V r F e j n E / f Q ?`. Ventricular flutter waves (`!`), which the WFDB library's
    /// `isqrs` also counts, are not beats here; nor are rhythm, noise, artifact and waveform
    /// annotations.
    public var isBeat: Bool { aamiClass != nil }

    /// The EC57 class of a beat code, `nil` for a non-beat code.
    ///
    /// EC57 lists N = {N, L, R, e, j}, S = {A, a, J, S}, V = {V, E}, F = {F}, Q = {/, f, Q}; the
    /// four codes it does not list follow its rule that class N holds every beat not in S, V, F
    /// or Q, and the WFDB library's `map2`: `B` (bundle branch block, unspecified) and `n`
    /// (supraventricular escape) → N, `r` (R-on-T PVC) → V, `?` (not classified) → Q.
    public var aamiClass: AAMIBeatClass? {
        switch self {
        case .normal, .leftBundleBranchBlock, .rightBundleBranchBlock, .bundleBranchBlock,
            .atrialEscape, .nodalEscape, .supraventricularEscape:
            return .n
        case .atrialPremature, .aberratedAtrialPremature, .nodalPremature, .supraventricularPremature:
            return .s
        case .prematureVentricular, .ventricularEscape, .rOnT:
            return .v
        case .fusion:
            return .f
        case .paced, .pacedFusion, .unclassifiable, .learning:
            return .q
        default:
            return nil
        }
    }
}
