import DSP
import Signals

/// The PPG analysis of one device: its optical channels and its accelerometer, brought onto one
/// 25-Hz grid (``PPGGridChannel``) whose windows start at the device's first optical sample.
///
/// **Channel rule.** Optical channels are ranked by wavelength (the stream's
/// `nominalWavelength` attribute): green (490–580 nm) first — the most pulsatile and least
/// motion-sensitive at the wrist — then channels of unknown wavelength (SPC 2015's green
/// channels, a phone camera), then infrared (> 750 nm), then red (580–750 nm). For heart rate,
/// every usable channel of the best rank present in a window (each photodiode and signal of
/// that wavelength; a channel is usable when at most 20 % of its window is masked) contributes
/// its normalised spectrum, averaged; the rows carry the key of the best-ranked stream
/// announced when the first optical block arrives. Pulses, quality and the beat series are
/// computed for every optical stream (its first column: SPC 2015's `ppg1`), each under its own
/// key. The accelerometer is the PPG sample's own one when the device has it,
/// else the device's accelerometer stream. Masked samples are `signalSaturation`,
/// `unreliableNoise`, `null` reflectance and the other masking flags.
///
/// Windows of `--ppg-heart-rate-window-s` every `--ppg-heart-rate-step-s` (8 s / 2 s: window k
/// covers `[t0 + 2k, t0 + 2k + 8)`, t0 the first optical sample; at 125 Hz, samples
/// `[250k, 250k + 1000)`, the SPC 2015 convention); only complete windows are written, and
/// none without an optical sample (a gap's windows: ``stepOverGap(before:output:)``,
/// ``emptyWindows``). Window times are on the 40-ms grid.
struct PPGDeviceAnalysis {
    enum Rank: Int, Comparable {
        case green = 0, unknown, infrared, red
        static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
        init(attributes: [String: String]) {
            guard let w = attributes["nominalWavelength"].flatMap(Double.init) else {
                self = .unknown
                return
            }
            switch w {
            case 490..<580: self = .green
            case 580..<750: self = .red
            case 750...: self = .infrared
            default: self = .unknown
            }
        }
    }

    struct Optical {
        var stream: Int
        var column: Int
        var name: String
        var rank: Rank
        var grid = PPGGridChannel()
    }

    struct Axis {
        var stream: Int
        var column: Int
        var grid = PPGGridChannel()
    }

    struct StreamState {
        var info: StreamInfo
        var isOptical: Bool
        var rate: Double?
    }

    let deviceID: String
    let options: PPGOptions
    var streams: [Int: StreamState] = [:]
    var optical: [Optical] = []
    var axes: [Axis] = []
    var preferredAccelerationStream: Int?
    var origin: Double?
    var pendingAcceleration: [SampleBlock] = []
    var pendingSamples = 0
    var heartRate: PPGSpectralHeartRate?
    /// The heart-rate and quality windows on the grid (index 0 at the first optical sample);
    /// ``WindowCutter/next`` is the next window to compute, held until every channel's grid and
    /// pulses are final through its end.
    var windows: WindowCutter<Int>
    /// Window length, grid points.
    var windowLength: Int { windows.length }
    /// Window step, grid points.
    var stepLength: Int { windows.step }
    /// The next window to compute.
    var nextWindow: Int { windows.next }
    var primaryName: String?
    var scratch: [Float] = []
    var onlineRows: [PPGSpectralHeartRate.Estimate] = []
    var offlineRows: [PPGSpectralHeartRate.Estimate] = []
    var forcedWindows = 0
    /// The window cutter's index of the spectral estimator's window 0: the estimator restarts
    /// after a gap it was stepped over (``stepOverGap(before:output:)``).
    var estimatorOffset = 0
    /// Gaps stepped over (no windows computed inside them).
    var gapsSteppedOver = 0
    /// Window-cutter indices of computed windows holding no optical data (inside a gap shorter
    /// than ``gapGridPoints``), ascending, until their offline rows are decided: the tracker
    /// steps through them (its random walk spans the gap's time) but they store no row.
    var emptyWindows: [Int] = []
    private(set) var issues: [AnalysisIssue] = []
    /// Pulses, quality and beat series: one per optical stream (its first column).
    var pulseChannels: [PPGPulseChannel] = []
    var primary: Int?
    var qualityRows: [(stream: String, result: PPGQualityResult)] = []
    var rawScratch: [Float] = []
    var maskScratch: [Bool] = []
    var qualityWorkspace = PPGQuality.Workspace()

