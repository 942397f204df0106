import Signals

/// The motion analysis of one accelerometer stream (three columns in g or m/s²): regularisation
/// onto a clock-aligned grid, epochs with their metrics, counts and steps, a daily summary.
///
/// Feed blocks in order with ``consume(_:)``, drain ``takeEpochs()``, and call ``finish()`` at the
/// end. Results depend on sample times only, never on block sizes.
///
/// - Complexity: O(samples); memory O(block size + epoch length + days).
public struct MotionStreamAnalyzer: Sendable {
    /// Stream key as the tables write it.
    public let streamName: String
    let options: MotionOptions
    let timeOrigin: TimeOrigin
    let scale: Float
    private let declaredRate: Double?

    private var held: [SampleBlock] = []
    private var heldSamples = 0
    private var regularizer: ClockGridRegularizer?
    private var processor: EpochProcessor?
    private var calibrationPass: CalibrationPass?
    private var sleep: SleepDetector?
    private var readyNights: [MotionNight] = []
    private var activity: ActivityAccumulator?
    private var readyRhythm: [MotionRhythm] = []
    /// The auto-calibration of an accelerometer stream, once ``finish()`` has run (`nil` when
    /// calibration is off or the stream is a rotation rate).
    public private(set) var calibration: CalibrationResult?
    private var rotation: RotationEpochProcessor?
    private var pairing: RotationPairing?
    private var heldAcceleration: [SampleBlock] = []
    private var heldAccelerationSamples = 0
    private var accelerationScale: Float = 1
    private var pairedName: String?
    private var readyRotation: [RotationEpoch] = []
    /// Whether the stream is a rotation rate (rad/s) rather than an acceleration.
    public let isRotationRate: Bool
    private var rateSource: String?
    private var days: [Int: MotionDay] = [:]
    private var enmoWeight: [Int: Double] = [:]
    private var epochCount = 0
    private var stepCount = 0
    private var ready: [MotionEpoch] = []
    /// Final epochs waiting for the non-wear decision of their 15-min block.
    private var waiting: [MotionEpoch] = []
    /// Decided blocks (15-min block index → not worn) that waiting epochs may still need.
    private var blockNonWear: [Int: Bool] = [:]
    /// Why the stream cannot be analysed, or `nil`.
    public private(set) var problem: String?
    /// The unit check (gravity at rest); refuses the epochs of a stream whose still periods are
    /// far from 1 g.
    private var gravity = GravityCheck()

    /// Samples held to estimate the rate of a stream that declares none.
    static let rateEstimationSamples = 1024

    /// Creates the analysis of one stream.
    /// - Parameters:
    ///   - streamName: the stream key (``StreamKey/description``).
    ///   - info: the stream's description (three columns in g or m/s²).
    ///   - options: the family's options.
    public init(streamName: String, info: StreamInfo, options: MotionOptions) {
        self.streamName = streamName
        self.options = options
        timeOrigin = info.timeOrigin
        declaredRate = info.nominalSampleRate
        var s: Float = 1
        isRotationRate = info.key.sensor == .rotationRate
        if info.columns.count != 3 {
            problem = "expected 3 columns (x, y, z), found \(info.columns.count)"
        } else if isRotationRate {
            if Set(info.columns.map(\.unit)) != [.radiansPerSecond] { problem = "rotation-rate columns not in rad/s" }
        } else if let g = Self.gravityScale(info) {
            switch options.accelerationUnit {
            case .declared: s = g
            case .g: s = 1
            case .metresPerSecondSquared: s = Float(1 / PhysicalUnit.standardGravityInMetresPerSecondSquared)
            }
        } else {
            let units = Set(info.columns.map(\.unit)).map(\.rawValue).sorted().joined(separator: ", ")
            problem = "acceleration columns in \(units), not g or m/s^2"
        }
        scale = s
    }

