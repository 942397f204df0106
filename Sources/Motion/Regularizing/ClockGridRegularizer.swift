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
/// point), as in GGIR's resampling (van Hees et al. 2013, "Separating movement and gravity
/// components in an acceleration signal and implications for the assessment of human daily
/// physical activity", PLoS ONE 8(4):e61691, doi:10.1371/journal.pone.0061691). Nothing is
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

    private var segment = -1
    private var hasPrevious = false
    private var previousTime = 0.0
    private var px: Float = 0, py: Float = 0, pz: Float = 0
    private var nextIndex = 0
    private var outFirst = 0
    private var ox: [Float] = [], oy: [Float] = [], oz: [Float] = []
    /// Input samples seen (masked included).
    private(set) var inputSamples = 0
    /// Grid points produced.
    private(set) var gridSamples = 0
    /// Grid points whose value was interpolated (not an input sample on the grid point).
    private(set) var interpolatedSamples = 0
    /// Runs ended by an interval longer than the maximum gap.
    private(set) var gapsSkipped = 0
    /// Input samples dropped: masked or non-finite values, or times going backwards.
    private(set) var droppedSamples = 0

    init(sampleRate: Double) {
        precondition(sampleRate > 0 && sampleRate.isFinite)
        self.sampleRate = sampleRate
    }

    /// Regularises one block of the stream (blocks in order), handing grid runs to `consumer`.
    /// `scale` converts the input unit to g.
    mutating func process<C: GridConsumer>(_ block: SampleBlock, scale: Float, into consumer: inout C) {
        if block.segment != segment {
            if hasPrevious { flush(into: &consumer, endRun: true) }
            segment = block.segment
            hasPrevious = false
        }
        let rate = sampleRate
        let tolerance = 1e-3
        let maxGap = Self.maximumInterpolationGapSeconds
        let masking = SampleFlags.maskingFlags.rawValue
        let n = block.count
        inputSamples += n
        let cx = block.columns[0], cy = block.columns[1], cz = block.columns[2]
        for i in 0..<n {
            let t = block.time(at: i)
            let x = cx[i] * scale, y = cy[i] * scale, z = cz[i] * scale
            let usable = block.flags[i] & masking == 0 && x.isFinite && y.isFinite && z.isFinite && t.isFinite
            if !usable {
                droppedSamples += 1
                if hasPrevious { flush(into: &consumer, endRun: true) }
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
                    flush(into: &consumer, endRun: true)
                    hasPrevious = false
                }
            }
            if !hasPrevious {
                // A run starts: the first grid point at or after t (within the tolerance).
                let k = Int((t * rate - tolerance).rounded(.up))
                outFirst = k
                nextIndex = k
                if abs(Double(k) - t * rate) <= tolerance {
                    ox.append(x)
                    oy.append(y)
                    oz.append(z)
                    nextIndex = k + 1
                }
            } else {
                let span = t - previousTime
                while true {
                    let gk = Double(nextIndex)
                    let offset = t * rate - gk // grid intervals from the grid point to t
                    if offset < -tolerance { break }
                    if offset <= tolerance {
                        ox.append(x)
                        oy.append(y)
                        oz.append(z)
                    } else {
                        let w = Float((gk / rate - previousTime) / span)
                        ox.append(px + (x - px) * w)
                        oy.append(py + (y - py) * w)
                        oz.append(pz + (z - pz) * w)
                        interpolatedSamples += 1
                    }
                    nextIndex += 1
                }
            }
            hasPrevious = true
            previousTime = t
            px = x
            py = y
            pz = z
        }
        if block.endsSegment {
            if hasPrevious { flush(into: &consumer, endRun: true) }
            hasPrevious = false
        } else {
            flush(into: &consumer, endRun: false)
        }
    }

    /// Ends the stream: hands over what is left.
    mutating func finish<C: GridConsumer>(into consumer: inout C) {
        if hasPrevious { flush(into: &consumer, endRun: true) }
        hasPrevious = false
    }

    private mutating func flush<C: GridConsumer>(into consumer: inout C, endRun: Bool) {
        if !ox.isEmpty {
            gridSamples += ox.count
            ox.withUnsafeBufferPointer { bx in
                oy.withUnsafeBufferPointer { by in
                    oz.withUnsafeBufferPointer { bz in
                        consumer.consume(firstIndex: outFirst, x: bx, y: by, z: bz)
                    }
                }
            }
            outFirst += ox.count
            ox.removeAll(keepingCapacity: true)
            oy.removeAll(keepingCapacity: true)
            oz.removeAll(keepingCapacity: true)
        }
        if endRun { consumer.endRun() }
    }
}
