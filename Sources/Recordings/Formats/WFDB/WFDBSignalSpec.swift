/// One signal specification line of a WFDB header (`.hea`), with the defaults of header(5)
/// applied to omitted fields.
///
/// Grammar (fields separated by spaces or tabs; the bracketed parts are optional and each may be
/// present only if the field before it is):
/// ```
/// file format[xSamplesPerFrame][:skew][+byteOffset] [gain[(baseline)][/units] [adcResolution
///     [adcZero [initialValue [checksum [blockSize [description…]]]]]]]
/// ```
/// e.g. `100.dat 212 200 11 1024 995 -22131 0 MLII` or `118e_6.dat 16 200(1024)/mV 11 0 -167 1467 0 MLII`.
///
/// Source: PhysioNet WFDB Applications Guide, header(5) (G. B. Moody, WFDB Software Package
/// 10.x); Goldberger A. L. et al., PhysioBank, PhysioToolkit, and PhysioNet, Circulation
/// 101(23):e215–e220, 2000, doi:10.1161/01.CIR.101.23.e215.
public struct WFDBSignalSpec: Sendable, Hashable {
    /// Signal file name as written (relative to the header's directory unless absolute).
    public var fileName: String
    /// Storage format number (signal(5)): 8, 16, 24, 32, 61, 80, 160, 212, 310, 311, …
    public var format: Int
    /// Samples of this signal in each frame (≥ 1; the signal's rate is this × the record's rate).
    public var samplesPerFrame: Int
    /// Samples of this signal that precede sample 0 in its file (≥ 0).
    public var skew: Int
    /// Bytes before the first sample in the signal file (preamble length, ≥ 0).
    public var byteOffset: Int
    /// ADC gain as written, in ADC units (adu) per physical unit; 0 when absent or written as 0
    /// (uncalibrated, see ``effectiveGain``).
    public var adcGain: Double
    /// Sample value (adu) that corresponds to 0 physical units; the ADC zero when not written.
    public var baseline: Int
    /// Physical unit as written (e.g. `mV`, `uV`, `mmHg`); `mV` when absent.
    public var units: String
    /// ADC resolution in bits; 0 when absent (header(5) default: 12 for amplitude formats).
    public var adcResolution: Int
    /// Sample value for an input in the middle of the ADC range (adu); 0 when absent.
    public var adcZero: Int
    /// Value of sample 0 (adu); the ADC zero when absent. Used as the start value of format 8
    /// (first differences); for the other formats a check of the first decoded sample.
    public var initialValue: Int
    /// 16-bit signed checksum of all samples of the signal, or `nil` when absent.
    public var checksum: Int?
    /// Block size in bytes (usually 0).
    public var blockSize: Int
    /// Signal description (e.g. `MLII`), empty when absent.
    public var description: String
    /// Whether the header writes the baseline in parentheses after the gain.
    public var hasBaseline: Bool
    /// Whether the header writes the units after the gain.
    public var hasUnits: Bool
    /// Whether the header writes the initial value.
    public var hasInitialValue: Bool
    /// 1-based line of this specification in the header file (for error messages).
    public var line: Int

    /// The gain to convert with, adu per physical unit: ``adcGain``, or 200 (`DEFGAIN`) when the
    /// header gives 0 or nothing, as header(5) prescribes for uncalibrated signals.
    public var effectiveGain: Double { adcGain == 0 ? 200 : adcGain }

    /// Whether the header gives a non-zero gain (the amplitude is calibrated).
    public var isCalibrated: Bool { adcGain != 0 }

    /// Physical value of a sample: `(adu − baseline) / gain`, in ``units``.
    /// - Parameter adu: sample value in ADC units.
    /// - Returns: the value in the signal's physical unit.
    /// - Complexity: O(1).
    @inlinable
    public func physicalValue(_ adu: Int) -> Double {
        (Double(adu) - Double(baseline)) / effectiveGain
    }

    /// Creates a specification with header(5) defaults for everything but the file and format.
    /// - Parameters:
    ///   - fileName: signal file name.
    ///   - format: storage format number.
    ///   - line: header line (default 0: not from a file).
    /// - Complexity: O(1).
    public init(fileName: String, format: Int, line: Int = 0) {
        self.fileName = fileName
        self.format = format
        samplesPerFrame = 1
        skew = 0
        byteOffset = 0
        adcGain = 0
        baseline = 0
        units = "mV"
        adcResolution = 0
        adcZero = 0
        initialValue = 0
        checksum = nil
        blockSize = 0
        description = ""
        hasBaseline = false
        hasUnits = false
        hasInitialValue = false
        self.line = line
    }
}
