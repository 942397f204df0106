/// Options of the respiration family (``RespirationFamily``): window length, the uniform grid
/// the respiratory signals are resampled to, and the quality gates.
public struct RespirationOptions: Sendable, Hashable {
    /// Window length, s (default 32, as Karlen et al. 2013 and Charlton et al. 2016). Windows
    /// are aligned to multiples of the length on the stream's time scale and do not overlap.
    public var windowSeconds = 32.0
    /// Rate of the uniform grid each respiratory signal is resampled to, Hz (default 4).
    public var gridHz = 4.0
    /// A modulation's rate is used only when its spectral purity (the share of the 0.05–1 Hz
    /// power within ±2 / window of the peak) reaches this (default 0.3).
    public var minimumPurity = 0.3
    /// A modulation's rate is used only when the autocorrelation of its band-passed window at
    /// the lag of the rate's period reaches this (default 0.4: about the 98th percentile of
    /// band-passed noise, below breathing's 0.45–0.9; Birrenkott et al. 2016).
    public var minimumAutocorrelation = 0.4
    /// A modulation's rate is used only when the breaths counted in the time domain give a rate
    /// within this of the spectral peak, breaths/min (default 3; Schäfer & Kratky 2008's count).
    public var countAgreementBreathsPerMinute = 3.0
    /// Whether still accelerometers (wrist, chest, a PPG device's own) give rows of source
    /// `accelerometer` (``AccelerometerRespiration``; default off: not validated, no
    /// breath-annotated accelerometer recording is available; never fused).
    public var usesAccelerometer = false
    /// Rates fuse only when their standard deviation is below this, breaths/min (default 4,
    /// Karlen et al. 2013).
    public var agreementBreathsPerMinute = 4.0

    /// Windows each side of a window whose normalised spectra are averaged into its fused
    /// spectrum (default 2: the window and its four nearest neighbours, 160 s at 32-s windows,
    /// centred, so a window's rows wait for the two windows after it; 1 averages nothing).
    /// Welch-style averaging of successive periodograms (Welch 1967) lowers the variance of the
    /// noise spectrum while a breathing rhythm that holds over the span keeps its peak; the
    /// concentration thresholds below are the noise maxima at this span (at another span,
    /// re-derive them: `scripts/respiration/spectral-threshold.py --span S`).
    public var spectralSpan = 2

    /// A stream's (source row's) rate is the peak of its modulations' fused spectrum (the mean
    /// of their normalised spectra over the window and its ``spectralSpan`` neighbours each
    /// side; spectral fusion) when the peak's concentration reaches this; ECG (default 0.22) and
    /// PPG (default 0.22): the largest value of the index over 1,600 simulated windows of beats
    /// without breathing (independent noise; motion; a recording's first and last windows
    /// included) at the default span, rounded up, `scripts/respiration/spectral-threshold.py`.
    /// Below it, smart fusion of the modulation rates that pass the quality indices decides.
    public var minimumConcentrationECG = 0.22
    /// See ``minimumConcentrationECG``.
    public var minimumConcentrationPPG = 0.22
    /// The same for the fused rows (every ECG and PPG modulation of the window; default 0.22,
    /// from the same simulation).
    public var minimumConcentrationFused = 0.22
    /// A second, independent way to the fused spectrum's peak: a stream's rate is also the peak
    /// when the peak's local concentration (the share of the fused spectrum within ±3 / window
    /// of the peak that lies within ±1 / (2 × window) of it;
    /// ``RespiratorySpectrum/fusedPeak(_:seconds:)``) reaches this; ECG (default 0.43) and PPG
    /// (default 0.43): the largest value of that index over the same 1,600 simulated windows
    /// without breathing at the default span, rounded up
    /// (`scripts/respiration/spectral-threshold.py`), so no simulated window reaches either
    /// index's threshold.
    public var minimumLocalConcentrationECG = 0.43
    /// See ``minimumLocalConcentrationECG``.
    public var minimumLocalConcentrationPPG = 0.43
    /// The same for the fused rows (default 0.40, from the same simulation).
    public var minimumLocalConcentrationFused = 0.40
    /// Whether two more tests of the fused spectra's peak apply when the concentration indices
    /// above do not reach their thresholds (default off): the most concentrated single
    /// modulation's own spectrum over the span (a respiratory peak one modulation carries
    /// cleanly is not diluted by the others' noise; peak-conditioned spectral averaging, Bailón
    /// et al. 2006) and, for fused rows with ECG and PPG spectra, the geometric mean of the
    /// modulations' spectra (the spectral multiplication of Nemati et al. 2010: a peak common to
    /// the modulations survives, each one's own noise peaks do not). Their thresholds are the
    /// largest values of each index over 7,200 simulated windows without breathing (the 1,600
    /// of the concentration's and 5,600 more: their tail is heavier), as for the concentration
    /// (`scripts/respiration/spectral-threshold.py`; not options), derived at span 2: they apply
    /// at ``spectralSpan`` 2 only, and only where the span is full (not a recording's first and
    /// last two windows, where fewer spectra are averaged and every simulated maximum lay).
    ///
    /// Off by default: on the BIDMC development part they raise the fused coverage from 72.1 % to
    /// 72.7 % at about the same MAE (0.74 → 0.73 breaths/min; in-sample), but cost about a fifth of the
    /// respiration stage's time on a day without breathing (each window's per-modulation spectra
    /// and their product), which takes the stage from ≈ 0.085 to ≈ 0.10 of the ECG and PPG
    /// chains — the speed target's bound (Benchmarks/README.md, "Respiration stage").
    public var modulationIndices = false
    /// Whether the concentration thresholds depend on the rate the peak lies at (default on):
    /// above 12, 16 and 20 breaths/min each source's thresholds are lowered to the
    /// largest values of the indices over simulated windows without breathing whose peak lies
    /// at or above that rate (``SpectralThreshold/bands``; `scripts/respiration/spectral-threshold.py`,
    /// 7,200 windows, derived at span 2 and used at ``spectralSpan`` 2 only). The options above
    /// stay the thresholds below 12 breaths/min and an upper bound everywhere. Coloured noise
    /// (interpolated beat noise, motion's low-frequency hump) puts its most concentrated chance
    /// peaks at low rates; a peak at 18 breaths/min is tested against the noise found there
    /// (Mann & Lees 1996; Torrence & Compo 1998).
    public var rateBands = true
    /// Whether a peak is also the rate when the product of its concentration and local
    /// concentration reaches the largest value of that product over simulated windows without
    /// breathing at the peak's rate band (default on; ``SpectralThreshold/jointBands``,
    /// `scripts/respiration/spectral-threshold.py`: 7,200 windows, derived at span 2, used at
    /// ``spectralSpan`` 2 only and only where the span is full). Noise that is high on one index is
    /// rarely high on both (the concentration's noise maxima are broad low-frequency humps, the
    /// local concentration's narrow chance peaks), so a peak moderately concentrated by both is
    /// rare in noise.
    public var jointIndex = true
    /// Fused rows are written once the recording has reached this far past the window's
    /// look-ahead, s (default 600): streams whose beats arrive further behind the others than
    /// this are not fused into earlier windows (counted in the analyzer's issues). Bounds what
    /// is held for fusion to about this span.
    public var fusionLagSeconds = 600.0

    /// The defaults.
    public init() {}
}
