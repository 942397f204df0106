import DSP
import Signals

/// One signal column (a PPG optical channel or one accelerometer axis) brought onto the common
/// analysis grid of its device: masked samples held at the last valid value, band-pass filtered
/// at the source rate (causal Butterworth, started in steady state so a DC offset gives no
/// transient), then sampled at the grid times `origin + n / gridRate` by linear interpolation
/// between the two source samples around each grid time (the shared ``ClockGrid`` and
/// ``GridWalk`` of Signals).
///
/// A grid point is masked when either neighbouring source sample is masked, when it lies before
/// the column's first valid sample, in a gap between segments, or when its value does not fit a
/// `Float`. Every step is per sample, so
/// feeding a stream in blocks of any size gives exactly the same grid as feeding it whole.
///
/// Filter: Butterworth (1930) band-pass in second-order sections (``SOSFilter``), the 0.4–4 Hz
/// heart-rate band of Temko (2017), "Accurate heart rate monitoring during physical exercises
/// using PPG", IEEE TBME 64(9):2016–2024, doi:10.1109/TBME.2017.2676243.
struct PPGGridChannel {
    /// Grid rate, Hz.
    static let gridRate = 25.0
    /// Masking flags of the PPG analysis: missing, saturated, invalid and `unreliableNoise`.
    static let masking = SampleFlags.maskingFlags.rawValue | SampleFlags.unreliableNoise.rawValue

    /// Grid values from grid index ``base``.
    var values: [Float] = []
    /// Whether each grid value is masked.
    var masked: [Bool] = []
    /// The unfiltered (held) values on the grid, when ``keepsRaw`` (for the perfusion index).
    var raw: [Float] = []
    /// Whether ``raw`` is kept.
    var keepsRaw = false
    /// The grid points that hold data, as ascending runs of grid indices: points between two
    /// samples of one segment (masked or not), not the masked padding of a gap or before a
    /// segment's first sample. One run per segment (trimmed with the values), so a window
    /// without data is recognised in O(runs after it) (``holdsData(start:count:)``).
    private(set) var dataRuns: [Range<Int>] = []
    /// Grid index of `values[0]`.
    var base = 0
    /// The walk over the grid (shared ``GridWalk``: grid point `n` at `origin + n · (1 / gridRate)`);
    /// `nil` until the origin is known.
    private var walk: GridWalk?
    /// Next grid index to produce.
    var next: Int { walk?.next ?? 0 }
    /// Grid origin (time of grid index 0), seconds; `nil` until known. Setting it starts the grid.
    var origin: Double? {
        get { walk?.grid.origin }
        set { walk = newValue.map { GridWalk(grid: ClockGrid(step: 1 / Self.gridRate, origin: $0), next: next) } }
    }

    private var bandPass: PPGHeldBandPass?
    private let band: FilterBand
    private var rate = 0.0
    private var segment = -1
    private var prevTime = -Double.infinity
    private var prevValue = 0.0
    private var prevRaw = 0.0
    private var prevMasked = true
    private var started = false
    /// Whether ``startLate(at:)`` has placed the channel (at its first block).
    private var placed = false

    /// Creates a channel filtered to `band`.
    init(band: FilterBand = .bandPass(low: heartRateBand.low, high: heartRateBand.high)) { self.band = band }

    /// Edges of the default band, Hz.
    static let heartRateBand = (low: 0.4, high: 4.0)

    /// Power gain `|H(f)|²` of the default band-pass (order-2 Butterworth band-pass, fourth
    /// order overall) at `hz`, from the analog prototype
    /// `1 / (1 + ((f² − f_l·f_h) / (f·(f_h − f_l)))^4)`. The digital filter (bilinear
    /// transform) at 125 Hz, SPC 2015's rate, differs from it by under 4 % up to 7.3 Hz
    /// (checked against SciPy's `sosfreqz`); at source rates near the grid's 25 Hz the warping
    /// close to 12.5 Hz makes it a rougher approximation there.
    static func bandPowerGain(_ hz: Double) -> Double {
        let (lo, hi) = heartRateBand
        let x = (hz * hz - lo * hi) / (hz * (hi - lo))
        return 1 / (1 + x * x * x * x)
    }

