import Signals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Breathing rate from a still accelerometer (wrist or chest) per window: the samples averaged
/// in 0.25-s bins (a low-pass to the 4-Hz grid), the window accepted only when the wearer is
/// still, the three axes projected onto their principal axis within the window (the direction
/// the breathing moves the sensor), and that signal's rate taken as a modulation's
/// (``RespiratorySpectrum``: spectral peak, purity, autocorrelation and breath-count indices).
///
/// Stillness: the arm (sensor) angle to the horizontal plane, atan(z / √(x² + y²)), averaged
/// over 5-s blocks, varies by at most 5° within the window (van Hees et al. 2015's sustained
/// inactivity criterion, there over 5 min), and at least 90 % of the window's bins hold samples.
///
/// Sources: D. J. Bates, M. J. Ling, J. Mann, D. K. Arvind, "Respiratory rate and flow waveform
/// estimation from tri-axial accelerometer data", Int Conf Body Sensor Networks 2010:144–150,
/// doi:10.1109/BSN.2010.50 (principal-axis projection of a chest accelerometer); J. Hernandez,
/// D. McDuff, R. W. Picard, "BioWatch: estimation of heart and breathing rates from wrist
/// motions", PervasiveHealth 2015:169–176, doi:10.4108/icst.pervasivehealth.2015.259064 (the wrist
/// at rest); V. T. van Hees et al., "A novel, open access method to assess sleep duration using a
/// wrist-worn accelerometer", PLoS One 10(11):e0142533 (2015), doi:10.1371/journal.pone.0142533.
/// Not validated: no breath-annotated accelerometer recording is available to the project.
struct AccelerometerRespiration {
    let stream: String
    let options: RespirationOptions
    /// Factor from the columns' unit to g.
    let scale: Double
    /// Bin length, s (the 4-Hz grid).
    static let bin = 0.25
    /// Largest change of the 5-s mean arm angle within a window that still counts as still, °.
    static let stillDegrees = 5.0
    /// The bin being filled: its index (start = index × ``bin``), sums and count.
    var current: (index: Int, x: Double, y: Double, z: Double, n: Int)?
    /// Finished bins in reach: centre time and mean acceleration (g).
    var bins: [(time: Double, x: Double, y: Double, z: Double)] = []
    /// The next window to compute, `nil` before the first bin.
    var window: Int?

    /// The factor to g for an accelerometer's columns, or `nil` when they are not 3 columns of
    /// g or m/s².
    static func scale(of info: StreamInfo) -> Double? {
        guard info.columns.count == 3 else { return nil }
        let units = Set(info.columns.map(\.unit))
        if units == [.standardGravity] { return 1 }
        if units == [.metresPerSecondSquared] { return 1 / PhysicalUnit.standardGravityInMetresPerSecondSquared }
        return nil
    }

    /// Adds a block's unmasked samples; emits the windows they complete.
    mutating func append(_ block: SampleBlock, emit: (RespirationWindow) throws -> Void) throws {
        let masking = SampleFlags.maskingFlags.rawValue
        for i in 0..<block.count where block.flags[i] & masking == 0 {
            let t = block.time(at: i)
            let x = Double(block.columns[0][i]) * scale, y = Double(block.columns[1][i]) * scale
            let z = Double(block.columns[2][i]) * scale
            guard t.isFinite, x.isFinite, y.isFinite, z.isFinite else { continue }
            let b = Int((t / Self.bin).rounded(.down))
            if let c = current, b != c.index {
                if b < c.index {
                    // Time went back: a new segment; its windows start afresh.
                    try flush(emit: emit)
                } else {
                    try close(emit: emit)
                }
            }
            if current == nil { current = (b, 0, 0, 0, 0) }
            current!.x += x
            current!.y += y
            current!.z += z
            current!.n += 1
        }
    }

    /// Finishes the current bin and computes the windows it completes.
    private mutating func close(emit: (RespirationWindow) throws -> Void) throws {
        guard let c = current else { return }
        current = nil
        let n = Double(c.n)
        let t = (Double(c.index) + 0.5) * Self.bin
        bins.append((t, c.x / n, c.y / n, c.z / n))
        let w = options.windowSeconds
        if window == nil { window = Int((t / w).rounded(.down)) }
        while let k = window, t >= Double(k + 1) * w + RespirationStream.margin {
            if let r = row(k) { try emit(r) }
            window = k + 1
            let keep = Double(k + 1) * w - RespirationStream.margin
            if let first = bins.firstIndex(where: { $0.time >= keep }) {
                if first > 0 { bins.removeFirst(first) }
            } else {
                bins.removeAll(keepingCapacity: true)
            }
            if bins.isEmpty { window = max(k + 1, Int(((t - RespirationStream.margin) / w).rounded(.down))) }
        }
    }

