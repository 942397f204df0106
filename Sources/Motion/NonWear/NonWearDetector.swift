/// Non-wear detection after van Hees et al. 2013, "Separating movement and gravity components in an
/// acceleration signal and implications for the assessment of human daily physical activity",
/// PLoS ONE 8(4):e61691, doi:10.1371/journal.pone.0061691 (GGIR's "2013" rule): each 15-min block
/// is non-wear when, in the 60-min window centred on it, at least two of the three axes have a
/// standard deviation below 13 mg and a range below 50 mg.
///
/// The window is assembled from 7.5-min sub-blocks on the clock (the block is two of them, the
/// window eight), each keeping count, shifted sum and sum of squares, minimum and maximum per axis,
/// so a block is decided 22.5 min after it ends and memory stays at a dozen sub-blocks.
///
/// - Complexity: O(1) per grid sample.
struct NonWearDetector {
    /// Standard-deviation and range criteria in g (GGIR defaults).
    static let sdCriterion = 0.013
    static let rangeCriterion = 0.050

    struct SubBlock {
        var index: Int
        var n = 0
        var shift = (0.0, 0.0, 0.0)
        var sum = (0.0, 0.0, 0.0)
        var squares = (0.0, 0.0, 0.0)
        var low = (Double.infinity, Double.infinity, Double.infinity)
        var high = (-Double.infinity, -Double.infinity, -Double.infinity)
    }

    /// A decided 15-min block: its start (grid index), samples, and whether it is non-wear.
    struct Block: Equatable {
        var firstIndex: Int
        var samples: Int
        var nonWear: Bool
    }

    let subBlockSamples: Int
    private var subBlocks: [SubBlock] = []
    private var nextBlock: Int? = nil // next 15-min block to decide
    /// Decided blocks, drained by the caller.
    var decided: [Block] = []
    private var ended = false

    /// Grid samples of one 15-min block.
    var blockSamples: Int { 2 * subBlockSamples }

    /// Every block before this grid index is decided (a block with too few samples in its window
    /// gets no decision); `Int.max` once ``finish()`` has run.
    var decidedBefore: Int {
        if ended { return Int.max }
        guard let j = nextBlock else { return Int.min }
        return j * blockSamples
    }

    init(sampleRate: Int) {
        subBlockSamples = sampleRate * 450
    }

    /// Adds grid samples `firstIndex …` (a contiguous stretch, `count` of each axis, in g).
    /// - Complexity: O(count).
    mutating func add(
        firstIndex: Int, _ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ z: UnsafePointer<Float>, count: Int
    ) {
        let s = subBlockSamples
        var i = 0
        while i < count {
            let k = firstIndex + i
            let b = k >= 0 ? k / s : (k - s + 1) / s
            if subBlocks.isEmpty || subBlocks[subBlocks.count - 1].index != b {
                if nextBlock == nil { nextBlock = b >= 0 ? b / 2 : (b - 1) / 2 }
                decide(upTo: b)
                subBlocks.append(SubBlock(index: b, shift: (Double(x[i]), Double(y[i]), Double(z[i]))))
            }
            let end = min(count, i + ((b + 1) * s - k))
            let last = subBlocks.count - 1
            var sb = subBlocks[last]
            for j in i..<end {
                let a = (Double(x[j]), Double(y[j]), Double(z[j]))
                sb.n += 1
                let d = (a.0 - sb.shift.0, a.1 - sb.shift.1, a.2 - sb.shift.2)
                sb.sum.0 += d.0
                sb.sum.1 += d.1
                sb.sum.2 += d.2
                sb.squares.0 += d.0 * d.0
                sb.squares.1 += d.1 * d.1
                sb.squares.2 += d.2 * d.2
                sb.low = (min(sb.low.0, a.0), min(sb.low.1, a.1), min(sb.low.2, a.2))
                sb.high = (max(sb.high.0, a.0), max(sb.high.1, a.1), max(sb.high.2, a.2))
            }
            subBlocks[last] = sb
            i = end
        }
    }

    /// Decides every block whose window ends before sub-block `current` starts.
    private mutating func decide(upTo current: Int) {
        guard var j = nextBlock else { return }
        // Block j covers sub-blocks 2j, 2j+1; its window 2j-3 … 2j+4.
        while 2 * j + 4 < current {
            evaluate(j)
            j += 1
        }
        nextBlock = j
        subBlocks.removeAll { $0.index < 2 * j - 3 }
    }

    /// Ends the stream: decides every remaining block with the data there is.
    mutating func finish() {
        ended = true
        guard var j = nextBlock, let last = subBlocks.last?.index else { return }
        while 2 * j <= last {
            evaluate(j)
            j += 1
        }
        nextBlock = j
        subBlocks.removeAll()
    }

    private mutating func evaluate(_ j: Int) {
        var samples = 0
        var n = 0.0
        var mean = (0.0, 0.0, 0.0), m2 = (0.0, 0.0, 0.0)
        var low = (Double.infinity, Double.infinity, Double.infinity)
        var high = (-Double.infinity, -Double.infinity, -Double.infinity)
        for sb in subBlocks where sb.index >= 2 * j - 3 && sb.index <= 2 * j + 4 && sb.n > 0 {
            if sb.index == 2 * j || sb.index == 2 * j + 1 { samples += sb.n }
            // Chan et al. parallel merge of (count, mean, M2) per axis.
            let c = Double(sb.n)
            func merge(_ mean: inout Double, _ m2: inout Double, _ shift: Double, _ sum: Double, _ squares: Double) {
                let bm = shift + sum / c
                let bm2 = squares - sum * sum / c
                let delta = bm - mean
                let total = n + c
                mean += delta * c / total
                m2 += bm2 + delta * delta * n * c / total
            }
            merge(&mean.0, &m2.0, sb.shift.0, sb.sum.0, sb.squares.0)
            merge(&mean.1, &m2.1, sb.shift.1, sb.sum.1, sb.squares.1)
            merge(&mean.2, &m2.2, sb.shift.2, sb.sum.2, sb.squares.2)
            n += c
            low = (min(low.0, sb.low.0), min(low.1, sb.low.1), min(low.2, sb.low.2))
            high = (max(high.0, sb.high.0), max(high.1, sb.high.1), max(high.2, sb.high.2))
        }
        guard samples > 0, n > 1 else { return }
        var still = 0
        for (m, lo, hi) in [(m2.0, low.0, high.0), (m2.1, low.1, high.1), (m2.2, low.2, high.2)] {
            let sd = (max(m, 0) / (n - 1)).squareRoot()
            if sd < Self.sdCriterion && hi - lo < Self.rangeCriterion { still += 1 }
        }
        decided.append(Block(firstIndex: 2 * j * subBlockSamples, samples: samples, nonWear: still >= 2))
    }
}
