import DSP

/// The single-lead ECG signal-quality indices (SQIs) of Li, Mark & Clifford (2008), Behar et al.
/// (2013) and Zhao & Zhang (2018), each on one window of samples.
///
/// | index | what | unit / range | clean ECG |
/// | --- | --- | --- | --- |
/// | ``kurtosis(_:masked:)`` (kSQI) | fourth standardised moment, **Pearson** (Gaussian = 3) | dimensionless, ≥ 1 | > 5 |
/// | ``skewness(_:masked:)`` (sSQI) | third standardised moment | dimensionless | far from 0 |
/// | ``pSQI(_:sampleRate:masked:)`` | power in 5–15 Hz over power in 5–40 Hz | ratio 0…1 | 0.5–0.8 |
/// | ``basSQI(_:sampleRate:masked:)`` | 1 − power in 0–1 Hz over power in 0–40 Hz | ratio 0…1 | ≥ 0.95 |
/// | ``bSQI(_:_:toleranceSamples:sampleCount:)`` | beats two detectors agree on, over all beats either found | ratio 0…1 | > 0.9 |
///
/// **Kurtosis.** Li et al. (2008, eq. 5), Behar et al. (2013) and Zhao & Zhang (2018, eq. 9)
/// define kSQI as `E[(x − μ)⁴] / σ⁴`, the Pearson kurtosis, for which Gaussian noise gives 3 and
/// the published threshold "ECG if kSQI > 5" is meant; ``excessKurtosis(_:masked:)`` gives the
/// Fisher form (kSQI − 3, Gaussian = 0). Both use the population (biased) moments, as
/// `scipy.stats.kurtosis(…, bias=True)` and NeuroKit2's `_ecg_quality_kSQI`.
///
/// **Spectra.** Both spectral indices come from one power spectral density of the window: the
/// window's mean is removed, then Welch's method (``Welch``) with periodic-Hann segments of
/// `⌊n/2⌋` samples, 50 % overlap, no per-segment detrending and an FFT length of `2·⌊n/2⌋`
/// (0.1-Hz bins for a 10-s window). A band's power is the trapezoid-rule integral of the PSD over
/// the bins with `low ≤ f < high` (``bandPowerRatio(_:sampleRate:numeratorHz:denominatorHz:masked:)``).
/// This is the estimator NeuroKit2 0.2.13 uses for its `zhao2018` pSQI/basSQI, with one
/// deliberate difference: NeuroKit2 drops the PSD below `4·fs/n` Hz (0.4 Hz on a 10-s window,
/// its `signal_psd` default `min_frequency`), so its basSQI ignores baseline wander below 0.4 Hz;
/// here the baseline band starts at 0 Hz, as Li et al. (2008) and Zhao & Zhang (2018) define it.
/// Zhao & Zhang print eq. 11 as `(1 − ∫₀¹P)/∫₀⁴⁰P`, a typesetting slip (their text says basSQI is
/// close to 1 without baseline drift); the implemented form is `1 − ∫₀¹P/∫₀⁴⁰P`.
///
/// **Masked samples** (`masked[i] == true`) are left out of the moments and replaced by the mean
/// of the unmasked samples for the spectra (so they add no power).
///
/// Sources: Q. Li, R. G. Mark and G. D. Clifford, "Robust heart rate estimation from multiple
/// asynchronous noisy sources using signal quality indices and a Kalman filter", *Physiol. Meas.*
/// 29(1):15–32, 2008, doi:10.1088/0967-3334/29/1/002; J. Behar, J. Oster, Q. Li and
/// G. D. Clifford, "ECG signal quality during arrhythmia and its application to false alarm
/// reduction", *IEEE Trans. Biomed. Eng.* 60(6):1660–1666, 2013, doi:10.1109/TBME.2013.2240452;
/// Z. Zhao and Y. Zhang, *Front. Physiol.* 9:727, 2018, doi:10.3389/fphys.2018.00727.
public enum ECGSignalQualityIndex {
    /// kSQI: the Pearson kurtosis `E[(x − μ)⁴] / σ⁴` of the unmasked samples.
    /// - Parameters:
    ///   - samples: the window (any unit).
    ///   - masked: `true` for samples to leave out; `nil` (default) uses all.
    /// - Returns: the kurtosis (dimensionless; 3 for Gaussian noise, 1.5 for a sine, > 5 for
    ///   clean ECG); NaN when fewer than 2 samples are unmasked or they are all equal.
    /// - Complexity: O(n).
    public static func kurtosis(_ samples: [Float], masked: [Bool]? = nil) -> Double {
        moments(samples, masked).kurtosis
    }

