/// Gradient-boosted decision trees for a multi-class rhythm model, fitted offline by
/// `scripts/rhythm/fit.py` with scikit-learn's `HistGradientBoostingClassifier` (histogram
/// gradient boosting after Ke G et al. 2017, "LightGBM: a highly efficient gradient boosting
/// decision tree", NeurIPS 30; Friedman JH 2001, "Greedy function approximation: a gradient
/// boosting machine", Ann Stat 29:1189–1232) and shipped as text (``init(encoded:)``). Each
/// boosting round has one regression tree per class; a class's score is its baseline plus the
/// leaf values its trees reach (the learning rate is already in the leaf values), and the class
/// probabilities are the softmax of the scores — scikit-learn's `predict_proba`. At a split an
/// input goes left when it is at most the threshold; a missing (NaN) input goes to the side the
/// split learned for missing values.
public struct RhythmTreeEnsemble: Sendable {
    /// Baseline score per class.
    let baseline: [Double]
    /// Nodes, all trees one after the other: split input (−1 for a leaf), threshold (or the
    /// leaf's value), children (absolute node indices) and the missing-value side.
    let feature: [Int32]
    let threshold: [Double]
    let left: [Int32]
    let right: [Int32]
    let missingLeft: [Bool]
    /// Root node and class of each tree.
    let roots: [Int32]
    let treeClass: [Int32]
    /// Inputs the splits read (one past the largest split input).
    let inputCount: Int

    /// Reads the text `scripts/rhythm/fit.py` writes: a line `b` with the baseline score per
    /// class; per tree a line `t CLASS` followed by its nodes in index order, `s FEATURE
    /// THRESHOLD LEFT RIGHT MISSING_LEFT` for a split (children numbered within the tree) or `l
    /// VALUE` for a leaf. The text is generated, so a malformed line is a programming error.
    /// - Parameter text: the encoded ensemble.
    public init(encoded text: String) {
        var baseline = [Double]()
        var feature = [Int32](), threshold = [Double](), left = [Int32](), right = [Int32]()
        var missingLeft = [Bool](), roots = [Int32](), treeClass = [Int32]()
        var root: Int32 = 0
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            guard let kind = f.first else { continue }
            switch kind {
            case "b":
                baseline = f.dropFirst().map { Double($0)! }
            case "t":
                root = Int32(feature.count)
                roots.append(root)
                treeClass.append(Int32(f[1])!)
            case "s":
                feature.append(Int32(f[1])!)
                threshold.append(Double(f[2])!)
                left.append(root + Int32(f[3])!)
                right.append(root + Int32(f[4])!)
                missingLeft.append(f[5] == "1")
            default:
                feature.append(-1)
                threshold.append(Double(f[1])!)
                left.append(-1)
                right.append(-1)
                missingLeft.append(false)
            }
        }
        self.baseline = baseline
        self.feature = feature
        self.threshold = threshold
        self.left = left
        self.right = right
        self.missingLeft = missingLeft
        self.roots = roots
        self.treeClass = treeClass
        inputCount = Int(feature.max() ?? -1) + 1
    }

    /// Number of trees.
    public var treeCount: Int { roots.count }

    /// The class scores of one input vector (NaN for a missing input).
    /// - Parameter x: the inputs, in the model's input order.
    /// - Returns: one score per class; the probabilities are their softmax.
    /// - Complexity: O(trees · depth).
    public func scores(_ x: [Double]) -> [Double] {
        precondition(x.count >= inputCount, "RhythmTreeEnsemble: \(x.count) inputs, \(inputCount) needed")
        var s = baseline
        feature.withUnsafeBufferPointer { feature in
            threshold.withUnsafeBufferPointer { threshold in
                left.withUnsafeBufferPointer { left in
                    right.withUnsafeBufferPointer { right in
                        missingLeft.withUnsafeBufferPointer { missingLeft in
                            x.withUnsafeBufferPointer { x in
                                for t in roots.indices {
                                    var n = Int(roots[t])
                                    while feature[n] >= 0 {
                                        let v = x[Int(feature[n])]
                                        let goLeft = v.isNaN ? missingLeft[n] : v <= threshold[n]
                                        n = Int(goLeft ? left[n] : right[n])
                                    }
                                    s[Int(treeClass[t])] += threshold[n]
                                }
                            }
                        }
                    }
                }
            }
        }
        return s
    }
}
