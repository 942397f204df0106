/// An MIT annotation type code (`anntyp`, 0…49 in `<wfdb/ecgcodes.h>`; 42…49 user-defined), with
/// its standard mnemonic and meaning.
///
/// Source: WFDB library `ecgcodes.h` and `annot.c` (`cstring`, `tstring`; G. B. Moody and
/// T. Baker); PhysioNet WFDB Programmer's Guide, "Annotation Codes"; Goldberger A. L. et al.,
/// Circulation 101(23):e215–e220, 2000, doi:10.1161/01.CIR.101.23.e215.
public struct WFDBAnnotationCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as stored in the file's 6-bit type field.
    public var rawValue: Int

    /// Creates a code from its number.
    /// - Parameter rawValue: 0…63 (59…63 are pseudo-codes that never appear in decoded annotations).
    /// - Complexity: O(1).
    public init(rawValue: Int) {
        precondition(rawValue >= 0 && rawValue < 64, "annotation codes are 6-bit")
        self.rawValue = rawValue
    }

    /// Not a QRS (0; not a code that `getann` normally returns).
    public static let notQRS = Self(rawValue: 0)
    /// `N` normal beat.
    public static let normal = Self(rawValue: 1)
    /// `L` left bundle branch block beat.
    public static let leftBundleBranchBlock = Self(rawValue: 2)
    /// `R` right bundle branch block beat.
    public static let rightBundleBranchBlock = Self(rawValue: 3)
    /// `a` aberrated atrial premature beat.
    public static let aberratedAtrialPremature = Self(rawValue: 4)
    /// `V` premature ventricular contraction.
    public static let prematureVentricular = Self(rawValue: 5)
    /// `F` fusion of ventricular and normal beat.
    public static let fusion = Self(rawValue: 6)
    /// `J` nodal (junctional) premature beat.
    public static let nodalPremature = Self(rawValue: 7)
    /// `A` atrial premature beat.
    public static let atrialPremature = Self(rawValue: 8)
    /// `S` premature or ectopic supraventricular beat.
    public static let supraventricularPremature = Self(rawValue: 9)
    /// `E` ventricular escape beat.
    public static let ventricularEscape = Self(rawValue: 10)
    /// `j` nodal (junctional) escape beat.
    public static let nodalEscape = Self(rawValue: 11)
    /// `/` paced beat.
    public static let paced = Self(rawValue: 12)
    /// `Q` unclassifiable beat.
    public static let unclassifiable = Self(rawValue: 13)
    /// `~` change in signal quality.
    public static let noise = Self(rawValue: 14)
    /// `|` isolated QRS-like artifact.
    public static let artifact = Self(rawValue: 16)
    /// `s` ST segment change.
    public static let stChange = Self(rawValue: 18)
    /// `T` T-wave change.
    public static let tWaveChange = Self(rawValue: 19)
    /// `*` systole.
    public static let systole = Self(rawValue: 20)
    /// `D` diastole.
    public static let diastole = Self(rawValue: 21)
    /// `"` comment annotation.
    public static let note = Self(rawValue: 22)
    /// `=` measurement annotation.
    public static let measurement = Self(rawValue: 23)
    /// `p` P-wave peak.
    public static let pWave = Self(rawValue: 24)
    /// `B` bundle branch block beat (unspecified).
    public static let bundleBranchBlock = Self(rawValue: 25)
    /// `^` (non-captured) pacemaker artifact.
    public static let pacemakerSpike = Self(rawValue: 26)
    /// `t` T-wave peak.
    public static let tWave = Self(rawValue: 27)
    /// `+` rhythm change (the rhythm is in the aux string, e.g. `(AFIB`).
    public static let rhythm = Self(rawValue: 28)
    /// `u` U-wave peak.
    public static let uWave = Self(rawValue: 29)
    /// `?` beat not classified during learning.
    public static let learning = Self(rawValue: 30)
    /// `!` ventricular flutter wave.
    public static let flutterWave = Self(rawValue: 31)
    /// `[` start of ventricular flutter/fibrillation.
    public static let ventricularFlutterOnset = Self(rawValue: 32)
    /// `]` end of ventricular flutter/fibrillation.
    public static let ventricularFlutterEnd = Self(rawValue: 33)
    /// `e` atrial escape beat.
    public static let atrialEscape = Self(rawValue: 34)
    /// `n` supraventricular escape beat.
    public static let supraventricularEscape = Self(rawValue: 35)
    /// `@` link to external data (aux holds a URL).
    public static let link = Self(rawValue: 36)
    /// `x` non-conducted P-wave (blocked APC).
    public static let nonConductedPWave = Self(rawValue: 37)
    /// `f` fusion of paced and normal beat.
    public static let pacedFusion = Self(rawValue: 38)
    /// `(` waveform onset.
    public static let waveformOnset = Self(rawValue: 39)
    /// `)` waveform end.
    public static let waveformEnd = Self(rawValue: 40)
    /// `r` R-on-T premature ventricular contraction.
    public static let rOnT = Self(rawValue: 41)

    static let mnemonics: [String] = [
        " ", "N", "L", "R", "a", "V", "F", "J", "A", "S",
        "E", "j", "/", "Q", "~", "[15]", "|", "[17]", "s", "T",
        "*", "D", "\"", "=", "p", "B", "^", "t", "+", "u",
        "?", "!", "[", "]", "e", "n", "@", "x", "f", "(",
        ")", "r",
    ]

    static let meanings: [String] = [
        "", "Normal beat", "Left bundle branch block beat", "Right bundle branch block beat",
        "Aberrated atrial premature beat", "Premature ventricular contraction",
        "Fusion of ventricular and normal beat", "Nodal (junctional) premature beat",
        "Atrial premature beat", "Supraventricular premature or ectopic beat",
        "Ventricular escape beat", "Nodal (junctional) escape beat", "Paced beat", "Unclassifiable beat",
        "Change in signal quality", "", "Isolated QRS-like artifact", "", "ST segment change",
        "T-wave change", "Systole", "Diastole", "Comment annotation", "Measurement annotation",
        "P-wave peak", "Bundle branch block beat (unspecified)", "(Non-captured) pacemaker artifact",
        "T-wave peak", "Rhythm change", "U-wave peak", "Beat not classified during learning",
        "Ventricular flutter wave", "Start of ventricular flutter/fibrillation",
        "End of ventricular flutter/fibrillation", "Atrial escape beat", "Supraventricular escape beat",
        "Link to external data (aux contains URL)", "Non-conducted P-wave (blocked APC)",
        "Fusion of paced and normal beat", "Waveform onset", "Waveform end",
        "R-on-T premature ventricular contraction",
    ]

    /// The standard mnemonic (`ecgstr`): `N`, `V`, `+`, …; `[n]` for codes without one.
    public var mnemonic: String {
        rawValue < Self.mnemonics.count ? Self.mnemonics[rawValue] : "[\(rawValue)]"
    }

    /// The standard description (`anndesc`), empty for codes without one.
    public var meaning: String { rawValue < Self.meanings.count ? Self.meanings[rawValue] : "" }

    public var description: String { mnemonic }

    /// The code with mnemonic `mnemonic` (`strecg`), or `nil` if none has it.
    /// - Parameter mnemonic: e.g. `"N"`, `"/"`, `"+"`.
    /// - Complexity: O(number of codes).
    public init?(mnemonic: String) {
        guard let i = Self.mnemonics.indices.dropFirst().first(where: { Self.mnemonics[$0] == mnemonic }) else {
            return nil
        }
        rawValue = i
    }
}