    /// Feeds one block's column. `sampleRate` is the source rate (Hz) the filter is designed
    /// for; a new segment restarts the filter.
    /// - Complexity: O(block length · sections).
    mutating func consume(_ column: [Float], flags: [UInt8], block: SampleBlock, sampleRate: Double) {
        guard var walk else { return }
        defer { self.walk = walk }
        if block.segment != segment {
            segment = block.segment
            started = false
            prevTime = -.infinity
            if rate != sampleRate || bandPass == nil {
                rate = sampleRate
                bandPass = (try? ButterworthDesign(order: 2, band: band, sampleRate: sampleRate)).map { PPGHeldBandPass($0.sos) }
            } else {
                bandPass?.reset()
            }
        }
        guard bandPass != nil else { return }
        // Masked samples hold the last valid value; samples before the segment's first valid
        // one are not filtered.
        let first = column.withUnsafeBufferPointer { c in
            flags.withUnsafeBufferPointer { f in bandPass!.process(c, flags: f, masking: Self.masking) }
        }
        guard first >= 0 else { return }
        // The loop keeps the interpolation state in locals and reads the block through raw
        // pointers; only grid points (one per five source samples at 125 Hz) touch `self`.
        var uniformStart = 0.0, uniformRate = 0.0
        var explicitTimes: [Double] = []
        switch block.time {
        case .uniform(let s, let r): (uniformStart, uniformRate) = (s, r)
        case .explicit(let t): explicitTimes = t
        }
        let isUniform = explicitTimes.isEmpty
        let firstSample = block.firstSample
        var prevTime = self.prevTime, prevValue = self.prevValue, prevRaw = self.prevRaw, prevMasked = self.prevMasked
        var started = self.started
        let heldValues = bandPass!.held, filteredValues = bandPass!.filtered
        column.withUnsafeBufferPointer { col in
            flags.withUnsafeBufferPointer { fl in
                heldValues.withUnsafeBufferPointer { hv in
                    filteredValues.withUnsafeBufferPointer { fv in
                        explicitTimes.withUnsafeBufferPointer { et in
                            for i in first..<col.count {
                                let t = isUniform ? uniformStart + Double(firstSample + i) / uniformRate : et[i]
                                let isMasked = fl[i] & Self.masking != 0 || !col[i].isFinite
                                let y = fv[i - first]
                                let r = hv[i - first]
                                if !started {
                                    // Grid points before the segment's first valid sample are masked.
                                    walk.advance(before: t) { k, _ in push(k, 0, raw: 0, masked: true, data: false) }
                                    started = true
                                } else {
                                    walk.advance(through: t) { k, g, _ in
                                        if g < prevTime {
                                            push(k, 0, raw: 0, masked: true, data: false)
                                        } else {
                                            let span = t - prevTime
                                            let f = span > 0 ? (g - prevTime) / span : 1
                                            let v = Float(prevValue + f * (y - prevValue)), rv = Float(prevRaw + f * (r - prevRaw))
                                            // A value beyond Float's range (an input near 3.4e38 and
                                            // the filter's overshoot) is masked, not carried as inf.
                                            push(
                                                k, v, raw: rv, masked: prevMasked || isMasked || !v.isFinite || !rv.isFinite,
                                                data: true)
                                        }
                                    }
                                }
                                prevTime = t
                                prevValue = y
                                prevRaw = r
                                prevMasked = isMasked
                            }
                        }
                    }
                }
            }
        }
        self.prevTime = prevTime
        self.prevValue = prevValue
        self.prevRaw = prevRaw
        self.prevMasked = prevMasked
        self.started = started
    }

    /// Pushes masked grid points until ``next`` reaches `index` (the end of the data before a
    /// gap that is stepped over).
    /// - Complexity: O(points pushed).
    mutating func padMasked(to index: Int) {
        guard var walk else { return }
        while walk.next < index {
            push(walk.next, 0, raw: 0, masked: true, data: false)
            walk.next += 1
        }
        self.walk = walk
    }

    /// Starts a grid that holds nothing yet at the grid point of `time` (its first sample):
    /// the points before it are missing for every window and are not stored.
    /// - Complexity: O(1).
    mutating func startLate(at time: Double) {
        // Only the channel's first block places it: a channel whose samples are all masked never
        // starts, and moving it at every block would make the windows depend on the block size.
        guard !placed, time.isFinite else { return }
        placed = true
        guard let origin, values.isEmpty, !started else { return }
        let k = Int(((time - origin) * Self.gridRate).rounded(.down))
        if k > next { jump(to: k) }
    }