    /// Consumes the next block of the stream.
    /// - Complexity: O(block samples).
    public mutating func consume(_ block: SampleBlock) {
        guard problem == nil, block.columns.count == 3 else { return }
        if !isRotationRate {
            let x = block.columns[0], y = block.columns[1], z = block.columns[2]
            for i in 0..<block.count {
                gravity.add(time: block.time(at: i), x: x[i] * scale, y: y[i] * scale, z: z[i] * scale)
            }
        }
        if regularizer == nil {
            held.append(block)
            heldSamples += block.count
            if heldSamples >= Self.rateEstimationSamples || declaredRate != nil || options.gridRateHz > 0 {
                start()
            }
            return
        }
        run(block)
    }

    private mutating func start() {
        let rate: Int
        if options.gridRateHz > 0 {
            rate = Int(options.gridRateHz.rounded())
            rateSource = "option"
        } else if let d = declaredRate, d >= 1 {
            rate = Int(d.rounded())
            rateSource = "declared"
        } else {
            var intervals = [Double]()
            var previous: (segment: Int, time: Double)? = nil
            for b in held {
                for i in 0..<b.count {
                    let t = b.time(at: i)
                    if let p = previous, p.segment == b.segment {
                        let d = t - p.time
                        if d > 0 && d.isFinite { intervals.append(d) }
                    }
                    previous = (b.segment, t)
                }
            }
            intervals.sort()
            guard !intervals.isEmpty else {
                if heldSamples >= Self.rateEstimationSamples { problem = "no increasing timestamps to estimate the rate" }
                return
            }
            let median = intervals[intervals.count / 2]
            rate = max(1, Int((1 / median).rounded()))
            rateSource = "median interval"
        }
        guard rate >= 10 && rate <= 1000 else {
            problem = "grid rate \(rate) Hz outside 10…1000 Hz"
            held = []
            return
        }
        regularizer = ClockGridRegularizer(sampleRate: Double(rate))
        if isRotationRate {
            rotation = RotationEpochProcessor(sampleRate: rate, epochSeconds: options.epochSeconds)
            var p = RotationPairing(sampleRate: rate, accelerationScale: accelerationScale)
            for b in heldAcceleration { p.addAcceleration(b) }
            heldAcceleration = []
            pairing = p
        } else {
            sleep = SleepDetector(epochSeconds: options.epochSeconds.rounded())
            activity = ActivityAccumulator(epochSeconds: options.epochSeconds)
            if options.autoCalibrate {
                calibrationPass = CalibrationPass(sampleRate: rate)
            } else {
                processor = EpochProcessor(sampleRate: rate, options: options)
            }
        }
        let blocks = held
        held = []
        for b in blocks { run(b) }
    }

    private mutating func run(_ block: SampleBlock) {
        if var r = regularizer, var q = rotation, var p = pairing {
            regularizer = nil
            rotation = nil
            pairing = nil
            r.process(block, scale: scale, into: &p.gyroscope)
            p.drain(into: &q, final: false)
            epochCount += q.finished.count
            readyRotation += q.finished
            q.finished.removeAll(keepingCapacity: true)
            regularizer = r
            rotation = q
            pairing = p
            return
        }
        if var r = regularizer, var c = calibrationPass {
            regularizer = nil
            calibrationPass = nil
            r.process(block, scale: scale, into: &c)
            regularizer = r
            calibrationPass = c
            return
        }
        guard var r = regularizer, var p = processor else { return }
        regularizer = nil
        processor = nil
        r.process(block, scale: scale, into: &p)
        regularizer = r
        processor = p
        collect()
    }

