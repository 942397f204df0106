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
    public var inputs: [String] { didSet { resolved = Self.resolve(inputs) } }
    /// ``inputs`` resolved once: each one's measure (`nil` for a name no measure has) and
    /// whether it is log-transformed, so a window's inputs are read without comparing names.
    private var resolved: [(measure: RhythmMeasure?, log: Bool)]
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

    init(
        name: String, inputs: [String], means: [Double], scales: [Double], weights: [[Double]], intercepts: [Double],
        trees: RhythmTreeEnsemble? = nil, pWaveCoherenceLimit: Double? = nil
    ) {
        self.name = name
        self.inputs = inputs
        self.resolved = Self.resolve(inputs)
        self.means = means
        self.scales = scales
        self.weights = weights
        self.intercepts = intercepts
        self.trees = trees
        self.pWaveCoherenceLimit = pWaveCoherenceLimit
    }

    static func resolve(_ inputs: [String]) -> [(measure: RhythmMeasure?, log: Bool)] {
        inputs.map { name in
            name.hasPrefix("log_") ? (RhythmMeasure(rawValue: String(name.dropFirst(4))), true) : (RhythmMeasure(rawValue: name), false)
        }
    }

    /// The class probabilities of a window (``classes`` order): the same inputs as
    /// ``probabilities(measure:)`` with ``RhythmWindowRow/measure(_:)``, read through the
    /// inputs resolved once.
    /// - Parameter row: the window with its measures.
    /// - Returns: probabilities summing to 1.
    /// - Complexity: O(classes · inputs) for the logistic model, O(trees · depth) for trees.
    public func probabilities(_ row: RhythmWindowRow) -> [Double] {
        probabilities(inputs: transformed { i in resolved[i].measure.flatMap { row.measure($0) } })
    }

    /// The class probabilities from the window measures by name (``RhythmWindowRow/measure(_:)``).
    /// - Parameter measure: a measure by its `rhythm` column name, `nil` when undefined.
    /// - Returns: probabilities summing to 1 (``classes`` order).
    /// - Complexity: O(classes · inputs) for the logistic model, O(trees · depth) for trees.
    public func probabilities(measure: (String) -> Double?) -> [Double] {
        probabilities(inputs: transformed { i in measure(resolved[i].log ? String(inputs[i].dropFirst(4)) : inputs[i]) })
    }

    /// The model's inputs from each input's raw value (by input index): log-transformed where
    /// the name says so, NaN where the value is missing or not finite.
    private func transformed(_ value: (Int) -> Double?) -> [Double] {
        var x = [Double](repeating: .nan, count: resolved.count)
        for (i, input) in resolved.enumerated() {
            guard let v = value(i), v.isFinite else { continue }
            x[i] = input.log ? log(max(v, 1e-4)) : v
        }
        return x
    }

    /// The class probabilities from the transformed inputs (NaN for a missing one).
    private func probabilities(inputs x: [Double]) -> [Double] {
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
        RhythmMeasure(rawValue: name).flatMap { measure($0) }
    }

    /// A measure (``measure(_:)``) by its resolved name.
    func measure(_ m: RhythmMeasure) -> Double? {
        let r = irregularity
        switch m {
        case .meanHrBpm: return meanHeartRateBPM
        case .nrmssd: return r?.normalizedRMSSD
        case .shannonEntropy: return r?.shannonEntropy
        case .turningPointRatio: return r?.turningPointRatio
        case .cosen: return r?.cosEn
        case .madDeltaRatio: return r?.medianAbsoluteDeltaRatio
        case .largeDeltaShare: return r?.largeDeltaShare
        case .rrCv: return r?.coefficientOfVariation
        case .rrCoverage: return intervalCoverage
        case .nvNrmssd: return ectopyFreeIrregularity?.normalizedRMSSD
        case .nvShannonEntropy: return ectopyFreeIrregularity?.shannonEntropy
        case .nvTurningPointRatio: return ectopyFreeIrregularity?.turningPointRatio
        case .nvCosen: return ectopyFreeIrregularity?.cosEn
        case .nvMadDeltaRatio: return ectopyFreeIrregularity?.medianAbsoluteDeltaRatio
        case .nvLargeDeltaShare: return ectopyFreeIrregularity?.largeDeltaShare
        case .nvRrCv: return ectopyFreeIrregularity?.coefficientOfVariation
        case .ectopicShare: return ectopicShare
        case .qrsWidthS: return qrsWidthSeconds
        case .unacceptableShare: return unacceptableShare
        case .goodShare: return goodShare
        case .pWaveCoherence: return atrial?.pWaveCoherence
        case .qrsCoherence: return atrial?.qrsCoherence
        case .atrialResidual: return atrial?.atrialResidual
        case .hfNoise: return atrial?.highFrequencyNoise
        case .fWaveBandShare: return atrial?.fWaveBandShare
        case .sinusPShare: return pattern?.sinusPShare
        case .pCorrelationMedian: return pattern?.pCorrelationMedian
        case .ventricularShare: return pattern?.ventricularShare
        case .qrsWidthSdS: return pattern?.qrsWidthSpreadSeconds
        case .rrMaxRatio: return pattern?.longestRRRatio
        case .rrMinRatio: return pattern?.shortestRRRatio
        case .bigeminyShare: return pattern?.bigeminyShare
        }
    }
}

/// The window measures a model can take as inputs (``RhythmWindowRow/measure(_:)``), by their
/// `rhythm` column names.
enum RhythmMeasure: String {
    case meanHrBpm = "mean_hr_bpm"
    case nrmssd = "nrmssd"
    case shannonEntropy = "shannon_entropy"
    case turningPointRatio = "turning_point_ratio"
    case cosen = "cosen"
    case madDeltaRatio = "mad_delta_ratio"
    case largeDeltaShare = "large_delta_share"
    case rrCv = "rr_cv"
    case rrCoverage = "rr_coverage"
    case nvNrmssd = "nv_nrmssd"
    case nvShannonEntropy = "nv_shannon_entropy"
    case nvTurningPointRatio = "nv_turning_point_ratio"
    case nvCosen = "nv_cosen"
    case nvMadDeltaRatio = "nv_mad_delta_ratio"
    case nvLargeDeltaShare = "nv_large_delta_share"
    case nvRrCv = "nv_rr_cv"
    case ectopicShare = "ectopic_share"
    case qrsWidthS = "qrs_width_s"
    case unacceptableShare = "unacceptable_share"
    case goodShare = "good_share"
    case pWaveCoherence = "p_wave_coherence"
    case qrsCoherence = "qrs_coherence"
    case atrialResidual = "atrial_residual"
    case hfNoise = "hf_noise"
    case fWaveBandShare = "f_wave_band_share"
    case sinusPShare = "sinus_p_share"
    case pCorrelationMedian = "p_correlation_median"
    case ventricularShare = "ventricular_share"
    case qrsWidthSdS = "qrs_width_sd_s"
    case rrMaxRatio = "rr_max_ratio"
    case rrMinRatio = "rr_min_ratio"
    case bigeminyShare = "bigeminy_share"
}
