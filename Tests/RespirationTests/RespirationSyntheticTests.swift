import Foundation
import Signals
import Testing

@testable import Respiration

/// Collects the respiration rows an analyzer emits.
final class RespirationRowCollector: ResultOutput {
    var rows: [Streamed<RespirationWindow>] = []
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        if let r = row as? Streamed<RespirationWindow> { rows.append(r) }
    }
    func publish(_ event: DerivedEvent) throws {}
}

/// Beats whose truth is known by construction: a heart rate and its respiratory modulations
/// (amplitude, QRS area, RR) at a chosen breathing rate, or none.
struct SyntheticBeats {
    var seconds = 160.0
    var heartRateBPM = 72.0
    /// Breathing rate, breaths/min, or `nil` for no breathing at all.
    var breathsPerMinute: Double? = 15
    /// Random amplitude/interval noise (relative), from a fixed-seed generator.
    var noise = 0.0
    /// Relative depth of the respiratory modulation of the amplitudes (the baseline and the
    /// interval: half of it).
    var depth = 0.1
    var qualityLabel = "excellent"
    var ppgQualityLabel = "good"
    /// The pulses' `unacceptable_cause` (a fifth value), or `nil` for none published.
    var ppgUnacceptableCause: String? = nil

    /// ECG beat events (`class`, `r_above_baseline`, `qrs_area`, `quality`) and PPG pulse
    /// events (`peak_value`, `foot_value`, `pulse_amplitude`, `quality`) in time order.
    func events() -> (ecg: [DerivedEvent], ppg: [DerivedEvent]) {
        var rng = SplitMix(seed: 7)
        var ecg = [DerivedEvent](), ppg = [DerivedEvent]()
        var t = 0.5
        while t < seconds {
            let phase = breathsPerMinute.map { 2 * Double.pi * $0 / 60 * t } ?? 0
            let resp = breathsPerMinute == nil ? 0 : sin(phase)
            func n() -> Double { noise * (rng.uniform() * 2 - 1) }
            let amp = 1.0 * (1 + depth * resp + n())
            let area = 0.08 * (1 + depth * resp + n())
            ecg.append(
                DerivedEvent(
                    series: "ecg_beats", stream: "m/electrocardiogram/II", time: t,
                    values: [.label("N"), .number(amp), .number(area), .label(qualityLabel)]))
            let pulse = t + 0.2
            let foot = 1.0 + depth / 2 * resp + n() * 0.05
            let pa = 0.5 * (1 + depth * resp + n())
            ppg.append(
                DerivedEvent(
                    series: "ppg_pulses", stream: "m/photoplethysmogram/PLETH", time: pulse,
                    values: [.number(foot + pa), .number(foot), .number(pa), .label(ppgQualityLabel)]
                        + (ppgUnacceptableCause.map { [DerivedValue.label($0)] } ?? [])))
            // Respiratory sinus arrhythmia: the interval shortens on inspiration.
            t += 60 / heartRateBPM * (1 - depth / 2 * resp + n() * 0.5)
        }
        return (ecg, ppg)
    }
}

/// A small deterministic generator (SplitMix64), so noise tests are reproducible.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Runs the analyzer over events delivered in `order`.
func runRespiration(
    _ events: [DerivedEvent], options: RespirationOptions = RespirationOptions()
) throws -> [Streamed<RespirationWindow>] {
    var a = RespirationFamily.makeAnalyzer(options: options)
    let out = RespirationRowCollector()
    let declared = [
        "ecg_beats": DerivedSeries(source: "ecg", name: "beats", summary: "", attributes: []),
        "ppg_pulses": DerivedSeries(source: "ppg", name: "pulses", summary: "", attributes: []),
    ]
    for e in events { try a.consume(derived: e, series: declared[e.series]!, output: out) }
    try a.finish(output: out)
    return out.rows
}

/// A canonical text of rows, for comparing runs.
func describe(_ rows: [Streamed<RespirationWindow>]) -> [String] {
    rows.map { r in
        let v = r.value
        return "\(r.stream) \(v.source) \(v.startSeconds) \(v.breathsPerMinute.map { "\($0)" } ?? "-") "
            + "\(v.quality.map { "\($0)" } ?? "-") \(v.used.sorted { $0.key < $1.key }) \(v.nullReason ?? "")"
    }.sorted()
}