    private mutating func collect() {
        guard processor != nil else { return }
        waiting += processor!.finished
        processor!.finished.removeAll(keepingCapacity: true)
        let rate = processor!.sampleRate
        let blockSamples = processor!.nonWear.blockSamples
        if !processor!.nonWear.decided.isEmpty {
            let seconds = Double(rate)
            for b in processor!.nonWear.decided {
                let start = Double(b.firstIndex) / seconds
                let dayIndex = Int((start / 86_400).rounded(.down))
                var d = days[dayIndex] ?? emptyDay(dayIndex)
                if b.nonWear {
                    d.nonWearSeconds += Double(b.samples) / seconds
                } else {
                    d.wearSeconds += Double(b.samples) / seconds
                }
                days[dayIndex] = d
                sleep?.add(blockStart: start, seconds: 900, nonWear: b.nonWear)
                blockNonWear[Self.floorDivide(b.firstIndex, blockSamples)] = b.nonWear
            }
            processor!.nonWear.decided.removeAll(keepingCapacity: true)
        }
        // Epochs whose block is decided: flag non-wear, then count them.
        let limit = processor!.nonWear.decidedBefore
        var taken = 0
        var lastBlock = Int.min
        for e in waiting {
            let k = Int((e.startSeconds * Double(rate)).rounded())
            guard k < limit else { break }
            lastBlock = Self.floorDivide(k, blockSamples)
            var epoch = e
            epoch.nonWear = blockNonWear[lastBlock]
            if epoch.nonWear == true { epoch.intensity = nil }
            record(epoch)
            taken += 1
        }
        if taken > 0 {
            waiting.removeFirst(taken)
            if blockNonWear.count > 8 { blockNonWear = blockNonWear.filter { $0.key >= lastBlock } }
        }
        if sleep != nil {
            sleep!.advance()
            takeSleep()
        }
    }