    /// Computes every window up to the last bin's.
    mutating func flush(emit: (RespirationWindow) throws -> Void) throws {
        try close(emit: emit)
        guard let last = bins.last?.time, var k = window else { return }
        let w = options.windowSeconds
        while Double(k) * w <= last {
            if let r = row(k) { try emit(r) }
            k += 1
        }
        bins.removeAll(keepingCapacity: true)
        window = nil
    }

    /// Window `k`'s row, `nil` when no bin falls inside it.
    private func row(_ k: Int) -> RespirationWindow? {
        let w = options.windowSeconds, margin = RespirationStream.margin
        let start = Double(k) * w, end = start + w
        let inside = bins.filter { $0.time >= start && $0.time < end }
        guard !inside.isEmpty else { return nil }
        var row = RespirationWindow(
            source: .accelerometer, startSeconds: start, endSeconds: end, breathsPerMinute: nil, quality: nil, used: [:],
            nullReason: nil)
        guard Double(inside.count) >= 0.9 * w / Self.bin else {
            row.nullReason = "too few accelerometer samples: fewer than 90 % of the window's 0.25-s bins hold one"
            return row
        }
        // Stillness: the 5-s mean arm angle stays within 5°.
        var blocks = [Int: (sum: Double, n: Double)]()
        for b in inside {
            let angle = atan2(b.z, (b.x * b.x + b.y * b.y).squareRoot()) * 180 / Double.pi
            let i = Int(((b.time - start) / 5).rounded(.down))
            blocks[i, default: (0, 0)].sum += angle
            blocks[i, default: (0, 0)].n += 1
        }
        let means = blocks.values.map { $0.sum / $0.n }
        let range = (means.max() ?? 0) - (means.min() ?? 0)
        guard range <= Self.stillDegrees else {
            row.nullReason =
                "not still: the 5-s mean arm angle varies by \(Double(Int(range * 10)) / 10)° (more than \(Self.stillDegrees)°) in the window"
            return row
        }
        // Principal axis of the window's (centred) bin means: the largest eigenvector of their
        // covariance, by power iteration.
        let reach = bins.filter { $0.time >= start - margin && $0.time < end + margin }
        let n = Double(inside.count)
        let m = (
            inside.reduce(0) { $0 + $1.x } / n, inside.reduce(0) { $0 + $1.y } / n, inside.reduce(0) { $0 + $1.z } / n
        )
        var c = [Double](repeating: 0, count: 9)
        for b in inside {
            let d = [b.x - m.0, b.y - m.1, b.z - m.2]
            for i in 0..<3 { for j in 0..<3 { c[3 * i + j] += d[i] * d[j] } }
        }
        var v = [1.0, 1.0, 1.0].map { $0 / 3.0.squareRoot() }
        for _ in 0..<100 {
            var u = [0.0, 0.0, 0.0]
            for i in 0..<3 { for j in 0..<3 { u[i] += c[3 * i + j] * v[j] } }
            let norm = (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).squareRoot()
            guard norm > 0, norm.isFinite else { break }
            v = u.map { $0 / norm }
        }
        let times = reach.map(\.time)
        let values = reach.map { ($0.x - m.0) * v[0] + ($0.y - m.1) * v[1] + ($0.z - m.2) * v[2] }
        guard
            let e = RespiratorySpectrum.estimate(
                times: times, values: values, start: start, seconds: w, margin: margin, gridHz: options.gridHz)
        else {
            row.nullReason = "no variation along the principal axis"
            return row
        }
        row.quality = e.purity
        guard e.purity >= options.minimumPurity, e.autocorrelation >= options.minimumAutocorrelation,
            let counted = e.countedBreathsPerMinute, abs(counted - e.breathsPerMinute) <= options.countAgreementBreathsPerMinute
        else {
            row.nullReason =
                "the principal-axis signal fails quality (spectral purity ≥ \(options.minimumPurity), autocorrelation ≥ "
                + "\(options.minimumAutocorrelation), breath count within \(options.countAgreementBreathsPerMinute) breaths/min of the peak)"
            return row
        }
        row.breathsPerMinute = e.breathsPerMinute
        return row
    }
}
