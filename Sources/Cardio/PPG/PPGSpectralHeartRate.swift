import DSP
import Signals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Motion-robust heart rate from wrist PPG with the accelerometer as the motion reference:
/// per window, the power spectra of the optical channels are cleaned by a Wiener-type gain
/// against the accelerometer spectra, and the heart rate is tracked across windows by a hidden
/// Markov model on the frequency bins (a Gaussian random walk of the heart rate as the
/// physiological prior).
///
/// Method (after Temko 2017, WFPV):
/// - each optical channel's 8-s window (grid of 25 Hz, band-passed 0.4–4 Hz) is Hann-windowed and
///   zero-padded to 2048 points (0.73 bpm per bin); its power spectrum is normalised to its
///   maximum and the usable channels are averaged (`S`);
/// - each accelerometer axis gives a spectrum normalised the same way, weighted by
///   min(1, RMS / ``Parameters/accelerationScale``) so that a wrist at rest suppresses nothing;
///   the axes are summed (`A`);
/// - Wiener gain `W = S̄ / (S̄ + α·A)` with `S̄` the mean of `S` over the last
///   ``Parameters/averagedWindows`` windows; cleaned spectrum `C = S · W^γ`;
/// - harmonic evidence: a state f's emission is `E(f) = C(f) · (1 + λ · min(cap, C̃(2f) / C(f)))`,
///   `C̃(2f)` the cleaned power at the second harmonic with the band-pass roll-off undone
///   (λ = 1, cap = 0.5): the pulse wave has a strong second harmonic, motion artefacts' harmonics
///   follow the cadence instead; the bonus is bounded so that a weak subharmonic of the true rate
///   (whose "second harmonic" is the true fundamental) cannot win;
/// - tracking: states are the bins from 40 to 220 bpm, emission `log(E / ΣE)`, transition a
///   Gaussian of the bpm change with σ per 2-s step (scaled with the square root of the step),
///   truncated at ``Parameters/maxJumpBPM``;
/// - **online**: the arg-max of the forward max-product score after each window (causal, no
///   later data), with the stronger suppression γ = 3 and the looser σ = 4 bpm that a causal
///   tracker needs to recover from a wrong lock; the reported rate is the emission's peak within
///   ±``Parameters/refineBins`` bins of that state (the tracker picks the spectral peak, the
///   window's own spectrum places it, as in TROIKA's peak selection around the previous
///   estimate; it reduces the lag of the random-walk prior when the rate climbs); **offline**:
///   the Viterbi path with γ = 1.25, σ = 3 bpm, decided with a fixed lag of
///   ``Parameters/lagWindows`` windows (the exact Viterbi path of any recording shorter than
///   the lag; memory bounded for longer ones);
/// - **online acquisition** (no assumption of rest): in the first usable window the harmonic
///   evidence weighs λ = 10 with cap 1, so that a second harmonic stronger than the fundamental
///   (the first windows of training recordings 01 and 03) does not start the track at twice
///   the rate.
///
/// Sources: A. Temko, "Accurate heart rate monitoring during physical exercises using PPG",
/// IEEE TBME 64(9):2016–2024 (2017), doi:10.1109/TBME.2017.2676243 (Wiener filtering of the PPG
/// spectrum with accelerometer spectra, harmonic evidence); S. M. A. Salehizadeh et al., "A novel
/// time-varying spectral filtering algorithm for reconstruction of motion artifact corrupted
/// heart rate signals during intense physical activities using a wearable photoplethysmogram
/// sensor" (SpaMA), Sensors 16(1):10 (2016), doi:10.3390/s16010010 (second-harmonic check of
/// candidate peaks); Z. Zhang, Z. Pi, B. Liu, "TROIKA", IEEE TBME
/// 62(2):522–531 (2015), doi:10.1109/TBME.2014.2359372 (spectral peak tracking); A. J. Viterbi,
/// "Error bounds for convolutional codes and an asymptotically optimum decoding algorithm",
/// IEEE Trans. Inf. Theory 13(2):260–269 (1967).
struct PPGSpectralHeartRate {
    /// Tuning of the method (tuned on the 12 SPC 2015 training recordings only).
    struct Parameters: Sendable, Hashable {
        /// Wiener gain weight α of the accelerometer spectrum.
        var alpha: Float = 1
        /// Exponent γ of the Wiener gain, online and offline.
        var gammaOnline: Float = 3
        var gammaOffline: Float = 1.25
        /// Standard deviation of the heart-rate change per 2-s step, bpm, online and offline.
        var sigmaOnlineBPM = 4.0
        var sigmaOfflineBPM = 3.0
        /// Online: the reported state is the emission's peak within this many bins of the
        /// tracked state.
        var refineBins = 2
        /// Largest heart-rate change per 2-s step, bpm.
        var maxJumpBPM = 12.0
        /// Acceleration RMS (g, in the 0.4–4 Hz band) at which an axis counts fully.
        var accelerationScale: Float = 0.05
        /// Windows averaged into `S̄`.
        var averagedWindows = 2
        /// Fixed lag of the offline Viterbi decision, windows.
        var lagWindows = 300
        /// Weight λ and cap of the second-harmonic evidence: a state's emission is multiplied by
        /// `1 + λ · min(cap, C̃(2f) / C(f))`, a bounded bonus, so that a weak subharmonic of the
        /// true rate cannot win on its strong "harmonic" (the true fundamental) alone.
        var harmonicWeight: Float = 1
        var harmonicCap: Float = 0.5
        /// Online acquisition: the weight and cap of the harmonic evidence in the first usable
        /// window, where the tracker has no history yet (the strongest peak may then be the
        /// pulse's second harmonic rather than its fundamental; no assumption of rest).
        var acquisitionHarmonicWeight: Float = 10
        var acquisitionHarmonicCap: Float = 1
        /// Lowest and highest heart rate tracked, bpm.
        var minBPM = 40.0
        var maxBPM = 220.0
    }