    /// Fisher (excess) kurtosis, ``kurtosis(_:masked:)`` − 3 (0 for Gaussian noise).
    /// - Parameters:
    ///   - samples: the window (any unit).
    ///   - masked: `true` for samples to leave out; `nil` (default) uses all.
    /// - Returns: the excess kurtosis (dimensionless); NaN as ``kurtosis(_:masked:)``.
    /// - Complexity: O(n).
    public static func excessKurtosis(_ samples: [Float], masked: [Bool]? = nil) -> Double {
        moments(samples, masked).kurtosis - 3
    }

    /// sSQI: the skewness `E[(x − μ)³] / σ³` of the unmasked samples.
    /// - Parameters:
    ///   - samples: the window (any unit).
    ///   - masked: `true` for samples to leave out; `nil` (default) uses all.
    /// - Returns: the skewness (dimensionless; 0 for symmetric signals); NaN when fewer than 2
    ///   samples are unmasked or they are all equal.
    /// - Complexity: O(n).
    public static func skewness(_ samples: [Float], masked: [Bool]? = nil) -> Double {
        moments(samples, masked).skewness
    }

    /// pSQI: power in 5–15 Hz over power in 5–40 Hz (Zhao & Zhang 2018, eq. 10; Behar et al.
    /// 2013), the share of the QRS band.
    /// - Parameters:
    ///   - samples: the window, at least 1 s.
    ///   - sampleRate: Hz, > 80 (the 40-Hz edge must lie below Nyquist).
    ///   - masked: `true` for samples to replace by the mean; `nil` (default) uses all.
    /// - Returns: the ratio (0…1); NaN when the window has no power in 5–40 Hz.
    /// - Complexity: O(n log n).
    public static func pSQI(_ samples: [Float], sampleRate: Double, masked: [Bool]? = nil) -> Double {
        bandPowerRatio(
            samples, sampleRate: sampleRate, numeratorHz: 5..<15, denominatorHz: 5..<40,
            masked: masked)
    }

    /// basSQI: `1 −` power in 0–1 Hz over power in 0–40 Hz (Li et al. 2008; Zhao & Zhang 2018,
    /// eq. 11 as intended), the share of the signal that is not baseline.
    /// - Parameters:
    ///   - samples: the window, at least 1 s.
    ///   - sampleRate: Hz, > 80.
    ///   - masked: `true` for samples to replace by the mean; `nil` (default) uses all.
    /// - Returns: the ratio (0…1; 1 = no baseline wander); NaN when the window has no power in
    ///   0–40 Hz.
    /// - Complexity: O(n log n).
    public static func basSQI(_ samples: [Float], sampleRate: Double, masked: [Bool]? = nil) -> Double {
        1
            - bandPowerRatio(
                samples, sampleRate: sampleRate, numeratorHz: 0..<1, denominatorHz: 0..<40,
                masked: masked)
    }