@Suite struct RespirationSyntheticTests {
    @Test func breathingAtFifteenPerMinuteIsFound() throws {
        let e = SyntheticBeats().events()
        let rows = try runRespiration(e.ecg + e.ppg)
        let full = rows.filter { $0.value.startSeconds >= 0 && $0.value.endSeconds <= 160 }
        for source in [RespirationSource.ecg, .ppg, .fused] {
            let r = full.filter { $0.value.source == source }
            #expect(r.count == 5, "\(source): \(r.count) windows")
            for w in r {
                let rate = try #require(w.value.breathsPerMinute, "\(source) \(w.value.startSeconds): \(w.value.nullReason ?? "")")
                #expect(abs(rate - 15) < 0.5, "\(source) \(w.value.startSeconds): \(rate)")
                #expect((w.value.quality ?? 0) > 0.5)
            }
        }
    }

    @Test func slowAndFastBreathingAreFound() throws {
        for bpm in [8.0, 24.0, 36.0] {
            let e = SyntheticBeats(heartRateBPM: bpm > 30 ? 110 : 70, breathsPerMinute: bpm).events()
            let rows = try runRespiration(e.ecg + e.ppg).filter { $0.value.source == .fused }
            #expect(!rows.isEmpty)
            for w in rows {
                let rate = try #require(w.value.breathsPerMinute, "\(bpm): \(w.value.nullReason ?? "")")
                #expect(abs(rate - bpm) < 1, "\(bpm) at \(w.value.startSeconds): \(rate)")
            }
        }
    }

