import DSP
import Foundation

/// Turns runs of grid samples (g) into clock-aligned ``MotionEpoch``s: acceleration metrics,
/// ActiGraph counts and steps. Epochs are handed out in time order once nothing can change them
/// any more (counts lag 0.1 s, steps at most a bout's length).
///
/// - Complexity: O(1) amortised per grid sample; memory O(epoch length + block size).
struct EpochProcessor: GridConsumer {
    let sampleRate: Int
    let samplesPerEpoch: Int
    /// The epochs on the grid, aligned to the clock (epoch `e` holds grid points
    /// `e · samplesPerEpoch ..< (e + 1) · samplesPerEpoch`).
    let epochs: WindowCutter<Int>
    let epochSeconds: Double
    let options: MotionOptions

    private var highPass: [SOSFilter<Float>]
    private var bandPass: [SOSFilter<Float>]?
    private let countsEnabled: Bool
    private var countsX: ActiGraphCountsAxis
    private var countsY: ActiGraphCountsAxis
    private var countsZ: ActiGraphCountsAxis
    /// The three-axis stage at 30, 40, …, 100 Hz (the per-axis stages serve the 256 Hz path).
    private var countsTriad: ActiGraphCountsTriad?
    private var countsRunStart = 0
    private var tenHzIndex = 0
    private let tenHzStride: Int
    private var stepDetector: StepDetector
    /// Non-wear per 15-min block (van Hees et al. 2013); drain ``NonWearDetector/decided``.
    var nonWear: NonWearDetector
    private var nextIndex: Int? = nil

    private var hx: [Float] = [], hy: [Float] = [], hz: [Float] = []
    private var bx: [Float] = [], by: [Float] = [], bz: [Float] = []
    private var magnitude: [Float] = []
    private var cx: [Float] = [], cy: [Float] = [], cz: [Float] = []
    /// The accepted auto-calibration applied to the acceleration metrics, or `nil`.
    let calibration: CalibrationResult?

    /// The epoch whose samples are arriving.
    private struct Sums {
        var index = Int.min
        var n = 0
        var enmo = 0.0, vm = 0.0, hfen = 0.0, bfen = 0.0
        var sx = 0.0, sy = 0.0, sz = 0.0
    }
    private var current = Sums()
    private var currentMagnitudes: [Float] = []

    /// Epochs whose samples are complete, waiting for counts and steps.
    private struct Pending {
        var index: Int
        var epoch: MotionEpoch
        var cx = 0, cy = 0, cz = 0
        var steps = 0
    }
    private var pending: [Pending] = []

    /// Final epochs, drained by the caller.
    var finished: [MotionEpoch] = []

    init(sampleRate: Int, options: MotionOptions, calibration: CalibrationResult? = nil) {
        self.sampleRate = sampleRate
        self.calibration = calibration?.accepted == true ? calibration : nil
        self.options = options
        epochSeconds = options.epochSeconds.rounded()
        samplesPerEpoch = sampleRate * Int(epochSeconds)
        epochs = WindowCutter(length: samplesPerEpoch, step: samplesPerEpoch, origin: 0)
        let rate = Double(sampleRate)
        let hp =
            (try? ButterworthDesign(order: 4, band: .highPass(cutoff: 0.2), sampleRate: rate).sos) ?? SOS(sections: [])
        highPass = Array(repeating: SOSFilter(hp, initialization: .steadyState), count: 3)
        if 15 < rate / 2, let bp = try? ButterworthDesign(order: 4, band: .bandPass(low: 0.2, high: 15), sampleRate: rate).sos {
            bandPass = Array(repeating: SOSFilter(bp, initialization: .steadyState), count: 3)
        }
        let axis = ActiGraphCountsAxis(sampleRate: sampleRate)
        countsEnabled = axis != nil
        countsX = axis ?? ActiGraphCountsAxis(sampleRate: 30)!
        countsY = countsX
        countsZ = countsX
        countsTriad = ActiGraphCountsTriad(sampleRate: sampleRate)
        tenHzStride = max(sampleRate / 10, 1)
        stepDetector = StepDetector(sampleRate: rate)
        nonWear = NonWearDetector(sampleRate: sampleRate)
        currentMagnitudes.reserveCapacity(samplesPerEpoch)
    }