    /// The power in one band over the power in another, from the PSD described in the type's
    /// documentation (Welch, Hann, `⌊n/2⌋`-sample segments, trapezoid rule over `low ≤ f < high`).
    /// - Parameters:
    ///   - samples: the window, at least 2 samples.
    ///   - sampleRate: Hz, positive.
    ///   - numeratorHz: the band whose power is divided, Hz.
    ///   - denominatorHz: the reference band, Hz.
    ///   - masked: `true` for samples to replace by the mean; `nil` (default) uses all.
    /// - Returns: the ratio of the two band powers (dimensionless); NaN when the reference band
    ///   has no power.
    /// - Complexity: O(n log n).
    public static func bandPowerRatio(
        _ samples: [Float], sampleRate: Double, numeratorHz: Range<Double>,
        denominatorHz: Range<Double>, masked: [Bool]? = nil
    ) -> Double {
        precondition(masked == nil || masked!.count == samples.count, "masked must have one flag per sample")
        precondition(samples.count >= 2, "a band-power ratio needs at least 2 samples")
        let spectrum = samples.withUnsafeBufferPointer { s in
            withOptionalBuffer(masked) { m in QualitySpectrum(s, masked: m, sampleRate: sampleRate) }
        }
        return spectrum.bandPower(numeratorHz) / spectrum.bandPower(denominatorHz)
    }

    /// bSQI (Li et al. 2008, eq. 4): the share of beats two detectors agree on,
    /// `matched / (|A| + |B| − matched)`.
    ///
    /// Beats are matched one-to-one in time order: a beat of `a` and a beat of `b` no more than
    /// `toleranceSamples` apart are a match (two-pointer sweep over the sorted lists, as beat-by-beat
    /// comparison in ANSI/AAMI EC57). When `sampleCount` is given, beats closer than the tolerance
    /// to either end of the window are left out of both lists first: a beat cut by the window's
    /// edge is often found by one detector only, which says nothing about the signal.
    /// - Parameters:
    ///   - a: beat sample indices from one detector.
    ///   - b: beat sample indices from another detector.
    ///   - toleranceSamples: largest distance of a match, samples (Li et al.: 150 ms), ≥ 0.
    ///   - sampleCount: the window's length in samples, to exclude edge beats; `nil` keeps all.
    /// - Returns: the agreement (0…1); 0 when neither detector found a beat.
    /// - Complexity: O((|a| + |b|) log(|a| + |b|)).
    public static func bSQI(_ a: [Int], _ b: [Int], toleranceSamples: Int, sampleCount: Int? = nil) -> Double {
        precondition(toleranceSamples >= 0, "toleranceSamples must be ≥ 0")
        let keep: (Int) -> Bool = { p in
            guard let n = sampleCount else { return true }
            return p >= toleranceSamples && p < n - toleranceSamples
        }
        let x = a.filter(keep).sorted(), y = b.filter(keep).sorted()
        let matched = matchCount(x, y, tolerance: toleranceSamples)
        let union = x.count + y.count - matched
        return union == 0 ? 0 : Double(matched) / Double(union)
    }

    // MARK: - Internals

    /// Matches two sorted beat lists one-to-one within `tolerance` samples.
    static func matchCount(_ x: [Int], _ y: [Int], tolerance: Int) -> Int {
        var i = 0, j = 0, m = 0
        while i < x.count && j < y.count {
            if abs(x[i] - y[j]) <= tolerance {
                m += 1; i += 1; j += 1
            } else if x[i] < y[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return m
    }

    static func moments(_ samples: [Float], _ masked: [Bool]?) -> SampleMoments {
        precondition(masked == nil || masked!.count == samples.count, "masked must have one flag per sample")
        return samples.withUnsafeBufferPointer { s in
            withOptionalBuffer(masked) { m in SampleMoments(s, masked: m) }
        }
    }
}

/// Calls `body` with the array's buffer, or with `nil`.
@inline(__always)
func withOptionalBuffer<R>(_ array: [Bool]?, _ body: (UnsafeBufferPointer<Bool>?) -> R) -> R {
    guard let array else { return body(nil) }
    return array.withUnsafeBufferPointer { body($0) }
}