    static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : (a - b + 1) / b }

    private mutating func takeSleep() {
        guard sleep != nil, !sleep!.finished.isEmpty else { return }
        for (d, r) in sleep!.finished {
            let start = Double(d) * 86_400 + 43_200
            let e = sleep!.epochSeconds
            let minimumWake = options.awakeningMinutes * 60
            let awakenings =
                r.onsetEpoch == nil
                ? nil
                : zip(r.boutEpochs, r.boutEpochs.dropFirst()).filter { Double($1.lowerBound - $0.upperBound) * e >= minimumWake }.count
            var night = MotionNight(
                night: Self.dayLabel(d, origin: timeOrigin), timeBasis: Self.basis(timeOrigin), windowStartSeconds: start,
                validSeconds: r.validSeconds, nonWearSeconds: r.nonWearSeconds, thresholdDegrees: r.threshold,
                onsetSeconds: r.onsetEpoch.map { start + Double($0) * e }, wakeSeconds: r.wakeEpoch.map { start + Double($0) * e },
                sleepSeconds: r.sleepEpochs.map { Double($0) * e }, bouts: r.bouts,
                boutSpans: r.boutEpochs.map {
                    MotionNight.Span(startSeconds: start + Double($0.lowerBound) * e, endSeconds: start + Double($0.upperBound) * e)
                },
                awakenings: awakenings, note: r.note)
            addOutcomes(&night, inactive: r.inactiveRuns, touchingNonWear: r.runTouchesNonWear, epochSeconds: e)
            activity?.add(night: night)
            readyNights.append(night)
        }
        sleep!.finished.removeAll()
    }

    /// The sleep onset latency against the time in bed, the naps, and the rotation rate's
    /// default reason (a rotation-rate stream paired by ``MotionFamily`` fills it in).
    private func addOutcomes(
        _ night: inout MotionNight, inactive: [Range<Int>], touchingNonWear: [Bool], epochSeconds e: Double
    ) {
        guard let onset = night.onsetSeconds, let wake = night.wakeSeconds else { return }
        let start = night.windowStartSeconds
        let bouts = inactive.map {
            MotionNight.Span(startSeconds: start + Double($0.lowerBound) * e, endSeconds: start + Double($0.upperBound) * e)
        }
        let (tib, tibReason) = NightOutcomes.timeInBed(options.timeInBed, windowStart: start)
        night.timeInBed = tib
        if let tib {
            (night.sleepOnsetLatencySeconds, night.latencyNote) = NightOutcomes.latency(bouts: bouts, timeInBed: tib)
        } else {
            night.latencyNote = tibReason
        }
        if options.naps {
            night.napsDetected = true
            let worn = zip(bouts, touchingNonWear).filter { !$0.1 }.map(\.0)
            night.napSpans = NightOutcomes.naps(
                bouts: worn, spt: MotionNight.Span(startSeconds: onset, endSeconds: wake), options: options)
        } else {
            night.napNote = "naps: nap detection off (option naps)"
        }
        night.rotationNote = "rotation_rate: no rotation-rate (gyroscope) stream paired with this accelerometer"
    }

    /// Noon-to-noon windows whose sleep analysis is final, in time order (each handed out once).
    /// - Complexity: O(nights returned).
    public mutating func takeNights() -> [MotionNight] {
        let out = readyNights
        readyNights.removeAll(keepingCapacity: true)
        return out
    }

    private mutating func record(_ e: MotionEpoch) {
        epochCount += 1
        activity?.add(e)
        sleep?.add(epochStart: e.startSeconds, angleZ: e.angleZDegrees)
        stepCount += e.steps
        let dayIndex = Int((e.startSeconds / 86_400).rounded(.down))
        var d = days[dayIndex] ?? emptyDay(dayIndex)
        let seconds = e.coverage * e.lengthSeconds
        d.coveredSeconds += seconds
        d.steps += e.steps
        switch e.intensity {
        case .sedentary?: d.sedentarySeconds += seconds
        case .light?: d.lightSeconds += seconds
        case .moderate?: d.moderateSeconds += seconds
        case .vigorous?: d.vigorousSeconds += seconds
        case nil: break
        }
        if let enmo = e.enmoMilliG, e.nonWear != true {
            let w = enmoWeight[dayIndex] ?? 0
            d.enmoMeanMilliG = ((d.enmoMeanMilliG ?? 0) * w + enmo * Double(e.samples)) / (w + Double(e.samples))
            enmoWeight[dayIndex] = w + Double(e.samples)
        }
        days[dayIndex] = d
        ready.append(e)
    }

    /// The factor from an accelerometer's column unit to g: 1 for g, 1/9.80665 for m/s², `nil`
    /// for anything else (or mixed units).
    private static func gravityScale(_ info: StreamInfo) -> Float? {
        let units = Set(info.columns.map(\.unit))
        if units == [.standardGravity] { return 1 }
        if units == [.metresPerSecondSquared] { return Float(1 / PhysicalUnit.standardGravityInMetresPerSecondSquared) }
        return nil
    }

    /// Pairs a rotation-rate stream with the accelerometer of the same device: its blocks, given
    /// to ``consumeDeviceAcceleration(_:)``, feed the gyroscope-aided gravity estimate and the
    /// turn detector (``RotationEpoch``). Call before the accelerometer's first block (a later
    /// call replaces the pairing); ignored for an accelerometer stream or an accelerometer not in
    /// g or m/s².
    /// - Parameters:
    ///   - name: the accelerometer's stream key (for `motion_streams`).
    ///   - info: the accelerometer's description.
    /// - Returns: whether the pairing was made.
    /// - Complexity: O(1).
    @discardableResult
    public mutating func pair(accelerometer name: String, info: StreamInfo) -> Bool {
        guard isRotationRate, info.columns.count == 3, let g = Self.gravityScale(info) else { return false }
        accelerationScale = g
        pairedName = name
        pairing?.accelerationScale = accelerationScale
        return true
    }

    /// The next block of the paired accelerometer (see ``pair(accelerometer:info:)``).
    /// - Complexity: O(block samples).
    public mutating func consumeDeviceAcceleration(_ block: SampleBlock) {
        guard pairedName != nil, problem == nil, block.columns.count == 3 else { return }
        guard var p = pairing, var q = rotation else {
            // The gyroscope's grid rate is not known yet: hold (bounded).
            heldAcceleration.append(block)
            heldAccelerationSamples += block.count
            while heldAccelerationSamples > Self.maximumHeldAccelerationSamples, heldAcceleration.count > 1 {
                heldAccelerationSamples -= heldAcceleration.removeFirst().count
            }
            return
        }
        pairing = nil
        rotation = nil
        p.addAcceleration(block)
        p.drain(into: &q, final: false)
        epochCount += q.finished.count
        readyRotation += q.finished
        q.finished.removeAll(keepingCapacity: true)
        pairing = p
        rotation = q
    }

    /// Accelerometer samples held for a rotation-rate stream whose rate is not known yet.
    static let maximumHeldAccelerationSamples = 1 << 16

    /// Rotation-rate epochs that became final, in time order (each is handed out once).
    /// - Complexity: O(epochs returned).
    public mutating func takeRotationEpochs() -> [RotationEpoch] {
        let out = readyRotation
        readyRotation.removeAll(keepingCapacity: true)
        return out
    }

    private func emptyDay(_ dayIndex: Int) -> MotionDay {
        MotionDay(
            day: Self.dayLabel(dayIndex, origin: timeOrigin), timeBasis: Self.basis(timeOrigin),
            startSeconds: Double(dayIndex) * 86_400, coveredSeconds: 0,
            wearSeconds: 0, nonWearSeconds: 0, sedentarySeconds: 0, lightSeconds: 0, moderateSeconds: 0,
            vigorousSeconds: 0, enmoMeanMilliG: nil, steps: 0)
    }

    /// Epochs that became final, in time order (each is handed out once).
    /// - Complexity: O(epochs returned).
    public mutating func takeEpochs() -> [MotionEpoch] {
        let out = ready
        ready.removeAll(keepingCapacity: true)
        return out
    }

    /// Ends the stream: the last epochs become final (take them with ``takeEpochs()``).
    /// - Returns: the days in order and the stream's summary.
    /// - Complexity: O(held samples + days), plus the second pass when auto-calibrating.
    public mutating func finish() -> (days: [MotionDay], summary: MotionStreamSummary) {
        var kept = [MotionEpoch]()
        let result = finish { kept += $0 }
        ready = kept
        return result
    }

    /// Ends the stream, handing the epochs of the second pass (auto-calibration) to `handler`
    /// in time order, a few thousand at a time, so they need not all be held.
    /// - Parameter handler: receives every epoch not yet taken, each once, in time order.
    /// - Returns: the days in order and the stream's summary.
    /// - Throws: what `handler` throws.
    /// - Complexity: O(held samples + days), plus the second pass when auto-calibrating.
    public mutating func finish(
        epochs handler: ([MotionEpoch]) throws -> Void
    ) rethrows -> (days: [MotionDay], summary: MotionStreamSummary) {
        if regularizer == nil && problem == nil && !held.isEmpty { start() }
        if !isRotationRate, problem == nil, let implausible = gravity.finish() {
            // With auto-calibration the epochs (its second pass) are not computed: their ENMO and
            // intensity would be false. Without it they are out already: the warning says so.
            problem = implausible + (calibrationPass != nil ? "; no epochs written" : "; the epochs written are not valid")
            calibrationPass = nil
        }
        if var r = regularizer, var c = calibrationPass {
            r.finish(into: &c)
            c.windows.finish()
            regularizer = r
            calibrationPass = nil
            let fit = AutoCalibration.fit(c.windows.points)
            calibration = fit
            var p = EpochProcessor(sampleRate: c.sampleRate, options: options, calibration: fit)
            replay: while true {
                switch c.spool.replay(into: &p, maximumRecords: 64) {
                case .more:
                    processor = p
                    collect()
                    p = processor!
                    try handler(takeEpochs())
                case .done: break replay
                case .failed:
                    problem = "the temporary file of the calibration pass could not be read back; epochs are incomplete"
                    break replay
                }
            }
            if c.spool.failed {
                problem = "the temporary file of the calibration pass could not be written; epochs are incomplete"
            }
            processor = p
        }
        if var r = regularizer, var q = rotation, var p = pairing {
            r.finish(into: &p.gyroscope)
            p.endAcceleration()
            p.drain(into: &q, final: true)
            q.finish()
            pairing = p
            epochCount += q.finished.count
            readyRotation += q.finished
            q.finished.removeAll()
            regularizer = r
            rotation = q
        }
        if var r = regularizer, var p = processor {
            r.finish(into: &p)
            p.finish()
            regularizer = r
            processor = p
            collect()
        }
        try handler(takeEpochs())
        if sleep != nil {
            sleep!.finish()
            takeSleep()
        }
        finishActivity()
        let r = regularizer
        let summary = MotionStreamSummary(
            gridRateHz: r.map { Int($0.sampleRate) }, gridRateSource: rateSource, inputSamples: r?.inputSamples ?? heldSamples,
            gridSamples: r?.gridSamples ?? 0,
            interpolatedFraction: r.flatMap { $0.gridSamples > 0 ? Double($0.interpolatedSamples) / Double($0.gridSamples) : nil },
            droppedSamples: r?.droppedSamples ?? 0, gaps: r?.gapsSkipped ?? 0, epochs: epochCount, steps: stepCount,
            calibration: calibration, pairedStream: pairedName,
            pairedFraction: pairing.flatMap { p in r.flatMap { $0.gridSamples > 0 ? Double(p.pairedSamples) / Double($0.gridSamples) : nil }
            },
            note: problem ?? sleep?.unsupported.map { "sleep: \($0)" } ?? pairingNote)
        return (days.keys.sorted().map { days[$0]! }, summary)
    }

    /// The day outcomes of every day and the rhythm rows, at the end of the stream.
    private mutating func finishActivity() {
        guard var a = activity else { return }
        activity = nil
        var valid = [Int]()
        for k in days.keys.sorted() {
            let (outcomes, note) = a.outcomes(day: k, wearSeconds: days[k]!.wearSeconds, options: options)
            days[k]!.outcomes = outcomes
            days[k]!.outcomesNote = note
            if days[k]!.wearSeconds >= options.validDayWearHours * 3600 { valid.append(k) }
        }
        let origin = timeOrigin
        readyRhythm = a.rhythm(
            validDays: valid, options: options, label: { Self.dayLabel($0, origin: origin) }, timeBasis: Self.basis(origin))
    }

    /// The rest-activity rhythm rows (one per resolution), once ``finish()`` has run (each
    /// handed out once; none for a rotation-rate stream).
    /// - Complexity: O(rows).
    public mutating func takeRhythm() -> [MotionRhythm] {
        let out = readyRhythm
        readyRhythm.removeAll()
        return out
    }

    private var pairingNote: String? {
        guard let p = pairing, p.processedAhead > 0 || p.droppedAcceleration > 0 else { return nil }
        return "orientation: \(p.processedAhead) gyroscope samples processed without waiting for the accelerometer, "
            + "\(p.droppedAcceleration) accelerometer samples dropped (more than \(Int(RotationPairing.maximumPendingSeconds)) s apart)"
    }

    static func basis(_ origin: TimeOrigin) -> String {
        switch origin {
        case .unix: return "utc"
        case .deviceLocal: return "device_local"
        case .streamStart: return "stream_start"
        }
    }

    /// `YYYY-MM-DD` of a day count from 1970-01-01 (proleptic Gregorian; Hinnant's
    /// `civil_from_days`), or `+N` for stream-relative times.
    static func dayLabel(_ days: Int, origin: TimeOrigin) -> String {
        if origin == .streamStart { return "+\(days)" }
        return CivilDate.isoDate(daysSince1970: days)
    }
}

/// The first pass of an auto-calibrated stream: still windows for the fit, grid runs to the spool.
struct CalibrationPass: GridConsumer {
    let sampleRate: Int
    var windows: StillWindowCollector
    let spool = GridSpool()

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        windows = StillWindowCollector(sampleRate: sampleRate)
    }

    mutating func consume(
        firstIndex: Int, x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>
    ) {
        windows.add(firstIndex: firstIndex, x: x, y: y, z: z)
        spool.append(firstIndex: firstIndex, x: x, y: y, z: z)
    }

    mutating func endRun() {
        windows.endRun()
        spool.appendEndRun()
    }
}