    @Test func noBreathingGivesNoRate() throws {
        // Constant beats: nothing varies.
        let flat = SyntheticBeats(breathsPerMinute: nil).events()
        for w in try runRespiration(flat.ecg + flat.ppg) {
            #expect(w.value.breathsPerMinute == nil, "flat \(w.value.source) \(w.value.startSeconds)")
            #expect(w.value.nullReason != nil)
        }
        // Pure noise in every modulation, no breathing.
        let noisy = SyntheticBeats(seconds: 640, breathsPerMinute: nil, noise: 0.1).events()
        let rows = try runRespiration(noisy.ecg + noisy.ppg)
        #expect(rows.count >= 3 * 20)
        // Band-passed noise has a spectral peak as pure as breathing's; the autocorrelation and
        // breath-count quality indices are what keep it out (without them about a third of
        // these windows had a rate).
        for w in rows { #expect(w.value.breathsPerMinute == nil, "noise \(w.value.source) \(w.value.startSeconds)") }
        #expect(rows.contains { $0.value.nullReason?.contains("fewer than 2 modulations pass quality") == true })
    }

    /// Identical beats as a simulator's ECG and PPG give them, timed at sample instants of a
    /// 360-Hz recording: their values differ only by floating-point rounding, which repeats every
    /// three beats (2.5 s: 24/min) and, normalised, made a perfectly concentrated spectral peak —
    /// the ECG chain on a synthetic 72/min ECG without breathing gave 24 breaths/min in every
    /// window (`scripts/respiration/nstdb-noise.py`'s clean ECG, regular beats). No rate, and the
    /// reason names the modulations without variation.
    @Test func identicalBeatsAtSampleInstantsGiveNoRate() throws {
        var ecg = [DerivedEvent](), ppg = [DerivedEvent]()
        for k in 0..<768 {
            let t = Double(180 + 300 * k) / 360
            let rounding = Double(k % 3) * .ulpOfOne
            ecg.append(
                DerivedEvent(
                    series: "ecg_beats", stream: "m/electrocardiogram/II", time: t,
                    values: [.label("N"), .number(1 + rounding), .number(0.08 * (1 + rounding)), .label("excellent")]))
            ppg.append(
                DerivedEvent(
                    series: "ppg_pulses", stream: "m/photoplethysmogram/PLETH", time: t + 0.2,
                    values: [.number(1.5 * (1 + rounding)), .number(1), .number(0.5 * (1 + rounding)), .label("good")]))
        }
        let rows = try runRespiration(ecg + ppg)
        #expect(rows.count >= 3 * 19)
        for w in rows {
            #expect(w.value.breathsPerMinute == nil, "\(w.value.source) \(w.value.startSeconds): \(w.value.breathsPerMinute ?? 0)")
        }
        #expect(rows.contains { $0.value.nullReason?.contains("without beat-to-beat variation") == true })
    }

    /// Identical beats after the ECG chain's start-up: the first five beats' R amplitude and QRS
    /// area settle from 1.4 % and 9 % off to within 10⁻⁶ (values read from the chain on a
    /// synthetic 72/min ECG without breathing, first beat 0.5 s into the recording), the rest
    /// equal. The outlier rule drops the first four and keeps the fifth; one varying beat is no
    /// breathing, so no rate (before the rule counted varying beats, the first window got
    /// 6.9 breaths/min).
    @Test func startUpTransientOfIdenticalBeatsGivesNoRate() throws {
        let amplitude = [0.8614406585693359, 0.8750143647193909, 0.8734204173088074, 0.8735478520393372, 0.8735405206680298]
        let area = [0.01424482266108195, 0.01584850682152642, 0.015654480457305907, 0.0156702717145284, 0.015669340557522244]
        var ecg = [DerivedEvent]()
        for k in 0..<720 {
            let t = (180 + 300 * Double(k)) / 360
            let a = k < amplitude.count ? amplitude[k] : 0.8735407590866089
            let q = k < area.count ? area[k] : 0.015669369697570802
            ecg.append(
                DerivedEvent(
                    series: "ecg_beats", stream: "m/electrocardiogram/II", time: t,
                    values: [.label("N"), .number(a), .number(q), .label("excellent")]))
        }
        let rows = try runRespiration(ecg)
        #expect(rows.count >= 2 * 18)
        for w in rows {
            #expect(w.value.breathsPerMinute == nil, "\(w.value.source) \(w.value.startSeconds): \(w.value.breathsPerMinute ?? 0)")
        }
    }

    /// Fewer than four beats off the median (rounding aside) is no variation; four is.
    @Test func varyingBeatsAreCounted() {
        var v = [Double](repeating: 0.8, count: 40)
        v[3] = 0.81
        v[9] = 0.79
        v[20] = 0.8 + 1e-15
        #expect(!RespirationStream.varies(v))
        v[25] = 0.805
        #expect(!RespirationStream.varies(v))
        v[30] = 0.795
        #expect(RespirationStream.varies(v))
        #expect(!RespirationStream.varies([]))
    }

    /// The outlier rule on quantised intervals (beats at 125-Hz sample instants, 8-ms steps):
    /// with most intervals one sample count (MAD zero, or rounding-sized), those a sample or two
    /// away stay in, while a missed beat's doubled interval is dropped.
    @Test func outlierRuleKeepsQuantisedIntervals() {
        let counts = [100, 100, 101, 100, 99, 100, 100, 102, 100, 200, 100, 101, 100, 100]
        var times = counts.indices.map { Double($0) }
        // Sample counts over 125 Hz, with the rounding of beat-time differences.
        var values = counts.enumerated().map { Double($1) / 125 + Double($0 % 3) * 1e-16 }
        RespirationStream.removeOutliers(&times, &values)
        #expect(times.count == counts.count - 1)
        #expect(!times.contains(9))
        #expect(values.contains { abs($0 - 0.816) < 1e-9 })
        // All equal up to rounding: nothing to judge, nothing dropped.
        var t2 = [0.0, 1, 2, 3], v2 = [0.8, 0.8 + 1e-16, 0.8, 0.8 - 1e-16]
        RespirationStream.removeOutliers(&t2, &v2)
        #expect(t2.count == 4)
    }

    /// Motion without breathing: the wearer's movements shift the pulse amplitude and baseline
    /// in steps and drifts (independently per modulation) and disturb the beat intervals; no
    /// rate. (Motion the PPG family labels unacceptable is ``unacceptableWindowsGiveNoRate()``.)
    @Test(arguments: [11, 12, 13, 14, 15] as [UInt64]) func motionWithoutBreathingGivesNoRate(seed: UInt64) throws {
        var e = SyntheticBeats(seconds: 640, breathsPerMinute: nil, noise: 0.02).events()
        var rng = SplitMix(seed: seed)
        func motion(_ events: [DerivedEvent], attributes: [Int]) -> [DerivedEvent] {
            var drift = [Double](repeating: 0, count: attributes.count)
            return events.map { ev in
                var x = ev
                for (j, a) in attributes.enumerated() {
                    // A random walk with occasional steps (a strap or finger moving).
                    drift[j] += 0.03 * (rng.uniform() * 2 - 1) + (rng.uniform() < 0.03 ? 0.3 * (rng.uniform() * 2 - 1) : 0)
                    x.values[a] = .number(x.values[a].number * (1 + drift[j]))
                }
                x.time += 0.08 * (rng.uniform() * 2 - 1)
                return x
            }
        }
        e.ecg = motion(e.ecg, attributes: [1, 2])
        e.ppg = motion(e.ppg, attributes: [1, 2])
        let rows = try runRespiration(e.ecg + e.ppg)
        #expect(rows.count >= 3 * 18)
        for w in rows {
            let v = w.value
            #expect(v.breathsPerMinute == nil, "motion seed \(seed) \(v.source) \(v.startSeconds): \(v.used) quality \(v.quality ?? -1)")
        }
    }

    /// The quality indices on signals whose answer is known: a sinusoid repeats at its period
    /// (autocorrelation cos(0) scaled by the overlap) and has as many zero crossings as cycles.
    @Test func qualityIndicesOfASinusoid() throws {
        let gridHz = 4.0, n = 128
        let x = (0..<n).map { sin(2 * Double.pi * 0.25 * Double($0) / gridHz) }
        // Lag of one period (16 samples): Σ x_i x_{i+16} / Σ x_i² = (n − 16) / n for whole cycles.
        #expect(abs(RespiratorySpectrum.autocorrelation(x, lag: 16) - Double(n - 16) / Double(n)) < 1e-9)
        // Half a period: −(n − 8) / n.
        #expect(abs(RespiratorySpectrum.autocorrelation(x, lag: 8) + Double(n - 8) / Double(n)) < 1e-9)
        let counted = try #require(RespiratorySpectrum.countedRate(x, gridHz: gridHz))
        #expect(abs(counted - 15) < 1e-6, "\(counted)")
        #expect(RespiratorySpectrum.countedRate([Double](repeating: 1, count: n), gridHz: gridHz) == nil)
    }

    @Test func unacceptableWindowsGiveNoRate() throws {
        let e = SyntheticBeats(qualityLabel: "unacceptable", ppgQualityLabel: "unacceptable").events()
        let rows = try runRespiration(e.ecg + e.ppg)
        #expect(!rows.isEmpty)
        for w in rows { #expect(w.value.breathsPerMinute == nil) }
    }

    /// Pulses whose windows are unacceptable for their rhythm only keep their amplitude and
    /// baseline (RIAV, RIIV), not their interval (RIFV): the PPG row has those two spectra and,
    /// without the interval, no spectral rate (the thresholds are the no-breathing maxima of sets
    /// with it; the two are one beat measurement for smart fusion); the fused row with the ECG's
    /// beats finds the rate. Unacceptable for their signal: no PPG spectrum.
    @Test func rhythmOnlyUnacceptablePulsesGiveAmplitudeSpectra() throws {
        let rhythm = SyntheticBeats(ppgQualityLabel: "unacceptable", ppgUnacceptableCause: "rhythm").events()
        let ppg = try runRespiration(rhythm.ppg).filter { $0.value.source == .ppg }
        #expect(ppg.count >= 4)
        for w in ppg {
            #expect(Set(w.value.spectra.map(\.modulation)) == [.amplitude, .intensity])
            #expect(w.value.breathsPerMinute == nil)
        }
        let fused = try runRespiration(rhythm.ecg + rhythm.ppg).filter { $0.value.source == .fused }
        #expect(fused.count >= 4)
        for w in fused {
            let rate = try #require(w.value.breathsPerMinute, "\(w.value.nullReason ?? "")")
            #expect(abs(rate - 15) < 1, "\(rate)")
        }
        let signal = SyntheticBeats(ppgQualityLabel: "unacceptable", ppgUnacceptableCause: "signal").events()
        let none = try runRespiration(signal.ppg).filter { $0.value.source == .ppg }
        #expect(!none.isEmpty)
        for w in none {
            #expect(w.value.spectra.isEmpty)
            #expect(w.value.breathsPerMinute == nil)
        }
    }

    /// Irregular pulses without breathing (atrial-fibrillation-like intervals 0.4–1.2 s, each
    /// pulse's amplitude and foot following its preceding interval, Frank–Starling, plus noise),
    /// their windows unacceptable for their rhythm only: no PPG rate.
    @Test(arguments: [21, 22, 23, 24, 25] as [UInt64]) func irregularPulsesWithoutBreathingGiveNoRate(seed: UInt64) throws {
        var rng = SplitMix(seed: seed)
        var ppg = [DerivedEvent]()
        var t = 0.5, previous = 0.8
        while t < 320 {
            let fill = previous / 0.8
            let pa = 0.5 * (0.5 + 0.5 * fill) * (1 + 0.05 * (rng.uniform() * 2 - 1))
            let foot = 1.0 - 0.05 * fill + 0.01 * (rng.uniform() * 2 - 1)
            ppg.append(
                DerivedEvent(
                    series: "ppg_pulses", stream: "m/photoplethysmogram/PLETH", time: t,
                    values: [.number(foot + pa), .number(foot), .number(pa), .label("unacceptable"), .label("rhythm")]))
            previous = 0.4 + 0.8 * rng.uniform()
            t += previous
        }
        let rows = try runRespiration(ppg).filter { $0.value.source == .ppg }
        #expect(rows.count >= 8)
        for w in rows { #expect(w.value.breathsPerMinute == nil, "\(w.value.startSeconds) \(w.value.breathsPerMinute ?? 0)") }
    }

    @Test func ectopicBeatsAreLeftOut() throws {
        // Every beat classified V: none is usable.
        var e = SyntheticBeats().events()
        e.ecg = e.ecg.map {
            var x = $0; x.values[0] = .label("V"); return x
        }
        let rows = try runRespiration(e.ecg).filter { $0.value.source == .ecg }
        #expect(!rows.isEmpty)
        for w in rows { #expect(w.value.breathsPerMinute == nil) }
    }

    /// Chunked = whole: the series' interleaving (ECG first, PPG first, alternating) changes
    /// nothing.
    @Test func interleavingDoesNotChangeRows() throws {
        let e = SyntheticBeats(noise: 0.02).events()
        let a = describe(try runRespiration(e.ecg + e.ppg))
        let b = describe(try runRespiration(e.ppg + e.ecg))
        let merged = (e.ecg + e.ppg).sorted { $0.time < $1.time }
        let c = describe(try runRespiration(merged))
        #expect(a == b)
        #expect(a == c)
        #expect(!a.isEmpty)
    }

    @Test func windowLengthOption() throws {
        var o = RespirationOptions()
        o.windowSeconds = 60
        let e = SyntheticBeats(seconds: 300).events()
        let rows = try runRespiration(e.ecg, options: o).filter { $0.value.source == .ecg }
        #expect(rows.map(\.value.startSeconds) == [0, 60, 120, 180, 240])
        for w in rows { #expect(w.value.endSeconds - w.value.startSeconds == 60) }
    }
}

/// Spectral fusion (the mean of the modulations' normalised spectra over adjacent windows) and
/// what the analyzer holds for the fused rows.
@Suite struct RespirationSpectralFusionTests {
    /// Breathing at 15/min as weak as the beat-to-beat noise (10 % modulation, ±10 % noise per
    /// beat): the single modulations' quality indices mostly fail, their fused spectrum shows
    /// the shared peak.
    @Test func weakBreathingInNoiseIsFoundBySpectralFusion() throws {
        let e = SyntheticBeats(seconds: 640, breathsPerMinute: 15, noise: 0.1).events()
        let fused = try runRespiration(e.ecg + e.ppg).filter { $0.value.source == .fused }
        #expect(fused.count >= 19)
        let rated = fused.filter { $0.value.breathsPerMinute != nil }
        #expect(Double(rated.count) >= 0.8 * Double(fused.count), "\(rated.count) of \(fused.count)")
        for w in rated {
            #expect(abs(w.value.breathsPerMinute! - 15) < 1, "\(w.value.startSeconds): \(w.value.breathsPerMinute!)")
        }
        #expect(rated.contains { $0.value.spectral })
    }

    /// The fused peak's two indices on spectra whose answer is known by hand (32-s window: the
    /// concentration's reach is ±4 bins of 1/256 Hz, the local neighbourhood ±24 bins; the
    /// spectrum holds bins 13…256, 244 values): a spike of 40 on a flat floor of 1 at bin 77
    /// (0.30 Hz, 18/min) has concentration (40 + 8) / (40 + 243) and local concentration
    /// (40 + 8) / (40 + 48); a linear slope falling from the band's low edge (drifting
    /// amplitudes) has its peak at the low edge (bin 26, 6.09/min: no parabola at the edge),
    /// concentration Σ of bins 22…30 over the whole, local Σ 22…30 over Σ 13…50.
    @Test func fusedPeakIndicesOfKnownSpectra() throws {
        var spike = [Double](repeating: 1, count: 244)
        spike[77 - 13] = 40
        let a = try #require(RespiratorySpectrum.fusedPeak([spike], seconds: 32))
        #expect(abs(a.breathsPerMinute - 77.0 / 256 * 60) < 1e-9, "\(a.breathsPerMinute)")
        #expect(abs(a.concentration - 48.0 / 283) < 1e-12)
        #expect(abs(a.local - 48.0 / 88) < 1e-12)
        let slope = (13...256).map { Double(300 - $0) }
        let b = try #require(RespiratorySpectrum.fusedPeak([slope], seconds: 32))
        #expect(abs(b.breathsPerMinute - 26.0 / 256 * 60) < 1e-9, "\(b.breathsPerMinute)")
        let total = (13...256).reduce(0.0) { $0 + Double(300 - $1) }
        let near = (22...30).reduce(0.0) { $0 + Double(300 - $1) }, around = (13...50).reduce(0.0) { $0 + Double(300 - $1) }
        #expect(abs(b.concentration - near / total) < 1e-12)
        #expect(abs(b.local - near / around) < 1e-12)
        // The spike stands out locally (0.55, above every no-breathing threshold); the slope does
        // not (0.24).
        #expect(a.local > RespirationOptions().minimumLocalConcentrationPPG)
        #expect(b.local < RespirationOptions().minimumLocalConcentrationFused)
    }

    /// Fused rows written while the recording is read (a short lag) equal those written at its
    /// end, and what is held for them does not grow with the recording: the same at 1 h and 3 h.
    @Test func fusedRowsAreStreamedWithBoundedMemory() throws {
        func run(seconds: Double, lag: Double, span: Int = RespirationOptions().spectralSpan) throws -> (rows: [String], held: Int) {
            var o = RespirationOptions()
            o.fusionLagSeconds = lag
            o.spectralSpan = span
            let e = SyntheticBeats(seconds: seconds, noise: 0.05).events()
            var a = RespirationFamily.makeAnalyzer(options: o)
            let out = RespirationRowCollector()
            let declared = DerivedSeries(source: "x", name: "y", summary: "", attributes: [])
            for ev in (e.ecg + e.ppg).sorted(by: { $0.time < $1.time }) { try a.consume(derived: ev, series: declared, output: out) }
            try a.finish(output: out)
            return (describe(out.rows), a.maxHeldWindows)
        }
        let short = try run(seconds: 640, lag: 64)
        let atEnd = try run(seconds: 640, lag: 86400)
        #expect(short.rows == atEnd.rows)
        #expect(atEnd.held >= 20) // everything held until the end
        // Every span: rows written while reading (the streams' look-ahead and the fused rows'
        // wait follow the span) equal those written at the end, and differ between spans.
        var bySpan = [[String]]()
        for span in 0...3 {
            let a = try run(seconds: 640, lag: 64, span: span), b = try run(seconds: 640, lag: 86400, span: span)
            #expect(a.rows == b.rows, "span \(span)")
            #expect(a.rows.count == short.rows.count, "span \(span)")
            bySpan.append(a.rows)
        }
        #expect(bySpan[2] == short.rows)
        #expect(Set(bySpan).count == 4)
        let hour = try run(seconds: 3600, lag: 600)
        let threeHours = try run(seconds: 3 * 3600, lag: 600)
        #expect(hour.held == threeHours.held, "\(hour.held) vs \(threeHours.held)")
        // Held: the lag's windows, the 2 × span + 1 windows a fused row waits for (its last
        // neighbour is emitted once the window span after it is computed) and the span windows
        // before it the next row needs (span 1: 600 / 32 + 5, the bound without spectral averaging).
        let span = RespirationOptions().spectralSpan
        #expect(threeHours.held <= Int(600 / 32) + 3 * span + 2)
        #expect(threeHours.rows.filter { $0.contains(" fused ") }.count >= 330)
    }

    /// A recording with ECG only: its fused rows are the lead's rows (the same spectra), judged at
    /// the ECG's threshold whatever the fused one (before: at the fused threshold, so a lead's
    /// window at concentration 0.228 had a rate and its fused row none — the two-lead contract
    /// fixture).
    @Test func fusedRowOfOneSourceIsJudgedAtThatSourcesThreshold() throws {
        var o = RespirationOptions()
        o.minimumConcentrationFused = 0.99
        let e = SyntheticBeats(seconds: 640, breathsPerMinute: 15, noise: 0.1).events()
        let rows = try runRespiration(e.ecg, options: o)
        let lead = Dictionary(uniqueKeysWithValues: rows.filter { $0.value.source == .ecg }.map { ($0.value.startSeconds, $0.value) })
        let fused = rows.filter { $0.value.source == .fused }
        #expect(fused.count == lead.count)
        #expect(lead.values.contains { $0.spectral })
        for f in fused {
            let l = try #require(lead[f.value.startSeconds])
            guard l.spectral else { continue }
            #expect(abs((f.value.breathsPerMinute ?? -1) - (l.breathsPerMinute ?? -2)) < 1e-9, "\(f.value.startSeconds)")
            #expect(abs((f.value.quality ?? -1) - (l.quality ?? -2)) < 1e-12, "\(f.value.startSeconds)")
        }
    }

    /// Many optical streams (the same pulses under 40 stream keys): the fused rows are those of
    /// one stream (the mean of identical spectra; rates within rounding) and what is held for
    /// fusion does not grow with the streams (one spectrum sum per modulation and window).
    @Test func fusionStateDoesNotGrowWithStreams() throws {
        func run(streams: Int) throws -> (rates: [Double?], held: Int, windows: Int) {
            let e = SyntheticBeats(seconds: 640, noise: 0.05).events()
            var a = RespirationFamily.makeAnalyzer(options: RespirationOptions())
            let out = RespirationRowCollector()
            let declared = DerivedSeries(source: "x", name: "y", summary: "", attributes: [])
            for ev in e.ppg {
                for s in 0..<streams {
                    var x = ev
                    x.stream = "m/photoplethysmogram/\(s)"
                    try a.consume(derived: x, series: declared, output: out)
                }
            }
            try a.finish(output: out)
            let fused = out.rows.filter { $0.value.source == .fused }.sorted { $0.value.startSeconds < $1.value.startSeconds }
            return (fused.map(\.value.breathsPerMinute), a.maxHeldSpectra, a.maxHeldWindows)
        }
        let one = try run(streams: 1), many = try run(streams: 40)
        #expect(one.held == many.held, "\(one.held) vs \(many.held)")
        #expect(one.held <= 3 * one.windows)
        #expect(one.rates.count == many.rates.count)
        #expect(one.rates.compactMap { $0 }.count >= 15)
        for (a, b) in zip(one.rates, many.rates) {
            #expect((a == nil) == (b == nil))
            if let a, let b { #expect(abs(a - b) < 1e-6) }
        }
    }

    /// The fused row's last resort (``RespirationFamily/agreeingSources(_:into:options:)``), on
    /// rows whose rates are given: agreeing source rates give their mean, disagreeing ones none.
    @Test func agreeingSourceRowsGiveTheFusedRate() throws {
        func row(_ source: RespirationSource, _ rate: Double?, quality: Double) -> RespirationWindow {
            RespirationWindow(
                source: source, startSeconds: 32, endSeconds: 64, breathsPerMinute: rate, quality: quality, used: [:],
                nullReason: rate == nil ? "none" : nil)
        }
        let o = RespirationOptions()
        var w = FusionWindow(row(.ecg, 15, quality: 0.3), stream: "b")
        w.add(row(.ecg, 15, quality: 0.3), stream: "b")
        w.add(row(.ppg, 16, quality: 0.5), stream: "a")
        w.add(row(.ppg, nil, quality: 0.1), stream: "c")
        var out = RespirationFamily.smartFused(w, options: o)
        #expect(out.breathsPerMinute == nil)
        RespirationFamily.agreeingSources(w, into: &out, options: o)
        #expect(out.breathsPerMinute == 15.5)
        #expect(abs((out.quality ?? 0) - 0.4) < 1e-12)
        #expect(out.used == ["ecg": 15, "ppg": 16])
        #expect(out.nullReason == nil)
        #expect(w.stream == "a")
        // 15 and 25: standard deviation 7.1 ≥ 4 (the default agreement limit).
        var d = FusionWindow(row(.ecg, 15, quality: 0.3), stream: "a")
        d.add(row(.ecg, 15, quality: 0.3), stream: "a")
        d.add(row(.ppg, 25, quality: 0.3), stream: "b")
        var none = RespirationFamily.smartFused(d, options: o)
        RespirationFamily.agreeingSources(d, into: &none, options: o)
        #expect(none.breathsPerMinute == nil)
        #expect(none.nullReason?.contains("disagree") == true)
    }
}