    mutating func consume(
        firstIndex: Int, x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>
    ) {
        let n = x.count
        guard n > 0 else { return }
        guard let c = calibration else {
            process(firstIndex: firstIndex, x: x, y: y, z: z, rawX: x, rawY: y, rawZ: z)
            return
        }
        if cx.count < n {
            cx = [Float](repeating: 0, count: n)
            cy = cx
            cz = cx
        }
        let (ox, oy, oz) = (Float(c.offsetG.x), Float(c.offsetG.y), Float(c.offsetG.z))
        let (sx, sy, sz) = (Float(c.scale.x), Float(c.scale.y), Float(c.scale.z))
        cx.withUnsafeMutableBufferPointer { bx in
            cy.withUnsafeMutableBufferPointer { by in
                cz.withUnsafeMutableBufferPointer { bz in
                    for i in 0..<n {
                        bx[i] = (x[i] + ox) * sx
                        by[i] = (y[i] + oy) * sy
                        bz[i] = (z[i] + oz) * sz
                    }
                }
            }
        }
        let copies = (cx, cy, cz)
        copies.0.withUnsafeBufferPointer { bx in
            copies.1.withUnsafeBufferPointer { by in
                copies.2.withUnsafeBufferPointer { bz in
                    process(
                        firstIndex: firstIndex, x: UnsafeBufferPointer(rebasing: bx[0..<n]),
                        y: UnsafeBufferPointer(rebasing: by[0..<n]), z: UnsafeBufferPointer(rebasing: bz[0..<n]), rawX: x,
                        rawY: y, rawZ: z)
                }
            }
        }
    }