    /// One window's estimate.
    struct Estimate {
        var window: Int
        var bpm: Double?
        var confidence: Double?
    }

    /// A max-product (Viterbi) recursion over the heart-rate states with a ring of backpointers
    /// and emissions for the last `lag` windows.
    struct Tracker {
        let n: Int
        let jump: Int
        let transition: [Float]
        let lag: Int
        var score: [Float]
        var newScore: [Float]
        var argScratch: [Int32]
        var backRing: [Int8]
        var emissionRing: [Float]
        var usableRing: [Bool]
        var processed = 0
        var decided = 0

        init(states: Int, sigmaBins: Double, jump: Int, lag: Int) {
            n = states
            self.jump = jump
            transition = (-jump...jump).map { o in Float(-0.5 * (Double(o) / sigmaBins) * (Double(o) / sigmaBins)) }
            self.lag = max(1, lag)
            score = [Float](repeating: 0, count: states)
            newScore = score
            argScratch = [Int32](repeating: 0, count: states)
            backRing = [Int8](repeating: 0, count: self.lag * states)
            emissionRing = [Float](repeating: 0, count: self.lag * states)
            usableRing = [Bool](repeating: false, count: self.lag)
        }

        /// One step with emission probabilities `e` (sum 1).
        ///
        /// The max-product recursion runs offset by offset over all states (a loop the compiler
        /// vectorises); offsets ascend and only a strictly larger score replaces the best, so
        /// each state keeps the smallest offset among equal maxima, as a per-state scan would.
        mutating func step(_ e: [Float], usable: Bool) {
            let slot = processed % lag
            let n = self.n, jump = self.jump
            if processed == 0 {
                for j in 0..<n {
                    score[j] = logf(e[j] + 1e-9)
                    backRing[j] = 0
                }
            } else {
                score.withUnsafeBufferPointer { sc in
                    newScore.withUnsafeMutableBufferPointer { bestBuffer in
                        argScratch.withUnsafeMutableBufferPointer { argBuffer in
                            transition.withUnsafeBufferPointer { tr in
                                let best = bestBuffer.baseAddress!, arg = argBuffer.baseAddress!
                                for j in 0..<n {
                                    best[j] = -.infinity
                                    arg[j] = 0
                                }
                                // State j takes predecessor j - o for o in max(-jump, j - (n - 1))...min(jump, j).
                                for o in -jump...jump {
                                    let t = tr[o + jump]
                                    let lo = max(0, o), hi = min(n - 1, n - 1 + o)
                                    guard lo <= hi else { continue }
                                    let o32 = Int32(o)
                                    let from = sc.baseAddress! + lo - o
                                    let to = best + lo, toArg = arg + lo
                                    let count = hi - lo + 1
                                    // Eight states at a time (explicit SIMD: the compiler does not
                                    // vectorise the scalar form), then the rest one by one.
                                    let t8 = SIMD8<Float>(repeating: t), o8 = SIMD8<Int32>(repeating: o32)
                                    var i = 0
                                    while i + 8 <= count {
                                        let v = UnsafeRawPointer(from + i).loadUnaligned(as: SIMD8<Float>.self) + t8
                                        let b = UnsafeRawPointer(to + i).loadUnaligned(as: SIMD8<Float>.self)
                                        let a = UnsafeRawPointer(toArg + i).loadUnaligned(as: SIMD8<Int32>.self)
                                        let better = v .> b
                                        UnsafeMutableRawPointer(to + i).storeBytes(
                                            of: b.replacing(with: v, where: better), as: SIMD8<Float>.self)
                                        UnsafeMutableRawPointer(toArg + i).storeBytes(
                                            of: a.replacing(with: o8, where: better), as: SIMD8<Int32>.self)
                                        i &+= 8
                                    }
                                    while i < count {
                                        let v = from[i] + t
                                        if v > to[i] {
                                            to[i] = v
                                            toArg[i] = o32
                                        }
                                        i &+= 1
                                    }
                                }
                            }
                        }
                    }
                }
                var top: Float = -.infinity
                for j in 0..<n {
                    let v = newScore[j] + logf(e[j] + 1e-9)
                    newScore[j] = v
                    backRing[slot * n + j] = Int8(truncatingIfNeeded: argScratch[j])
                    if v > top { top = v }
                }
                for j in 0..<n { score[j] = newScore[j] - top }
            }
            for j in 0..<n { emissionRing[slot * n + j] = e[j] }
            usableRing[slot] = usable
            processed += 1
        }

