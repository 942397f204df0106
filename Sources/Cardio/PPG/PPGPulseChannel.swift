import DSP
import Signals

/// Pulses, quality labels and the beat series of one optical stream (its first column).
struct PPGPulseChannel {
    /// Index of the channel in the device's optical list.
    let optical: Int
    /// The stream key, as the tables write it.
    let name: String
    var detector: PPGPulseDetector?
    var segment = -1
    var segmentStart = 0.0
    var rate = 0.0
    var samples = 0
    var buffer: [Int] = []
    var timeRing: [Double] = []
    var explicitTimes = false
    /// Time up to which every pulse of the channel is known.
    var finalTime = -Double.infinity
    /// Whether the channel's last block ended its segment (``SampleBlock/endsSegment``): every
    /// pulse of the channel is then known until its next segment's first sample.
    var segmentEnded = false
    /// Pulse times that a pending window may still need.
    var pulseTimes: [Double] = []
    var series: BeatSeries
    /// Quality label of each window, one byte per window (index in `PPGQualityLabel.allCases`,
    /// 0xFF: none), for the beats' `quality` column: a beat takes the label of the window whose
    /// central step holds it. One byte instead of a (start, end, label) tuple of 24 keeps a week
    /// of 2-s windows at 0.3 MB per stream. Windows stepped over in a gap hold no byte
    /// (``WindowCodes``): the memory follows the windows computed, not the time span. An
    /// `unacceptable` window failing only for its rhythm (``PPGQualityResult/rhythmOnly``) has
    /// ``rhythmOnlyBit`` set.
    var labelCodes = WindowCodes()
    /// The bit of a label code marking an `unacceptable` window failing only for its rhythm.
    static let rhythmOnlyBit: UInt8 = 0x80
    /// Grid origin (s), step and window length (grid points) of the windows of ``labelCodes``.
    var labelGrid: (t0: Double, step: Int, length: Int, rate: Double)?
    /// The last window whose label was recorded, and whether it was excluded.
    var lastLabelled: Int?
    var lastExcluded = false
    var issues: [AnalysisIssue] = []
    /// Pulses waiting for their window's quality label before they are published
    /// (``PPGPulseEvents``): time and measurements.
    var pendingPulses: [(time: Double, shape: PPGPulseShape, rate: Double)] = []

    init(optical: Int, name: String, options: BeatSeriesOptions) {
        self.optical = optical
        self.name = name
        series = BeatSeries(options: options)
    }

    /// Runs the pulse detector over the block's `column`; pulses go to the beat series.
    /// - Complexity: O(block length).
    mutating func consume(_ block: SampleBlock, column: Int, rate sampleRate: Double) {
        if block.segment != segment {
            close()
            segmentEnded = false
            // Every pulse before the new segment's first sample is known now (the gap has none).
            if block.count > 0 { finalTime = max(finalTime, block.time(at: 0)) }
            segment = block.segment
            rate = sampleRate
            samples = 0
            segmentStart = block.time(at: 0)
            if case .explicit = block.time { explicitTimes = true } else { explicitTimes = false }
            if sampleRate >= 20 && sampleRate <= 5000 {
                let d = PPGPulseDetector(sampleRate: sampleRate)
                timeRing = [Double](repeating: 0, count: d.latencySamples + d.delay + 64)
                detector = d
            } else {
                detector = nil
                issues.append(
                    AnalysisIssue(
                        family: PPGFamily.name, stream: name,
                        message: "segment \(block.segment): sample rate \(sampleRate) Hz outside 20–5000 Hz; no pulses"))
            }
        }
        series.cover(from: block.time(at: 0), to: block.time(at: block.count - 1))
        guard detector != nil else {
            finalTime = block.time(at: block.count - 1)
            segmentEnded = block.endsSegment
            return
        }
        block.columns[column].withUnsafeBufferPointer { v in
            block.flags.withUnsafeBufferPointer { f in detector!.process(v, flags: f, into: &buffer) }
        }
        // Pulses in this block take its times; older ones (the detector's look-ahead) the ring's.
        drain(block: block, base: samples)
        if explicitTimes {
            for i in max(0, block.count - timeRing.count)..<block.count {
                timeRing[(samples + i) % timeRing.count] = block.time(at: i)
            }
        }
        samples += block.count
        let finalSample = samples - 1 - detector!.latencySamples
        if finalSample >= 0 { finalTime = max(finalTime, sampleTime(finalSample)) }
        if block.endsSegment {
            close()
            finalTime = max(finalTime, block.time(at: block.count - 1))
            segmentEnded = true
        }
    }