    /// Grid points of `[start, start + count)` held (produced and not trimmed), masked or not:
    /// an upper bound of the window's unmasked points.
    /// - Complexity: O(1).
    func held(start: Int, count: Int) -> Int {
        max(0, min(start + count, base + values.count) - max(start, base))
    }

    /// Moves the grid to `index` across a gap (`index` ≥ ``next``): held values are dropped
    /// (every window that needed them is computed) and grid points before `index` are never
    /// held. The interpolation state is kept: the next segment restarts it as before.
    /// - Complexity: O(1) (amortised, releasing the held values).
    mutating func jump(to index: Int) {
        guard index > next, walk != nil else { return }
        values.removeAll(keepingCapacity: true)
        masked.removeAll(keepingCapacity: true)
        raw.removeAll(keepingCapacity: true)
        dataRuns.removeAll(keepingCapacity: true)
        base = index
        walk?.next = index
    }

    /// Stores grid point `k` (the walk's next point) unless it lies before ``base``; `data`:
    /// whether it lies between two samples of a segment (``dataRuns``).
    private mutating func push(_ k: Int, _ v: Float, raw r: Float, masked m: Bool, data: Bool) {
        if k >= base {
            values.append(v)
            masked.append(m)
            if keepsRaw { raw.append(r) }
            if data {
                if let last = dataRuns.last, last.upperBound == k {
                    dataRuns[dataRuns.count - 1] = last.lowerBound..<k + 1
                } else {
                    dataRuns.append(k..<k + 1)
                }
            }
        }
    }

    /// Whether any grid point of `[start, start + count)` holds data (``dataRuns``): a window
    /// without one lies in a gap or before the channel's first sample.
    /// - Complexity: O(runs ending after `start`).
    func holdsData(start: Int, count: Int) -> Bool {
        let end = start + count
        for r in dataRuns.reversed() {
            if r.upperBound <= start { return false }
            if r.lowerBound < end { return true }
        }
        return false
    }

    /// Allows dropping grid values before grid index `index`. They are dropped once they are
    /// at least half of the values held (and at least 4096), so each value is moved at most
    /// about once: a window step trims a few values, and removing them from the front at every
    /// step cost O(values held) per step (a 64-k-sample block holds over 12 000 grid values).
    /// - Complexity: amortised O(values dropped).
    mutating func trim(before index: Int) {
        guard index > base else { return }
        let drop = min(index - base, values.count)
        guard drop >= 4096 && 2 * drop >= values.count else { return }
        values.removeFirst(drop)
        masked.removeFirst(drop)
        if keepsRaw { raw.removeFirst(drop) }
        base += drop
        if let stale = dataRuns.firstIndex(where: { $0.upperBound > base }) {
            dataRuns.removeFirst(stale)
        } else {
            dataRuns.removeAll(keepingCapacity: true)
        }
    }

    /// Whether the held input is constant over the unmasked grid points of `[start, start + count)`
    /// (needs ``keepsRaw``). A constant input has no pulse: its band-passed values are only the
    /// filter's rounding residue (about 1e-14 of the level for a flat line), which a spectrum
    /// normalised to its peak would turn into a confident heart rate.
    /// - Complexity: O(count).
    func isConstant(start: Int, count: Int) -> Bool {
        precondition(keepsRaw, "PPG grid: the constant-input test needs the raw values")
        var first: Float?
        for j in 0..<count {
            let k = start + j - base
            guard k >= 0 && k < values.count && !masked[k] && k < raw.count else { continue }
            if let f = first {
                if raw[k] != f { return false }
            } else {
                first = raw[k]
            }
        }
        return true
    }

    /// Copies grid points `[start, start + count)` into `out` (masked or not yet produced points
    /// as 0) and returns how many of them are masked or missing.
    /// - Complexity: O(count).
    func window(start: Int, count: Int, into out: inout [Float]) -> Int {
        var missing = 0
        for j in 0..<count {
            let k = start + j - base
            if k >= 0 && k < values.count && !masked[k] {
                out[j] = values[k]
            } else {
                out[j] = 0
                missing += 1
            }
        }
        return missing
    }
}