        func argmax() -> Int {
            var best = 0
            for j in 1..<n where score[j] > score[best] { best = j }
            return best
        }

        /// Traces back from the best current state and returns the states of windows
        /// `decided..<end` (then marks them decided).
        mutating func decide(upTo end: Int) -> [(window: Int, state: Int, slot: Int, usable: Bool)] {
            var state = argmax()
            var path = [Int](repeating: 0, count: processed - decided)
            var w = processed - 1
            while w >= decided {
                path[w - decided] = state
                if w > decided { state -= Int(backRing[(w % lag) * n + state]) }
                w -= 1
            }
            var out: [(window: Int, state: Int, slot: Int, usable: Bool)] = []
            for w in decided..<end { out.append((w, path[w - decided], w % lag, usableRing[w % lag])) }
            decided = end
            return out
        }

        /// Share of the window's emission within ±`radius` bins of `state`.
        func confidence(_ state: Int, slot: Int, radius: Int) -> Double {
            var m: Float = 0
            for j in max(0, state - radius)...min(n - 1, state + radius) { m += emissionRing[slot * n + j] }
            return Double(m)
        }
    }

    let parameters: Parameters
    let windowLength: Int
    let fftSize = 2048
    let binBPM: Double
    let lowBin: Int
    let stateCount: Int
    let topBin: Int
    let fft: RealFFT<Float>
    let hann: [Float]
    let radius: Int
    /// Per state: the grid band-pass's power gain at the state's rate over that at twice the
    /// rate, `|H(f)|² / |H(2f)|²` (undoes the filter's roll-off above 4 Hz, where the second
    /// harmonic of a heart rate over 120 bpm lies).
    let harmonicCompensation: [Float]

