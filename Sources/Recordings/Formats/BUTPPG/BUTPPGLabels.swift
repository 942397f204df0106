/// Meanings of the BUT PPG annotation codes, as the database and the export document them.
///
/// Sources: Nemcova A. et al., "Brno University of Technology Smartphone PPG Database (BUT PPG)",
/// PhysioNet, version 2.0.0 (2024), doi:10.13026/tn53-8153 (quality 1 = good for heart-rate
/// estimation, 0 = poor; reference HR from the simultaneous ECG); the exporting repository's
/// `loadData.m` (GitHub kimchi2025/BioSignal-BUTPPG-Evaluation), which lists the `Ear/finger`
/// and `Motion` codes of `subject-info.csv` and adds motion code 8 for records marked "2;3".
enum BUTPPGLabels {
    /// `Quality`: 1 good, 0 poor.
    static func quality(_ code: String) -> String? {
        switch code {
        case "1": return "good"
        case "0": return "poor"
        default: return nil
        }
    }

    /// `Location`: 0 ear (front camera), 1 finger (rear camera).
    static func location(_ code: String) -> String? {
        switch code {
        case "0": return "ear"
        case "1": return "finger"
        default: return nil
        }
    }

    /// `Motion`: the condition during the recording.
    static func motion(_ code: String) -> String? {
        switch code {
        case "0": return "rest"
        case "1": return "higher pressure of finger/ear on the camera"
        case "2": return "moving the finger/ear on the lens"
        case "3": return "walking"
        case "4": return "coughing"
        case "5": return "laughing"
        case "6": return "changing the light"
        case "7": return "talking"
        case "8": return "moving the finger/ear on the lens and walking (codes 2;3; code 8 added by the exporter)"
        default: return nil
        }
    }
}
