import Signals

/// Receives the output of a ``ClockGridRegularizer``: runs of consecutive grid points.
protocol GridConsumer {
    /// Grid points `firstIndex …` (time `index / sampleRate`) with their three values.
    mutating func consume(
        firstIndex: Int, x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>)
    /// The run of consecutive grid points ends (a gap, a masked sample, a segment boundary).
    mutating func endRun()
}

/// Puts a three-column stream (irregular or uniform timestamps) onto a uniform grid anchored to
/// the clock: grid point `k` is at time `k / sampleRate` (so 5-s epochs start exactly on a grid
/// point and two streams of one device share their grid).
///
/// Each grid value is the linear interpolation between the two input samples that bracket it
/// (the input value itself when a timestamp lies within 0.1 % of a grid interval of the grid
/// point; the shared ``ClockGrid`` and ``GridWalk`` of Signals), as in GGIR's resampling
/// (van Hees et al. 2013, "Separating movement and gravity components in an acceleration signal
/// and implications for the assessment of human daily physical activity", PLoS ONE 8(4):e61691,
/// doi:10.1371/journal.pone.0061691). Nothing is
/// interpolated across a segment boundary, across an interval longer than
/// ``maximumInterpolationGapSeconds``, or next to a masked or non-finite sample: the run of grid
/// points ends there and a new one starts at the next usable sample.
///
/// Streaming: only the last input sample is carried between blocks, so any split of the input
/// gives the same grid values.
///
/// - Complexity: O(input + output samples) per block; no allocation once the output buffers have
///   grown to the largest block.
struct ClockGridRegularizer {
    /// Grid rate in Hz.
    let sampleRate: Double
    /// The longest interval between two input samples that is interpolated, in s.
    static let maximumInterpolationGapSeconds = 1.0
    /// The largest acceleration on one axis taken as a reading, g: 1000 g, five times the widest
    /// wearable range (±200 g, ADXL372; wrist and hip devices record ±8–16 g). A sample beyond
    /// it (a corrupt value such as ±3.4e38) is dropped and counted (``droppedSamples``),
    /// never interpolated: its square would overflow and empty the day's means
    /// (docs/HARDENING.md, "Outliers").
    static let maximumAxisG: Float = 1000

    private var segment = -1
    private var hasPrevious = false
    private var previousTime = 0.0
    private var px: Float = 0, py: Float = 0, pz: Float = 0
    /// The clock grid (point `k` at `k / sampleRate`) and its next index: the shared
    /// ``GridWalk``, snapping input times within 0.1 % of a grid interval onto the grid point.
    private var walk: GridWalk
    /// `walk.next` as `quotient · R + remainder` (0 ≤ remainder < R) for an integral rate R
    /// (``GridTimes``); without a table the quotient stays `Int.min` (grid times by division).
    private var nextQuotient = Int.min, nextRemainder = 0
    private let gridTimes: GridTimes?
    private var outFirst = 0
    /// Grid points of the current run not yet handed over (at most ``runBufferCapacity``; a full
    /// buffer is handed over as part of the run, which consumers treat like any other split).
    /// Starts at ``initialRunBufferCapacity`` and grows with the blocks (up to
    /// ``runBufferCapacity``): a stream of a few samples holds a few KB, not 192 KB (10,000
    /// five-sample devices reserved 1.9 GB of address space).
    private var out = GridRunBuffer(capacity: Self.initialRunBufferCapacity)
    private var outCount = 0
    private var uniformTimes: [Double] = []
    /// Input samples seen (masked included).
    private(set) var inputSamples = 0
    /// Grid points produced.
    private(set) var gridSamples = 0
    /// Grid points whose value was interpolated (not an input sample on a grid point).
    private(set) var interpolatedSamples = 0
    /// Runs ended by an interval longer than the maximum gap.
    private(set) var gapsSkipped = 0
    /// Input samples dropped: masked, non-finite or beyond ±``maximumAxisG`` values, or times
    /// going backwards.
    private(set) var droppedSamples = 0

    /// Grid points handed over at most per call of the consumer.
    static let runBufferCapacity = 16_384
    /// The run buffer's first capacity, grid points.
    static let initialRunBufferCapacity = 256