    /// Epoch metrics, non-wear and steps from `x`, `y`, `z` (calibrated when a calibration was
    /// accepted); ActiGraph counts from the raw values, as ActiLife computes them.
    private mutating func process(
        firstIndex: Int, x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>,
        rawX: UnsafeBufferPointer<Float>, rawY: UnsafeBufferPointer<Float>, rawZ: UnsafeBufferPointer<Float>
    ) {
        let n = x.count
        if nextIndex == nil { countsRunStart = firstIndex }
        precondition(nextIndex == nil || nextIndex == firstIndex, "grid run not contiguous")
        nextIndex = firstIndex + n
        if hx.count < n {
            for buffer in [\Self.hx, \Self.hy, \Self.hz, \Self.bx, \Self.by, \Self.bz, \Self.magnitude] {
                self[keyPath: buffer] = [Float](repeating: 0, count: n)
            }
        }
        filter(x, y, z, count: n)
        var i = 0
        while i < n {
            // One stretch of samples within one epoch: the sums run over locals.
            let k0 = firstIndex + i
            let e = epochs.window(containing: k0)
            if e != current.index { closeSamples(newIndex: e) }
            let end = min(n, i + (epochs.end(of: e) - k0))
            nonWear.add(firstIndex: k0, x.baseAddress! + i, y.baseAddress! + i, z.baseAddress! + i, count: end - i)
            var sums = current
            // One loop for all sums (the band-passed values are zeros without a band; their sum
            // is then not used).
            magnitude.withUnsafeMutableBufferPointer { mag in
                hx.withUnsafeBufferPointer { hx in
                    hy.withUnsafeBufferPointer { hy in
                        hz.withUnsafeBufferPointer { hz in
                            bx.withUnsafeBufferPointer { bx in
                                by.withUnsafeBufferPointer { by in
                                    bz.withUnsafeBufferPointer { bz in
                                        for j in i..<end {
                                            let ax = x[j], ay = y[j], az = z[j]
                                            let vm = (ax * ax + ay * ay + az * az).squareRoot()
                                            mag[j] = vm
                                            sums.vm += Double(vm)
                                            sums.enmo += Double(max(vm - 1, 0))
                                            sums.sx += Double(ax)
                                            sums.sy += Double(ay)
                                            sums.sz += Double(az)
                                            let h0 = hx[j], h1 = hy[j], h2 = hz[j]
                                            sums.hfen += Double((h0 * h0 + h1 * h1 + h2 * h2).squareRoot())
                                            let b0 = bx[j], b1 = by[j], b2 = bz[j]
                                            sums.bfen += Double((b0 * b0 + b1 * b1 + b2 * b2).squareRoot())
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            sums.n += end - i
            current = sums
            magnitude.withUnsafeBufferPointer { currentMagnitudes.append(contentsOf: $0[i..<end]) }
            counts(
                UnsafeBufferPointer(rebasing: rawX[i..<end]), UnsafeBufferPointer(rebasing: rawY[i..<end]),
                UnsafeBufferPointer(rebasing: rawZ[i..<end]))
            i = end
        }
        magnitude.withUnsafeBufferPointer { m in
            stepDetector.process(firstIndex: firstIndex, magnitude: UnsafeBufferPointer(rebasing: m[0..<n]))
        }
        takeSteps()
        let countsResolved = nextIndex! - tenHzStride - 1 - countsX.latencySamples
        release(before: min(countsResolved, stepDetector.earliestUndecided))
    }

    /// ActiGraph counts of raw samples (the three-axis stage at 30, 40, …, 100 Hz, the per-axis
    /// 256 Hz path at 32/64/128/256 Hz); each 10 Hz value goes to the epoch of its first sample.
    private mutating func counts(
        _ rawX: UnsafeBufferPointer<Float>, _ rawY: UnsafeBufferPointer<Float>, _ rawZ: UnsafeBufferPointer<Float>
    ) {
        let rate = sampleRate
        if countsTriad != nil {
            countsTriad!.process(x: rawX, y: rawY, z: rawZ)
            let produced = countsTriad!.outputCount
            guard produced > 0 else { return }
            for j in 0..<produced {
                let v = countsTriad!.output[j]
                let t = countsRunStart + tenHzIndex * rate / 10
                tenHzIndex += 1
                addCounts(at: t, Int(v.x), Int(v.y), Int(v.z))
            }
            return
        }
        guard countsEnabled else { return }
        for i in 0..<rawX.count {
            let vx = countsX.push(Double(rawX[i]))
            let vy = countsY.push(Double(rawY[i]))
            if let vz = countsZ.push(Double(rawZ[i])) {
                let t = countsRunStart + tenHzIndex * rate / 10
                tenHzIndex += 1
                addCounts(at: t, Int(vx ?? 0), Int(vy ?? 0), Int(vz))
            }
        }
    }

    private mutating func filter(
        _ x: UnsafeBufferPointer<Float>, _ y: UnsafeBufferPointer<Float>, _ z: UnsafeBufferPointer<Float>, count n: Int
    ) {
        let inputs = [x, y, z]
        var filters = highPass
        hx.withUnsafeMutableBufferPointer { o in filters[0].process(inputs[0].baseAddress!, into: o.baseAddress!, count: n) }
        hy.withUnsafeMutableBufferPointer { o in filters[1].process(inputs[1].baseAddress!, into: o.baseAddress!, count: n) }
        hz.withUnsafeMutableBufferPointer { o in filters[2].process(inputs[2].baseAddress!, into: o.baseAddress!, count: n) }
        highPass = filters
        if var band = bandPass {
            bx.withUnsafeMutableBufferPointer { o in band[0].process(inputs[0].baseAddress!, into: o.baseAddress!, count: n) }
            by.withUnsafeMutableBufferPointer { o in band[1].process(inputs[1].baseAddress!, into: o.baseAddress!, count: n) }
            bz.withUnsafeMutableBufferPointer { o in band[2].process(inputs[2].baseAddress!, into: o.baseAddress!, count: n) }
            bandPass = band
        }
    }

    mutating func endRun() {
        for a in 0..<3 { highPass[a].reset() }
        if bandPass != nil { for a in 0..<3 { bandPass![a].reset() } }
        if countsEnabled {
            let (fx, fy, fz) = (countsX.flush(), countsY.flush(), countsZ.flush())
            for i in 0..<fz.count {
                addCounts(at: countsRunStart + tenHzIndex * sampleRate / 10, Int(fx[i]), Int(fy[i]), Int(fz[i]))
                tenHzIndex += 1
            }
        }
        countsX.reset()
        countsY.reset()
        countsZ.reset()
        countsTriad?.reset()
        tenHzIndex = 0
        stepDetector.endRun()
        takeSteps()
        if let end = nextIndex { release(before: end) }
        nextIndex = nil
    }

    /// Ends the stream: every epoch is final.
    mutating func finish() {
        if nextIndex != nil { endRun() }
        closeSamples(newIndex: Int.max)
        release(before: Int.max)
        nonWear.finish()
    }

    private mutating func takeSteps() {
        guard !stepDetector.steps.isEmpty else { return }
        for k in stepDetector.steps {
            let e = epochs.window(containing: k)
            if let p = pendingPosition(e) { pending[p].steps += 1 } else if e == current.index { currentSteps += 1 }
        }
        stepDetector.steps.removeAll(keepingCapacity: true)
    }

    private var currentSteps = 0
    private var currentCounts = (0, 0, 0)

    private mutating func addCounts(at k: Int, _ cx: Int, _ cy: Int, _ cz: Int) {
        let e = epochs.window(containing: k)
        if e == current.index {
            currentCounts.0 += cx
            currentCounts.1 += cy
            currentCounts.2 += cz
        } else if let p = pendingPosition(e) {
            pending[p].cx += cx
            pending[p].cy += cy
            pending[p].cz += cz
        }
    }

    private func pendingPosition(_ e: Int) -> Int? {
        var i = pending.count - 1
        while i >= 0 {
            if pending[i].index == e { return i }
            if pending[i].index < e { return nil }
            i -= 1
        }
        return nil
    }

    /// The sample metrics of the current epoch are complete: move it to the pending list.
    private mutating func closeSamples(newIndex: Int) {
        if current.index != Int.min && current.n > 0 {
            let n = Double(current.n)
            let full = Double(samplesPerEpoch)
            var epoch = MotionEpoch(
                startSeconds: Double(current.index) * epochSeconds, lengthSeconds: epochSeconds, samples: current.n,
                coverage: n / full, steps: 0)
            if current.n * 2 >= samplesPerEpoch {
                let meanVM = current.vm / n
                var mad = 0.0
                for v in currentMagnitudes { mad += abs(Double(v) - meanVM) }
                epoch.enmoMilliG = current.enmo / n * 1000
                epoch.madMilliG = mad / n * 1000
                epoch.hfenMilliG = current.hfen / n * 1000
                epoch.bfenMilliG = bandPass != nil ? current.bfen / n * 1000 : nil
                let mx = current.sx / n, my = current.sy / n, mz = current.sz / n
                let deg = 180 / Double.pi
                epoch.angleXDegrees = atan2(mx, (my * my + mz * mz).squareRoot()) * deg
                epoch.angleYDegrees = atan2(my, (mx * mx + mz * mz).squareRoot()) * deg
                epoch.angleZDegrees = atan2(mz, (mx * mx + my * my).squareRoot()) * deg
                epoch.intensity = options.intensity(enmoMilliG: current.enmo / n * 1000)
                if bandPass == nil { epoch.note = "bfen: grid rate \(sampleRate) Hz has no 15 Hz band edge" }
                if !countsEnabled {
                    epoch.note =
                        (epoch.note.map { $0 + "; " } ?? "")
                        + "counts: grid rate \(sampleRate) Hz is not one of 30, 40, …, 100 Hz or 32, 64, 128, 256 Hz"
                }
            } else {
                epoch.note = "coverage below 50 %"
            }
            pending.append(
                Pending(
                    index: current.index, epoch: epoch, cx: currentCounts.0, cy: currentCounts.1, cz: currentCounts.2,
                    steps: currentSteps))
        }
        current = Sums()
        current.index = newIndex
        currentMagnitudes.removeAll(keepingCapacity: true)
        currentSteps = 0
        currentCounts = (0, 0, 0)
    }

    /// Hands out pending epochs that end at or before grid index `limit` (the counts and steps
    /// are final before it).
    private mutating func release(before limit: Int) {
        var taken = 0
        for p in pending {
            guard p.index == Int.max ? limit == Int.max : epochs.isFinal(p.index, through: limit) else { break }
            var epoch = p.epoch
            epoch.steps = p.steps
            if countsEnabled && epoch.enmoMilliG != nil {
                epoch.countsX = p.cx
                epoch.countsY = p.cy
                epoch.countsZ = p.cz
            }
            finished.append(epoch)
            taken += 1
        }
        if taken > 0 { pending.removeFirst(taken) }
    }
}