    /// The time of segment sample `p`: from `block` (whose first sample is `base`) when it holds
    /// it, else from the ring of recent times.
    private func sampleTime(_ p: Int, block: SampleBlock? = nil, base: Int = 0) -> Double {
        guard explicitTimes else { return segmentStart + Double(p) / rate }
        if let block, p >= base && p < base + block.count { return block.time(at: p - base) }
        return timeRing[p % timeRing.count]
    }

    private mutating func drain(block: SampleBlock? = nil, base: Int = 0) {
        let shapes = detector?.shapes ?? []
        detector?.shapes.removeAll(keepingCapacity: true)
        for (i, p) in buffer.enumerated() {
            let t = sampleTime(p, block: block, base: base)
            if i < shapes.count { pendingPulses.append((t, shapes[i], rate)) }
            series.append(
                segment: segment, sampleIndex: p, timeSeconds: t, timeBase: explicitTimes ? nil : (segmentStart, rate))
            pulseTimes.append(t)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Ends the current segment: the detector's last pulses.
    mutating func close() {
        guard detector != nil else { return }
        detector!.finish(into: &buffer)
        drain()
        detector = nil
    }

    /// Pulse positions (grid points from `start`) in `[start, end)` seconds; pulses before
    /// `keepFrom` are dropped (no later window needs them).
    mutating func pulses(from start: Double, to end: Double, keepFrom: Double, gridRate: Double) -> [Double] {
        var local = [Double]()
        for t in pulseTimes where t >= start && t < end { local.append((t - start) * gridRate) }
        if let firstKept = pulseTimes.firstIndex(where: { $0 >= keepFrom }) {
            if firstKept > 0 { pulseTimes.removeFirst(firstKept) }
        } else {
            pulseTimes.removeAll(keepingCapacity: true)
        }
        return local
    }

    /// Emits the beat series (beats with their window's label, heart rate, PRV). Pulses after the
    /// last window are not assessed: left out of the pulse-count rate and PRV.
    mutating func finish(output: any ResultOutput) throws {
        close()
        if let grid = labelGrid, let last = lastLabelled {
            // The last window's label also stands for the time after its central step; after its
            // end nothing is assessed.
            let end = grid.t0 + Double(last * grid.step + grid.length) / grid.rate
            if lastExcluded { series.excludeFromHRV(from: Self.centralStep(last, grid: grid).end, to: end) }
            series.excludeFromHRV(from: end, to: .infinity)
        }
        let codes = labelCodes, grid = labelGrid
        let name = self.name
        try series.finish(
            beat: { b in
                let label = grid.flatMap { Self.label(at: b.listedTimeSeconds, codes: codes, grid: $0) }
                try output.emit(
                    BeatSeriesTables.beats,
                    SeriesRow(stream: name, source: .ppg, value: LabelledBeat(beat: b, qualityLabel: label?.rawValue)))
            },
            heartRate: { try output.emit(BeatSeriesTables.heartRate, SeriesRow(stream: name, source: .ppg, value: $0)) },
            hrv: { try output.emit(BeatSeriesTables.hrv, SeriesRow(stream: name, source: .ppg, value: $0)) })
    }

    /// Records window `window`'s label (`nil`: none); windows not recorded have none. An
    /// `excluded` window's central step is handed to the beat series as an excluded span
    /// (``BeatSeries/excludeFromHRV(from:to:)``): intervals touching it are left out of the
    /// pulse-count heart rate and of PRV (`nn_excluded` `quality`).
    /// - Complexity: amortised O(1).
    mutating func setLabel(
        window: Int, _ label: PPGQualityLabel?, grid: (t0: Double, step: Int, length: Int, rate: Double), excluded: Bool = false,
        rhythmOnly: Bool = false
    ) {
        let step = Self.centralStep(window, grid: grid)
        let windowStart = grid.t0 + Double(window * grid.step) / grid.rate
        let first = labelGrid == nil
        if first {
            labelGrid = grid
            // Pulses before the first window are not assessed: left out as well.
            series.excludeFromHRV(from: -.infinity, to: windowStart)
        }
        lastLabelled = window
        lastExcluded = excluded
        // The first window's label also stands for the time before its central step.
        if excluded { series.excludeFromHRV(from: first ? windowStart : step.start, to: step.end) }
        let code = label.flatMap { l in PPGQualityLabel.allCases.firstIndex(of: l).map { UInt8($0) } } ?? 0xFF
        labelCodes.set(window, code != 0xFF && rhythmOnly ? code | Self.rhythmOnlyBit : code)
    }

    /// The central step of window k: `[t0 + (k·step + (length − step)/2) / rate, … + step / rate)`.
    static func centralStep(_ k: Int, grid: (t0: Double, step: Int, length: Int, rate: Double)) -> (start: Double, end: Double) {
        let ws = grid.t0 + Double(k * grid.step) / grid.rate
        let start = ws + (Double(grid.length - grid.step) / 2) / grid.rate
        return (start, start + Double(grid.step) / grid.rate)
    }

    /// The label of the window whose central step holds time `t`, or `nil`.
    /// - Complexity: O(1).
    static func label(at t: Double, codes: WindowCodes, grid: (t0: Double, step: Int, length: Int, rate: Double)) -> PPGQualityLabel? {
        labelAndCause(at: t, codes: codes, grid: grid)?.label
    }

    /// The label of the window whose central step holds time `t` and whether that window is
    /// unacceptable for its rhythm only (``PPGQualityResult/rhythmOnly``), or `nil`.
    /// - Complexity: O(1).
    static func labelAndCause(
        at t: Double, codes: WindowCodes, grid: (t0: Double, step: Int, length: Int, rate: Double)
    ) -> (label: PPGQualityLabel, rhythmOnly: Bool)? {
        let first = centralStep(0, grid: grid).start
        let guess = Int(((t - first) * grid.rate / Double(grid.step)).rounded(.down))
        for k in [guess - 1, guess, guess + 1] where k >= 0 && k < codes.count {
            let c = centralStep(k, grid: grid)
            if c.start <= t && t < c.end {
                let raw = codes[k]
                guard raw != 0xFF else { return nil }
                let code = Int(raw & ~rhythmOnlyBit)
                guard code < PPGQualityLabel.allCases.count else { return nil }
                return (PPGQualityLabel.allCases[code], raw & rhythmOnlyBit != 0)
            }
        }
        return nil
    }
}

/// One byte per window index (0xFF: none), stored as runs of consecutive windows so that
/// windows never recorded — those stepped over in a gap — cost nothing: memory follows the
/// windows recorded, not the highest index.
struct WindowCodes: Sendable {
    /// Runs of consecutive windows: the first window's index and the codes.
    private var runs: [(first: Int, codes: [UInt8])] = []

    /// One past the highest window recorded (0 when none).
    private(set) var count = 0
    /// Whether no window is recorded.
    var isEmpty: Bool { count == 0 }

    /// Records window `k`'s code; windows are recorded in increasing order (a hole of up to 64
    /// windows is filled with 0xFF, a longer one starts a new run).
    /// - Complexity: amortised O(1).
    mutating func set(_ k: Int, _ code: UInt8) {
        count = max(count, k + 1)
        // No code past the stored ones reads as 0xFF: not stored (a channel without data in
        // thousands of windows costs nothing per window).
        if code == 0xFF, k >= runs.last.map({ $0.first + $0.codes.count }) ?? 0 { return }
        if let last = runs.last, k >= last.first, k < last.first + last.codes.count + 64 {
            let i = runs.count - 1
            while runs[i].first + runs[i].codes.count <= k { runs[i].codes.append(0xFF) }
            runs[i].codes[k - runs[i].first] = code
        } else {
            runs.append((k, [code]))
        }
    }

    /// Window `k`'s code, 0xFF when none was recorded.
    /// - Complexity: O(log runs).
    subscript(k: Int) -> UInt8 {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].first <= k { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return 0xFF }
        let r = runs[lo - 1]
        return k - r.first < r.codes.count ? r.codes[k - r.first] : 0xFF
    }
}