    var frame: [Float]
    var spectrum: [Float]
    var power: [Float]
    var s: [Float]
    var a: [Float]
    var sBar: [Float]
    var history: [[Float]] = []
    /// The normalised power spectra of the last window's optical channels (the first
    /// ``opticalPowerCount``), kept for ``relativePower(ofWindow:bpm:)``.
    var opticalPowers: [[Float]] = []
    var opticalPowerCount = 0
    /// Whether the online tracker has seen a usable window (see
    /// ``Parameters/acquisitionHarmonicWeight``).
    var acquired = false
    var emissionOnline: [Float]
    var emissionOffline: [Float]
    var online: Tracker
    var offline: Tracker

    /// Creates the estimator for windows of `windowLength` grid points taken every
    /// `stepSeconds`.
    init(windowLength: Int, stepSeconds: Double, parameters: Parameters = Parameters()) {
        self.parameters = parameters
        self.windowLength = windowLength
        binBPM = PPGGridChannel.gridRate / Double(fftSize) * 60
        lowBin = Int((parameters.minBPM / binBPM).rounded(.up))
        let high = Int((parameters.maxBPM / binBPM).rounded(.down))
        stateCount = high - lowBin + 1
        topBin = min(fftSize / 2, 2 * high)
        radius = Int((6 / binBPM).rounded())
        harmonicCompensation = (0..<stateCount).map { [lowBin, binBPM] j in
            let hz = Double(lowBin + j) * binBPM / 60
            return Float(PPGGridChannel.bandPowerGain(hz) / PPGGridChannel.bandPowerGain(2 * hz))
        }
        let scale = (stepSeconds / 2).squareRoot()
        let jump = max(1, min(127, Int((parameters.maxJumpBPM * stepSeconds / 2 / binBPM).rounded())))
        online = Tracker(states: stateCount, sigmaBins: parameters.sigmaOnlineBPM * scale / binBPM, jump: jump, lag: 1)
        offline = Tracker(
            states: stateCount, sigmaBins: parameters.sigmaOfflineBPM * scale / binBPM, jump: jump, lag: parameters.lagWindows)
        fft = RealFFT<Float>(count: fftSize)
        hann = (0..<windowLength).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(windowLength - 1))) }
        frame = [Float](repeating: 0, count: fftSize)
        spectrum = [Float](repeating: 0, count: fft.spectrumCount)
        power = [Float](repeating: 0, count: topBin + 1)
        s = power
        a = power
        sBar = power
        emissionOnline = [Float](repeating: 0, count: stateCount)
        emissionOffline = emissionOnline
    }

    /// Largest binary exponent of a window's largest magnitude computed as it is: the squares and
    /// sums of the spectrum (2048 points) stay well inside `Float`'s normal range for magnitudes
    /// in 2^−40…2^40. Windows outside it are scaled by a power of two first (exact, so any scale
    /// of the same signal gives the same normalised spectrum): a pulse train of 1e30 overflowed
    /// the power to infinity and one of 1e−41 (denormal) underflowed it to zero, and either
    /// ended as a rate of 40 bpm, the first state.
    static let unscaledExponents = -40...40

    /// The normalised power spectrum of one window (bins 0…topBin, maximum 1) into ``power``;
    /// returns the RMS of the demeaned window, or `nil` (and a zero spectrum) when the window is
    /// all zero or holds a value that is not finite: it has no spectrum to normalise.
    private mutating func normalizedPower(_ x: [Float]) -> Float? {
        var largest: Float = 0
        for v in x {
            guard v.isFinite else { return zeroPower() }
            largest = max(largest, abs(v))
        }
        guard largest > 0 else { return zeroPower() }
        let exponent = Int(largest.exponent)
        guard !Self.unscaledExponents.contains(exponent) else { return normalizedPower(unscaled: x) }
        // 2^−exponent applied in Double (a denormal's scale does not fit a Float), exactly.
        let scale = Double(sign: .plus, exponent: -exponent, significand: 1)
        var scaled = [Float](repeating: 0, count: x.count)
        for i in x.indices { scaled[i] = Float(Double(x[i]) * scale) }
        return Float(Double(normalizedPower(unscaled: scaled)) / scale)
    }

    private mutating func zeroPower() -> Float? {
        for k in 0...topBin { power[k] = 0 }
        return nil
    }

    private mutating func normalizedPower(unscaled x: [Float]) -> Float {
        var mean: Float = 0
        for v in x { mean += v }
        mean /= Float(x.count)
        var ss: Float = 0
        for i in 0..<windowLength {
            let d = x[i] - mean
            ss += d * d
            frame[i] = d * hann[i]
        }
        fft.forward(frame, into: &spectrum)
        var peak: Float = 0
        for k in 0...topBin {
            let p = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]
            power[k] = p
            if p > peak { peak = p }
        }
        let inv: Float = peak > 0 ? 1 / peak : 0
        for k in 0...topBin { power[k] *= inv }
        return (ss / Float(x.count)).squareRoot()
    }

    /// Processes the next window: `ppg` holds the usable optical channels' windows (grid
    /// values), `acceleration` the accelerometer axes' windows (may be empty). Returns the online
    /// estimate of this window and appends the offline estimates decided now.
    mutating func process(ppg: [[Float]], acceleration: [[Float]], online estimate: inout Estimate?, offline decided: inout [Estimate]) {
        let n = stateCount
        var spectra = 0
        if !ppg.isEmpty {
            for k in 0...topBin {
                s[k] = 0
                a[k] = 0
            }
            if opticalPowers.count < ppg.count {
                opticalPowers += Array(repeating: power, count: ppg.count - opticalPowers.count)
            }
            for (i, x) in ppg.enumerated() {
                // A window without a spectrum (all zero, or not finite) is left out of the mean.
                if normalizedPower(x) != nil {
                    for k in 0...topBin { s[k] += power[k] }
                    spectra += 1
                }
                opticalPowers[i].withUnsafeMutableBufferPointer { kept in
                    power.withUnsafeBufferPointer { p in
                        for k in 0...topBin { kept[k] = p[k] }
                    }
                }
            }
            opticalPowerCount = ppg.count
        }
        let usable = spectra > 0
        if usable {
            let inv = 1 / Float(spectra)
            for k in 0...topBin { s[k] *= inv }
            for x in acceleration {
                let rms = normalizedPower(x) ?? 0
                let w = min(1, rms / parameters.accelerationScale)
                for k in 0...topBin { a[k] += w * power[k] }
            }
            if history.count == parameters.averagedWindows { history.removeFirst() }
            history.append(s)
            let hInv = 1 / Float(history.count)
            for k in 0...topBin {
                var m: Float = 0
                for h in history { m += h[k] }
                sBar[k] = m * hInv
            }
            var e = [Float]()
            swap(&e, &emissionOnline)
            if acquired {
                emission(gamma: parameters.gammaOnline, lambda: parameters.harmonicWeight, cap: parameters.harmonicCap, into: &e)
            } else {
                emission(
                    gamma: parameters.gammaOnline, lambda: parameters.acquisitionHarmonicWeight,
                    cap: parameters.acquisitionHarmonicCap, into: &e)
                acquired = true
            }
            swap(&e, &emissionOnline)
            swap(&e, &emissionOffline)
            emission(gamma: parameters.gammaOffline, lambda: parameters.harmonicWeight, cap: parameters.harmonicCap, into: &e)
            swap(&e, &emissionOffline)
        } else {
            opticalPowerCount = 0
            for j in 0..<n {
                emissionOnline[j] = 1 / Float(n)
                emissionOffline[j] = 1 / Float(n)
            }
        }
        online.step(emissionOnline, usable: usable)
        let best = usable ? refine(online.argmax()) : online.argmax()
        estimate = Estimate(
            window: online.processed - 1, bpm: usable ? bpm(best) : nil,
            confidence: usable ? online.confidence(best, slot: 0, radius: radius) : nil)
        offline.step(emissionOffline, usable: usable)
        if offline.processed - offline.decided >= offline.lag {
            append(offline.decide(upTo: offline.processed - offline.lag + 1), into: &decided)
        }
    }

    /// Ends the series: decides every window not yet decided.
    mutating func finish(into decided: inout [Estimate]) {
        if offline.processed > offline.decided { append(offline.decide(upTo: offline.processed), into: &decided) }
    }

    private func append(_ states: [(window: Int, state: Int, slot: Int, usable: Bool)], into decided: inout [Estimate]) {
        for d in states {
            decided.append(
                Estimate(
                    window: d.window, bpm: d.usable ? bpm(d.state) : nil,
                    confidence: d.usable ? offline.confidence(d.state, slot: d.slot, radius: radius) : nil))
        }
    }

    /// Emission probabilities over the states: `E(f) = C(f) · (1 + λ · min(cap, C̃(2f) / C(f)))`
    /// with `C = S · W^γ` and `C̃(2f)` the cleaned power at the second harmonic corrected for
    /// the band-pass (``harmonicCompensation``), normalised to sum 1.
    private func emission(gamma: Float, lambda: Float, cap: Float, into out: inout [Float]) {
        let alpha = parameters.alpha
        func cleaned(_ k: Int) -> Float {
            let d = sBar[k] + alpha * a[k]
            let g = d > 0 ? sBar[k] / d : 0
            return s[k] * (gamma == 1 ? g : powf(g, gamma))
        }
        var total: Float = 0
        for j in 0..<stateCount {
            let k = lowBin + j
            let c = cleaned(k)
            let h = 2 * k <= topBin ? cleaned(2 * k) * harmonicCompensation[j] : 0
            let e = c * (1 + lambda * min(cap, h / (c + 1e-9)))
            out[j] = e
            total += e
        }
        let inv: Float = total > 0 ? 1 / total : 0
        for j in 0..<stateCount { out[j] = total > 0 ? out[j] * inv : 1 / Float(stateCount) }
    }

    /// Power within ±0.2 Hz of `bpm` and of its second harmonic over the power in 0.4–4 Hz of
    /// one grid window.
    mutating func relativePower(_ x: [Float], bpm: Double) -> Double {
        _ = normalizedPower(x)
        return Self.relativePower(power, topBin: topBin, fftSize: fftSize, bpm: bpm)
    }

    /// ``relativePower(_:bpm:)`` of the `index`-th optical window of the last
    /// ``process(ppg:acceleration:online:offline:)`` call, from the spectrum computed there
    /// (the same numbers without a second FFT of the same window).
    func relativePower(ofWindow index: Int, bpm: Double) -> Double {
        precondition(index < opticalPowerCount, "no spectrum kept for optical window \(index)")
        return Self.relativePower(opticalPowers[index], topBin: topBin, fftSize: fftSize, bpm: bpm)
    }

    /// The in-band share of a normalised power spectrum (bins 0…topBin).
    private static func relativePower(_ power: [Float], topBin: Int, fftSize: Int, bpm: Double) -> Double {
        let hz = PPGGridChannel.gridRate / Double(fftSize)
        let f = bpm / 60
        var inside = 0.0, total = 0.0
        for k in 0...topBin {
            let fk = Double(k) * hz
            guard fk >= 0.4 && fk <= 4 else { continue }
            total += Double(power[k])
            if abs(fk - f) <= 0.2 || abs(fk - 2 * f) <= 0.2 { inside += Double(power[k]) }
        }
        return total > 0 ? inside / total : .nan
    }

    /// The state of the largest online emission within ±``Parameters/refineBins`` of `state`.
    private func refine(_ state: Int) -> Int {
        var best = state
        for j in max(0, state - parameters.refineBins)...min(stateCount - 1, state + parameters.refineBins)
        where emissionOnline[j] > emissionOnline[best] { best = j }
        return best
    }

    private func bpm(_ state: Int) -> Double { Double(lowBin + state) * binBPM }
}