    init(sampleRate: Double) {
        precondition(sampleRate > 0 && sampleRate.isFinite)
        self.sampleRate = sampleRate
        walk = GridWalk(grid: ClockGrid(sampleRate: sampleRate), snap: Self.snapTolerance)
        gridTimes = walk.grid.table
    }

    /// Input times within this many grid intervals of a grid point are on it.
    static let snapTolerance = 1e-3

    /// Sets the quotient and remainder of `walk.next` by the rate.
    private mutating func divideNext() {
        if let g = gridTimes { (nextQuotient, nextRemainder) = g.divide(walk.next) }
    }

    /// Regularises one block of the stream (blocks in order), handing grid runs to `consumer`.
    /// `scale` converts the input unit to g.
    mutating func process<C: GridConsumer>(_ block: SampleBlock, scale: Float, into consumer: inout C) {
        if block.segment != segment {
            if hasPrevious { flush(into: &consumer, endRun: true) }
            segment = block.segment
            hasPrevious = false
        }
        let n = block.count
        inputSamples += n
        if out.capacity < Self.runBufferCapacity && 2 * n > out.capacity {
            // Grow the run buffer with the blocks, keeping the pending run.
            var c = out.capacity
            while c < 2 * n && c < Self.runBufferCapacity { c *= 2 }
            let bigger = GridRunBuffer(capacity: min(c, Self.runBufferCapacity))
            bigger.x.update(from: out.x, count: outCount)
            bigger.y.update(from: out.y, count: outCount)
            bigger.z.update(from: out.z, count: outCount)
            out = bigger
        }
        guard n > 0 else {
            if block.endsSegment {
                if hasPrevious { flush(into: &consumer, endRun: true) }
                hasPrevious = false
            }
            return
        }
        let times: [Double]
        switch block.time {
        case .explicit(let t): times = t
        case .uniform:
            if uniformTimes.count != n { uniformTimes = [Double](repeating: 0, count: n) }
            for i in 0..<n { uniformTimes[i] = block.time(at: i) }
            times = uniformTimes
        }
        times.withUnsafeBufferPointer { t in
            block.columns[0].withUnsafeBufferPointer { cx in
                block.columns[1].withUnsafeBufferPointer { cy in
                    block.columns[2].withUnsafeBufferPointer { cz in
                        block.flags.withUnsafeBufferPointer { flags in
                            run(times: t, cx, cy, cz, flags: flags, scale: scale, into: &consumer)
                        }
                    }
                }
            }
        }
        if block.endsSegment {
            if hasPrevious { flush(into: &consumer, endRun: true) }
            hasPrevious = false
        } else {
            flush(into: &consumer, endRun: false)
        }
    }

