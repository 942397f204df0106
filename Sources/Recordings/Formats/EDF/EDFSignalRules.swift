/// How an EDF/BDF signal becomes a SensorPipe stream: the documented rules on its label and
/// transducer (``classify(_:)``), and the unit each delivered kind is converted to.
///
/// Rules, on the upper-cased label and transducer, first match wins:
/// 1. `ECG` or `EKG` → ``SensorKind/electrocardiogram`` (a voltage unit `uV`/`µV`/`mV`/`V`/`nV`
///    is required: values are delivered in µV, like WFDB and SensorKit ECG).
/// 2. `PPG`, `PLETH`, `BVP` → ``SensorKind/photoplethysmogram`` (values as written, unit kept in
///    `edf.physical_dimension`).
/// 3. A label ending in an axis letter `X`, `Y` or `Z` after `ACC`, `ACCEL`… (or a transducer
///    naming an accelerometer) → one axis of ``SensorKind/accelerometer``; three axes with the same
///    remaining label, unit and samples per record form one x, y, z stream in g (`g`, `mg`,
///    `m/s^2`, `m/s2` are converted). Axes that do not make a full set are not delivered.
/// 4. Everything else (EEG, EOG, EMG, respiration, temperature, SpO2, event markers…) is decoded and
///    checked but not delivered: no SensorPipe analysis reads it, and an issue names each such signal
///    and what it is (``kindName(_:)``: respiration for `RESP`/`THOR`/`ABDO`/`FLOW`, temperature for
///    `TEMP`, …).
///
/// An override (``DecodeOptions/edfSignalSensors``, `--edf-signal LABEL=KIND`) replaces the rules for
/// a label.
public enum EDFSignalRules {
    /// The sensor the rules give a signal, or `nil` when it is not delivered.
    /// - Parameter signal: the signal's header fields.
    /// - Returns: the sensor kind, or `nil`.
    /// - Complexity: O(label + transducer length).
    public static func classify(_ signal: EDFHeader.Signal) -> SensorKind? {
        let l = signal.label.uppercased(), t = signal.transducer.uppercased()
        let both = l + " " + t
        if both.contains("ECG") || both.contains("EKG") { return .electrocardiogram }
        if both.contains("PPG") || both.contains("PLETH") || both.contains("BVP") { return .photoplethysmogram }
        if axis(of: signal) != nil { return .accelerometer }
        return nil
    }

    /// What a signal that is not delivered is, for the issue that names it.
    /// - Parameter signal: the signal's header fields.
    /// - Returns: e.g. `respiration`, `temperature`, `EEG`, or `signal of unknown kind`.
    public static func kindName(_ signal: EDFHeader.Signal) -> String {
        let both = (signal.label + " " + signal.transducer).uppercased()
        for (words, name) in [
            (["RESP", "THOR", "ABDO", "ABD ", "FLOW", "NASAL", "BREATH"], "respiration"),
            (["TEMP"], "temperature"), (["SPO2", "SAO2", "OXYGEN"], "oxygen saturation"),
            (["EEG"], "EEG"), (["EOG"], "EOG"), (["EMG"], "EMG"), (["EVENT", "MARKER", "TRIGGER"], "event marker"),
        ] where words.contains(where: { both.contains($0) }) {
            return name
        }
        return "signal of unknown kind"
    }

    /// The accelerometer axis (0, 1, 2 for x, y, z) and the group name (label without the axis) of
    /// a signal whose label names one, else `nil`.
    static func axis(of signal: EDFHeader.Signal) -> (axis: Int, group: String)? {
        let label = signal.label
        guard let last = label.uppercased().last, let axis = ["X": 0, "Y": 1, "Z": 2][String(last)] else { return nil }
        var rest = String(label.dropLast())
        while let c = rest.last, c == " " || c == "_" || c == "-" || c == "." || c == ":" { rest.removeLast() }
        let accelerometer =
            rest.uppercased().contains("ACC") || rest.uppercased().contains("ACTI")
            || signal.transducer.uppercased().contains("ACCELER")
        guard accelerometer else { return nil }
        return (axis, rest)
    }

    /// Factor from an EDF voltage unit to µV, or `nil` for a non-voltage unit.
    static func microvoltFactor(_ unit: String) -> Double? {
        switch unit {
        case "uV", "uv", "µV", "μV", "UV": 1
        case "mV", "mv", "MV": 1000
        case "V", "v": 1_000_000
        case "nV", "nv": 0.001
        default: nil
        }
    }

    /// Factor from an EDF acceleration unit to g, or `nil` when unknown.
    static func gravityFactor(_ unit: String) -> Double? {
        switch unit.lowercased() {
        case "g": 1
        case "mg": 0.001
        case "m/s^2", "m/s2", "m/s²", "ms-2", "m s-2": 1 / PhysicalUnit.standardGravityInMetresPerSecondSquared
        default: nil
        }
    }

    /// Parses an override kind: `ecg`, `ppg`, `accelerometer`, a ``SensorKind`` raw value, or
    /// `none` (not delivered).
    /// - Parameter text: the kind.
    /// - Returns: `.some(kind)` or `.some(nil)` for `none`; `nil` when unknown.
    public static func overrideKind(_ text: String) -> SensorKind?? {
        switch text.lowercased() {
        case "ecg", "electrocardiogram": .some(.electrocardiogram)
        case "ppg", "photoplethysmogram": .some(.photoplethysmogram)
        case "acc", "accelerometer": .some(.accelerometer)
        case "none": .some(nil)
        default: nil
        }
    }
}
