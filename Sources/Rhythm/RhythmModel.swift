import Foundation

/// A rhythm model fitted offline (`scripts/rhythm/fit.py`) and shipped as parameters
/// (`RhythmModelParameters.swift`, generated; model card in docs/RHYTHM.md): each input is a
/// window measure (``RhythmWindowRow``), log-transformed where its name starts with `log_`. Either
/// gradient-boosted trees (``trees``, ``RhythmTreeEnsemble``: a missing input follows each
/// split's missing-value side) or a multinomial logistic regression: inputs standardised with
/// the training mean and scale, a missing (undefined) input set to the training mean, the class
/// probabilities the softmax of the linear scores.
public struct RhythmModel: Sendable {
    /// The model's name and version (`rhythm.model`).
    public var name: String
    /// Input names (``RhythmWindowRow/measure(_:)``, with an optional `log_` prefix).
    public var inputs: [String]
    /// Training mean and scale (standard deviation) of each transformed input.
    public var means: [Double]
    public var scales: [Double]
    /// Coefficients per class (``classes`` order) and input.
    public var weights: [[Double]]
    /// Intercept per class.
    public var intercepts: [Double]
    /// The trees, or `nil` for the logistic model (then ``means`` … ``intercepts`` hold it).
    public var trees: RhythmTreeEnsemble? = nil
    /// The P-wave rule, or `nil`: a window whose P-wave coherence
    /// (``AtrialActivity/pWaveCoherence``) is at least this has P waves locked to its QRS
    /// complexes, which atrial fibrillation by definition lacks ("no distinct repeating P
    /// waves", Hindricks G et al. 2020 ESC Guidelines for AF, Eur Heart J 42:373–498), so it is
    /// not labelled af (``label(_:of:)``). Chosen with the model by cross-validation on the
    /// development data (`scripts/rhythm/fit.py`).
    public var pWaveCoherenceLimit: Double? = nil
    /// The labels the classes stand for, in score order.
    public static let classes: [RhythmLabel] = [.sinus, .af, .other, .noisy]

    /// The class probabilities of a window (``classes`` order).
    /// - Parameter row: the window with its measures.
    /// - Returns: probabilities summing to 1.
    /// - Complexity: O(classes · inputs) for the logistic model, O(trees · depth) for trees.
    public func probabilities(_ row: RhythmWindowRow) -> [Double] {
        probabilities { row.measure($0) }
    }

    /// The class probabilities from the window measures by name (``RhythmWindowRow/measure(_:)``).
    /// - Parameter measure: a measure by its `rhythm` column name, `nil` when undefined.
    /// - Returns: probabilities summing to 1 (``classes`` order).
    /// - Complexity: O(classes · inputs) for the logistic model, O(trees · depth) for trees.
    public func probabilities(measure: (String) -> Double?) -> [Double] {
        var x = [Double](repeating: .nan, count: inputs.count)
        for (i, name) in inputs.enumerated() {
            if name.hasPrefix("log_") {
                if let v = measure(String(name.dropFirst(4))), v.isFinite { x[i] = log(max(v, 1e-4)) }
            } else if let v = measure(name), v.isFinite {
                x[i] = v
            }
        }
        if let trees { return Self.softmax(trees.scores(x)) }
        var z = [Double](repeating: 0, count: inputs.count)
        for i in x.indices where x[i].isFinite { z[i] = (x[i] - means[i]) / scales[i] }
        var scores = intercepts
        for c in scores.indices {
            for i in z.indices { scores[c] += weights[c][i] * z[i] }
        }
        return Self.softmax(scores)
    }

    static func softmax(_ scores: [Double]) -> [Double] {
        let top = scores.max()!
        let e = scores.map { exp($0 - top) }
        let total = e.reduce(0, +)
        return e.map { $0 / total }
    }
}

extension RhythmModel {
    /// A gradient-boosted-trees model.
    /// - Parameters:
    ///   - name: name and version.
    ///   - inputs: input names, in the trees' input order.
    ///   - trees: the ensemble.
    ///   - pWaveCoherenceLimit: the P-wave rule, or `nil`.
    public init(name: String, inputs: [String], trees: RhythmTreeEnsemble, pWaveCoherenceLimit: Double? = nil) {
        self.init(
            name: name, inputs: inputs, means: [], scales: [], weights: [], intercepts: [], trees: trees,
            pWaveCoherenceLimit: pWaveCoherenceLimit)
    }

    /// The label of a window: the most probable class, except that a window the P-wave rule
    /// (``pWaveCoherenceLimit``) excludes from af gets its most probable other class.
    /// - Parameters:
    ///   - probabilities: ``probabilities(_:)`` of the window.
    ///   - row: the window with its measures.
    /// - Complexity: O(classes).
    public func label(_ probabilities: [Double], of row: RhythmWindowRow) -> RhythmLabel {
        var p = probabilities
        if let limit = pWaveCoherenceLimit, let c = row.atrial?.pWaveCoherence, c >= limit, let af = Self.classes.firstIndex(of: .af) {
            p[af] = -1
        }
        let best = p.indices.max { p[$0] < p[$1] }!
        return Self.classes[best]
    }
}

extension RhythmWindowRow {
    /// A measure by its `rhythm` column name (`nrmssd`, `p_wave_coherence`, …), or `nil` when
    /// undefined for the window.
    /// - Parameter name: the column name.
    public func measure(_ name: String) -> Double? {
        let r = irregularity
        switch name {
        case "mean_hr_bpm": return meanHeartRateBPM
        case "nrmssd": return r?.normalizedRMSSD
        case "shannon_entropy": return r?.shannonEntropy
        case "turning_point_ratio": return r?.turningPointRatio
        case "cosen": return r?.cosEn
        case "mad_delta_ratio": return r?.medianAbsoluteDeltaRatio
        case "large_delta_share": return r?.largeDeltaShare
        case "rr_cv": return r?.coefficientOfVariation
        case "rr_coverage": return intervalCoverage
        case "nv_nrmssd": return ectopyFreeIrregularity?.normalizedRMSSD
        case "nv_shannon_entropy": return ectopyFreeIrregularity?.shannonEntropy
        case "nv_turning_point_ratio": return ectopyFreeIrregularity?.turningPointRatio
        case "nv_cosen": return ectopyFreeIrregularity?.cosEn
        case "nv_mad_delta_ratio": return ectopyFreeIrregularity?.medianAbsoluteDeltaRatio
        case "nv_large_delta_share": return ectopyFreeIrregularity?.largeDeltaShare
        case "nv_rr_cv": return ectopyFreeIrregularity?.coefficientOfVariation
        case "ectopic_share": return ectopicShare
        case "qrs_width_s": return qrsWidthSeconds
        case "unacceptable_share": return unacceptableShare
        case "good_share": return goodShare
        case "p_wave_coherence": return atrial?.pWaveCoherence
        case "qrs_coherence": return atrial?.qrsCoherence
        case "atrial_residual": return atrial?.atrialResidual
        case "hf_noise": return atrial?.highFrequencyNoise
        case "sinus_p_share": return pattern?.sinusPShare
        case "p_correlation_median": return pattern?.pCorrelationMedian
        case "ventricular_share": return pattern?.ventricularShare
        case "qrs_width_sd_s": return pattern?.qrsWidthSpreadSeconds
        case "rr_max_ratio": return pattern?.longestRRRatio
        case "rr_min_ratio": return pattern?.shortestRRRatio
        case "bigeminy_share": return pattern?.bigeminyShare
        default: return nil
        }
    }
}