    private mutating func run<C: GridConsumer>(
        times: UnsafeBufferPointer<Double>, _ cx: UnsafeBufferPointer<Float>, _ cy: UnsafeBufferPointer<Float>,
        _ cz: UnsafeBufferPointer<Float>, flags: UnsafeBufferPointer<UInt8>, scale: Float, into consumer: inout C
    ) {
        let rate = sampleRate
        let tolerance = Self.snapTolerance
        let maxGap = Self.maximumInterpolationGapSeconds
        let masking = SampleFlags.maskingFlags.rawValue
        let ox = out.x, oy = out.y, oz = out.z
        let capacity = out.capacity
        var count = outCount
        var interpolated = 0
        let fractions = gridTimes?.fractions ?? []
        let period = gridTimes?.rate ?? 1
        for i in 0..<times.count {
            let t = times[i]
            let x = cx[i] * scale, y = cy[i] * scale, z = cz[i] * scale
            // A value beyond ±maximumAxisG is no acceleration (and its square overflows Float):
            // dropped like a non-finite one, so it ends the run and stays local to its epoch.
            let m = Self.maximumAxisG
            let usable = flags[i] & masking == 0 && abs(x) <= m && abs(y) <= m && abs(z) <= m && t.isFinite
            if !usable {
                droppedSamples += 1
                if hasPrevious {
                    outCount = count
                    flush(into: &consumer, endRun: true)
                    count = 0
                }
                hasPrevious = false
                continue
            }
            if hasPrevious {
                if t <= previousTime {
                    droppedSamples += 1
                    continue
                }
                if t - previousTime > maxGap {
                    gapsSkipped += 1
                    outCount = count
                    flush(into: &consumer, endRun: true)
                    count = 0
                    hasPrevious = false
                }
            }
            if !hasPrevious {
                // A run starts: the first grid point at or after t (within the tolerance).
                let onGrid = walk.startRun(at: t)
                outFirst = walk.next
                if onGrid {
                    ox[count] = x
                    oy[count] = y
                    oz[count] = z
                    count += 1
                    walk.next += 1
                }
                divideNext()
            } else {
                let span = t - previousTime
                let (qx, qy, qz) = (px, py, pz)
                /// Grid point `j` of the buffer at fraction `w` of the way from the previous sample.
                @inline(__always) func interpolate(_ j: Int, _ w: Float) {
                    ox[j] = qx + (x - qx) * w
                    oy[j] = qy + (y - qy) * w
                    oz[j] = qz + (z - qz) * w
                }
                let next = walk.next
                let g0 = Double(next), g1 = Double(next + 1), g2 = Double(next + 2)
                let o0 = t * rate - g0, o1 = t * rate - g1
                let quotient = nextQuotient, remainder = nextRemainder
                if t * rate - g2 < -tolerance && abs(o0) > tolerance && abs(o1) > tolerance && count + 2 <= capacity
                    && GridTimes.exact.contains(quotient)
                {
                    // The usual case: at most two grid points up to t, neither on t, and room for
                    // two. Both candidates are interpolated and written, and the run advances by
                    // how many are due: the same values as the loop below, without its exit
                    // branch, which jittered timestamps make unpredictable (0, 1 or 2 points per
                    // sample at random). The grid times g / rate come from the table (GridTimes).
                    let times = Double(quotient) + SIMD2(fractions[remainder], fractions[remainder + 1])
                    let w = SIMD2<Float>((times - previousTime) / span)
                    interpolate(count, w[0])
                    interpolate(count + 1, w[1])
                    let due = (o0 < -tolerance ? 0 : 1) + (o1 < -tolerance ? 0 : 1)
                    interpolated += due
                    count += due
                    walk.next = next + due
                    let r = remainder + due
                    nextQuotient = r >= period ? quotient + 1 : quotient
                    nextRemainder = r >= period ? r - period : r
                } else {
                    // Any other interval: the shared walk, one grid point at a time.
                    while let p = walk.nextDue(through: t) {
                        if count == capacity {
                            outCount = count
                            flush(into: &consumer, endRun: false)
                            count = 0
                        }
                        if p.onSample {
                            ox[count] = x
                            oy[count] = y
                            oz[count] = z
                        } else {
                            interpolate(count, Float((p.time - previousTime) / span))
                            interpolated += 1
                        }
                        count += 1
                    }
                    divideNext()
                }
            }
            hasPrevious = true
            previousTime = t
            px = x
            py = y
            pz = z
        }
        outCount = count
        interpolatedSamples += interpolated
    }

    /// Ends the stream: hands over what is left.
    mutating func finish<C: GridConsumer>(into consumer: inout C) {
        if hasPrevious { flush(into: &consumer, endRun: true) }
        hasPrevious = false
    }

    private mutating func flush<C: GridConsumer>(into consumer: inout C, endRun: Bool) {
        if outCount > 0 {
            let n = outCount
            gridSamples += n
            consumer.consume(
                firstIndex: outFirst, x: UnsafeBufferPointer(start: out.x, count: n),
                y: UnsafeBufferPointer(start: out.y, count: n), z: UnsafeBufferPointer(start: out.z, count: n))
            outFirst += n
            outCount = 0
        }
        if endRun { consumer.endRun() }
    }
}

/// Three `Float` buffers of a fixed capacity, freed with their owner (one owner at a time: the
/// regulariser that made it; hence the unchecked `Sendable`).
final class GridRunBuffer: @unchecked Sendable {
    let capacity: Int
    let x: UnsafeMutablePointer<Float>
    let y: UnsafeMutablePointer<Float>
    let z: UnsafeMutablePointer<Float>

    init(capacity: Int) {
        self.capacity = capacity
        x = .allocate(capacity: capacity)
        y = .allocate(capacity: capacity)
        z = .allocate(capacity: capacity)
    }

    deinit {
        x.deallocate()
        y.deallocate()
        z.deallocate()
    }
}