    /// Grid points a channel may lag behind the optical channels before windows go ahead
    /// without it: 2^18 (about 2.9 h at 25 Hz, 1.3 MB per channel), more than a decoder's block
    /// (a MATLAB file delivers up to 65 536 samples of one stream before the next).
    static let maxLagGrid = 1 << 18
    /// Raw samples of accelerometer blocks held until the first optical block.
    static let maxPendingSamples = 1 << 20

    init(deviceID: String, options: PPGOptions) {
        self.deviceID = deviceID
        self.options = options
        windows = WindowCutter(
            length: Int((options.heartRateWindowSeconds * PPGGridChannel.gridRate).rounded()),
            step: max(1, Int((options.heartRateStepSeconds * PPGGridChannel.gridRate).rounded())), origin: 0)
    }

    mutating func announce(_ stream: AnnouncedStream) {
        let info = stream.info
        let isOptical = info.role == .optical
        streams[stream.index] = StreamState(info: info, isOptical: isOptical, rate: info.nominalSampleRate)
        if isOptical {
            let rank = Rank(attributes: info.attributes)
            for c in info.columns.indices {
                let name = info.columns.count > 1 ? "\(stream.name)#\(info.columns[c].name)" : stream.name
                var o = Optical(stream: stream.index, column: c, name: name, rank: rank)
                // The raw values serve the perfusion index (first column) and the constant-input
                // test of every channel (``PPGGridChannel/isConstant(start:count:)``).
                o.grid.keepsRaw = true
                if c == 0 {
                    pulseChannels.append(PPGPulseChannel(optical: optical.count, name: stream.name, options: options.series))
                }
                optical.append(o)
            }
        } else if info.columns.count >= 3 {
            let own = info.key.sensor == .photoplethysmogram
            if preferredAccelerationStream == nil || own {
                if own, let p = preferredAccelerationStream, streams[p]?.info.key.sensor != .photoplethysmogram {
                    axes.removeAll()
                }
                if axes.isEmpty || own {
                    preferredAccelerationStream = stream.index
                    for c in 0..<3 { axes.append(Axis(stream: stream.index, column: c)) }
                }
            }
        }
    }

    mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
        guard var state = streams[block.stream], block.count > 0 else { return }
        if state.rate == nil {
            state.rate = Self.rate(of: block)
            streams[block.stream] = state
        }
        let rate: Double
        if case .uniform(_, let r) = block.time { rate = r } else { rate = state.rate ?? 0 }
        guard rate >= 8 && rate <= 10_000 else {
            if state.isOptical {
                issues.append(
                    AnalysisIssue(
                        family: PPGFamily.name, stream: state.info.key.description,
                        message: "sample rate \(rate) Hz unusable; no PPG analysis"))
            }
            return
        }
        if state.isOptical && origin == nil { start(at: block.time(at: 0)) }
        guard origin != nil else {
            if block.stream == preferredAccelerationStream {
                pendingAcceleration.append(block)
                pendingSamples += block.count
                while pendingSamples > Self.maxPendingSamples, let first = pendingAcceleration.first {
                    pendingSamples -= first.count
                    pendingAcceleration.removeFirst()
                }
            }
            return
        }
        feedPulses(block, rate: rate)
        if block.count > 0 { try stepOverGap(before: block.time(at: 0), output: output) }
        feedGrids(block, rate: rate)
        try advance(force: false, output: output)
    }

    /// Grid points after which every channel must have no sample before a gap is stepped over:
    /// the spectral tracker's memory (``PPGSpectralHeartRate/Parameters/lagWindows`` steps,
    /// 600 s at the defaults) plus a window. A shorter gap is gridded (masked points) and its
    /// windows computed as before.
    var gapGridPoints: Int { PPGSpectralHeartRate.Parameters().lagWindows * stepLength + windowLength }

    /// Steps over a gap before a block starting at `time`: when every channel's grid ends more
    /// than ``gapGridPoints`` before it, the windows holding data before the gap are completed
    /// (the grids padded with masked points through their ends), the spectral tracker finishes
    /// its rows and restarts, and the windows and grids move to the first window reaching
    /// `time`. No grid point, window or row exists inside the gap: the cost follows the data,
    /// not the time span (docs/HARDENING.md, "Gaps").
    /// - Complexity: O(windowLength · channels) per gap.
    private mutating func stepOverGap(before time: Double, output: any ResultOutput) throws {
        guard let t0 = origin, heartRate != nil, let name = primaryName else { return }
        let g = Int(((time - t0) * PPGGridChannel.gridRate).rounded(.up))
        var reached = 0
        for o in optical { reached = max(reached, o.grid.next) }
        for a in axes { reached = max(reached, a.grid.next) }
        guard g - reached > gapGridPoints else { return }
        // Complete every window that holds a grid point before the gap (those starting before
        // `reached`, ending by `reached - 1 + windowLength`); none starting after it.
        let close = reached - 1 + windowLength
        for i in optical.indices { optical[i].grid.padMasked(to: close) }
        for i in axes.indices { axes[i].grid.padMasked(to: close) }
        try advance(force: false, gapEnd: time, output: output)
        guard windows.start(of: nextWindow) >= reached else { return }
        heartRate!.finish(into: &offlineRows)
        try flushRows(name: name, t0: t0, output: output)
        windows.skip(toFirstEndingAfter: g)
        let keep = windows.start(of: nextWindow)
        for i in optical.indices { optical[i].grid.jump(to: keep) }
        for i in axes.indices { axes[i].grid.jump(to: keep) }
        heartRate = PPGSpectralHeartRate(windowLength: windowLength, stepSeconds: Double(stepLength) / PPGGridChannel.gridRate)
        estimatorOffset = nextWindow
        gapsSteppedOver += 1
    }

    private mutating func start(at t0: Double) {
        origin = t0
        for i in optical.indices { optical[i].grid.origin = t0 }
        for i in axes.indices { axes[i].grid.origin = t0 }
        heartRate = PPGSpectralHeartRate(windowLength: windowLength, stepSeconds: Double(stepLength) / PPGGridChannel.gridRate)
        scratch = [Float](repeating: 0, count: windowLength)
        if let best = optical.indices.min(by: { optical[$0].rank < optical[$1].rank }) {
            primary = best
            primaryName = streams[optical[best].stream]?.info.key.description
        }
        rawScratch = [Float](repeating: 0, count: windowLength)
        maskScratch = [Bool](repeating: false, count: windowLength)
        let held = pendingAcceleration
        pendingAcceleration = []
        pendingSamples = 0
        for b in held {
            if let r = streams[b.stream]?.rate { feed(b, rate: r) }
        }
    }

    private mutating func feed(_ block: SampleBlock, rate: Double) {
        feedPulses(block, rate: rate)
        feedGrids(block, rate: rate)
    }

    private mutating func feedPulses(_ block: SampleBlock, rate: Double) {
        for k in pulseChannels.indices where optical[pulseChannels[k].optical].stream == block.stream {
            pulseChannels[k].consume(block, column: 0, rate: rate)
        }
    }

    private mutating func feedGrids(_ block: SampleBlock, rate: Double) {
        // A channel's grid starts at its own first sample: the grid points before it (missing
        // for every window) are never stored, so a channel that starts late costs nothing for
        // the time before it (4,000 channels starting one after another held channels × span).
        let first = block.count > 0 ? block.time(at: 0) : .nan
        for i in optical.indices where optical[i].stream == block.stream {
            if optical[i].grid.origin == nil { optical[i].grid.origin = origin }
            optical[i].grid.startLate(at: first)
            optical[i].grid.consume(block.columns[optical[i].column], flags: block.flags, block: block, sampleRate: rate)
        }
        for i in axes.indices where axes[i].stream == block.stream {
            if axes[i].grid.origin == nil { axes[i].grid.origin = origin }
            axes[i].grid.startLate(at: first)
            axes[i].grid.consume(block.columns[axes[i].column], flags: block.flags, block: block, sampleRate: rate)
        }
    }

    /// Computes every window whose data are complete (or, with `force`, every complete window of
    /// the optical channels).
    /// `gapEnd`: at a gap step (``stepOverGap(before:output:)``), the time of the first sample
    /// after the gap; a pulse channel whose segment has ended then knows its pulses up to it.
    private mutating func advance(force: Bool, gapEnd: Double? = nil, output: any ResultOutput) throws {
        guard heartRate != nil, let t0 = origin, let name = primaryName else { return }
        // The channels' ends, once per call (computing windows feeds no grid): scanning every
        // channel for every window, and copying each (a struct of arrays) to do it, was most of
        // the time with 4,000 channels.
        var opticalNext = 0
        for i in optical.indices { opticalNext = max(opticalNext, optical[i].grid.next) }
        var minNext = opticalNext
        for i in optical.indices { minNext = min(minNext, optical[i].grid.next) }
        for i in axes.indices { minNext = min(minNext, axes[i].grid.next) }
        while true {
            let start = windows.start(of: nextWindow), end = windows.end(of: nextWindow)
            if windows.nextFinal(through: opticalNext) == nil { break }
            if !force {
                if minNext < end {
                    if opticalNext - minNext < Self.maxLagGrid { break }
                    forcedWindows += 1
                }
            }
            if !force && !pulsesFinal(throughGrid: end, t0: t0, gapEnd: gapEnd) { break }
            computeWindow(start: start, t0: t0)
            windows.releaseNext()
            let keep = windows.start(of: nextWindow)
            for i in optical.indices { optical[i].grid.trim(before: keep) }
            for i in axes.indices { axes[i].grid.trim(before: keep) }
            try flushRows(name: name, t0: t0, output: output)
        }
    }

    private mutating func computeWindow(start: Int, t0: Double) {
        let limit = windowLength / 5
        var ppg: [[Float]] = []
        // The optical index of each window in `ppg` (its spectrum is reused for the quality).
        var ppgOptical: [Int] = []
        var bestRank: Rank?
        for i in optical.indices {
            // A channel holding too few points of the window is skipped in O(1).
            guard windowLength - optical[i].grid.held(start: start, count: windowLength) <= limit else { continue }
            let o = optical[i]
            let missing = o.grid.window(start: start, count: windowLength, into: &scratch)
            // A constant input (a flat line) has no pulse to estimate: the channel is not usable.
            guard missing <= limit, !o.grid.isConstant(start: start, count: windowLength) else { continue }
            if bestRank == nil || o.rank < bestRank! {
                bestRank = o.rank
                ppg.removeAll()
                ppgOptical.removeAll()
            }
            if o.rank == bestRank {
                ppg.append(scratch)
                ppgOptical.append(i)
            }
        }
        var acc: [[Float]] = []
        for a in axes {
            _ = a.grid.window(start: start, count: windowLength, into: &scratch)
            acc.append(scratch)
        }
        var online: PPGSpectralHeartRate.Estimate?
        heartRate!.process(ppg: ppg, acceleration: acc, online: &online, offline: &offlineRows)
        // A window without optical data (in a gap shorter than `gapGridPoints`) steps the
        // tracker — its random walk spans the gap's time, so the windows after it are the same —
        // but stores no row: the gap shows in the streams' segments and coverage, not as rows
        // without a rate.
        var holdsData = false
        for i in optical.indices where optical[i].grid.holdsData(start: start, count: windowLength) {
            holdsData = true
            break
        }
        if !holdsData {
            emptyWindows.append(nextWindow)
        } else if let online {
            onlineRows.append(online)
        }
        // The quality's acceleration RMS is the same for every pulse channel: computed once.
        let accRMS = acc.count >= 3 ? Self.accelerationRMS(acc, count: windowLength) : nil
        for k in pulseChannels.indices {
            let spectrum = ppgOptical.firstIndex(of: pulseChannels[k].optical)
            assessQuality(start: start, t0: t0, channel: k, bpm: online?.bpm, accelerationRMS: accRMS, spectrum: spectrum)
        }
    }

    /// RMS of the first three axes' window as one vector, `√(Σⱼ Σₐ aⱼ² / count)` (summed sample
    /// by sample, axis by axis).
    /// - Complexity: O(count).
    static func accelerationRMS(_ acc: [[Float]], count: Int) -> Double {
        var e = 0.0
        acc[0].withUnsafeBufferPointer { x in
            acc[1].withUnsafeBufferPointer { y in
                acc[2].withUnsafeBufferPointer { z in
                    for j in 0..<count {
                        e += Double(x[j]) * Double(x[j])
                        e += Double(y[j]) * Double(y[j])
                        e += Double(z[j]) * Double(z[j])
                    }
                }
            }
        }
        return (e / Double(count)).squareRoot()
    }

    /// Whether every pulse channel with data through grid index `end` knows its pulses there.
    /// At a gap step (`gapEnd`: the first sample after the gap) a channel whose segment has ended
    /// knows them through `gapEnd`: the gap step already takes every channel to have no sample
    /// before it (each grid ends before the gap). Without this, a device's other optical
    /// channels, whose next segment arrives in later blocks, held the last windows before the
    /// gap, the gap was never stepped over and every 2-s window of the gap was computed and
    /// stored (22,740 rows per method for 1 h of PPG in 2-min sessions over 12.6 h).
    private func pulsesFinal(throughGrid end: Int, t0: Double, gapEnd: Double? = nil) -> Bool {
        let t = t0 + Double(end) / PPGGridChannel.gridRate
        for c in pulseChannels where optical[c.optical].grid.next >= end && c.finalTime < t {
            if let gapEnd, c.segmentEnded, t <= gapEnd { continue }
            return false
        }
        return true
    }

    /// The quality of pulse channel `c` in the window starting at grid index `start` (nothing
    /// when the channel has no unmasked sample there). `spectrum`: the index of the channel's
    /// window among the heart-rate estimator's optical windows of this window, when it is one
    /// (its power spectrum is then reused for the in-band power).
    private mutating func assessQuality(
        start: Int, t0: Double, channel c: Int, bpm: Double?, accelerationRMS accRMS: Double?, spectrum: Int?
    ) {
        let held = optical[pulseChannels[c].optical].grid.held(start: start, count: windowLength)
        let ws = t0 + Double(start) / PPGGridChannel.gridRate
        let we = ws + Double(windowLength) / PPGGridChannel.gridRate
        let keepFrom = t0 + Double(windows.start(of: nextWindow + 1)) / PPGGridChannel.gridRate
        let labelGrid = (t0: t0, step: stepLength, length: windowLength, rate: PPGGridChannel.gridRate)
        // A channel without a point in the window (most of them when a device has thousands,
        // one after another) is labelled in O(1), its grid never copied.
        guard held > 0 else {
            _ = pulseChannels[c].pulses(from: ws, to: we, keepFrom: keepFrom, gridRate: PPGGridChannel.gridRate)
            pulseChannels[c].setLabel(window: nextWindow, nil, grid: labelGrid)
            return
        }
        let g = optical[pulseChannels[c].optical].grid
        let missing = g.window(start: start, count: windowLength, into: &scratch)
        let local = pulseChannels[c].pulses(from: ws, to: we, keepFrom: keepFrom, gridRate: PPGGridChannel.gridRate)
        guard missing < windowLength else {
            pulseChannels[c].setLabel(window: nextWindow, nil, grid: labelGrid)
            return
        }
        for j in 0..<windowLength {
            let k = start + j - g.base
            let ok = k >= 0 && k < g.values.count && !g.masked[k]
            maskScratch[j] = !ok
            rawScratch[j] = ok && k < g.raw.count ? g.raw[k] : 0
        }
        // A constant input's band-passed values are the filter's rounding residue, not signal:
        // zero (no variance, so no skewness; no pulsatile amplitude, so a perfusion index of 0).
        if g.isConstant(start: start, count: windowLength) {
            for j in 0..<windowLength { scratch[j] = 0 }
        }
        var inBand = Double.nan
        if let bpm {
            if let spectrum {
                inBand = heartRate!.relativePower(ofWindow: spectrum, bpm: bpm)
            } else {
                inBand = heartRate!.relativePower(scratch, bpm: bpm)
            }
        }
        var q = PPGQuality.assess(
            values: scratch, raw: rawScratch, masked: maskScratch, pulses: local, gridRate: PPGGridChannel.gridRate,
            inBandPower: inBand, accelerationRMS: accRMS, startSeconds: ws, endSeconds: we, workspace: &qualityWorkspace)
        q.labelStartSeconds = PPGPulseChannel.centralStep(nextWindow, grid: labelGrid).start
        let stepStart = (windowLength - stepLength) / 2
        var unmasked = 0
        for j in stepStart..<min(windowLength, stepStart + stepLength) where !maskScratch[j] { unmasked += 1 }
        q.labelSeconds = Double(unmasked) / PPGGridChannel.gridRate
        qualityRows.append((pulseChannels[c].name, q))
        // Beats take the label of the window centred on them (the window's central step); pulse
        // intervals in unacceptable or motion windows are left out of the pulse-count rate and PRV.
        pulseChannels[c].setLabel(
            window: nextWindow, q.label, grid: labelGrid,
            excluded: q.label == .unacceptable || PPGQuality.isMotion(accelerationRMS: accRMS), rhythmOnly: q.rhythmOnly)
    }

    private mutating func flushRows(name: String, t0: Double, output: any ResultOutput) throws {
        // Offline rows are decided in window order, up to ``PPGSpectralHeartRate/Parameters/lagWindows``
        // windows late: empty windows are matched in one forward pass and dropped once decided.
        var empty = 0
        for (rows, method) in [(onlineRows, HeartRateMethod.spectralOnline), (offlineRows, .spectralOffline)] {
            for e in rows {
                let window = e.window + estimatorOffset
                if method == .spectralOffline {
                    while empty < emptyWindows.count && emptyWindows[empty] < window { empty += 1 }
                    if empty < emptyWindows.count && emptyWindows[empty] == window { continue }
                }
                let s = Double(windows.start(of: window)) / PPGGridChannel.gridRate
                var w = HeartRateWindow(
                    startSeconds: t0 + s, endSeconds: t0 + s + Double(windowLength) / PPGGridChannel.gridRate,
                    heartRateBPM: e.bpm, intervalCount: 0)
                w.method = method
                w.confidence = e.confidence
                w.isRecommended = method == .spectralOffline
                try output.emit(BeatSeriesTables.heartRate, SeriesRow(stream: name, source: .ppg, value: w))
            }
        }
        if let last = offlineRows.last {
            let decided = last.window + estimatorOffset
            var drop = 0
            while drop < emptyWindows.count && emptyWindows[drop] <= decided { drop += 1 }
            emptyWindows.removeFirst(drop)
        }
        onlineRows.removeAll(keepingCapacity: true)
        offlineRows.removeAll(keepingCapacity: true)
        for q in qualityRows { try output.emit(PPGTables.quality, Streamed(stream: q.stream, value: q.result)) }
        qualityRows.removeAll(keepingCapacity: true)
    }

    mutating func finish(output: any ResultOutput) throws {
        if origin == nil {
            if !optical.isEmpty {
                issues.append(AnalysisIssue(family: PPGFamily.name, message: "\(deviceID): no optical samples; no PPG analysis"))
            }
            return
        }
        for k in pulseChannels.indices { pulseChannels[k].close() }
        try advance(force: true, output: output)
        if heartRate != nil, let t0 = origin, let name = primaryName {
            heartRate!.finish(into: &offlineRows)
            try flushRows(name: name, t0: t0, output: output)
        }
        for k in pulseChannels.indices {
            try pulseChannels[k].finish(output: output)
            issues += pulseChannels[k].issues
        }
        if forcedWindows > 0 {
            issues.append(
                AnalysisIssue(
                    family: PPGFamily.name,
                    message: "\(deviceID): \(forcedWindows) windows computed while a channel lagged over 2^18 grid points (2.9 h) behind"))
        }
    }

    /// The sample rate of an explicit-time block: the median spacing of its first samples.
    static func rate(of block: SampleBlock) -> Double? {
        if case .uniform(_, let r) = block.time { return r }
        let n = min(block.count, 257)
        guard n >= 3 else { return nil }
        var d = [Double]()
        for i in 1..<n { d.append(block.time(at: i) - block.time(at: i - 1)) }
        d.sort()
        let m = d[d.count / 2]
        return m > 0 ? 1 / m : nil
    }
}
