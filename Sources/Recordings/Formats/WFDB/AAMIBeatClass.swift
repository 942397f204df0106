/// The five heartbeat classes of ANSI/AAMI EC57 used to report beat-classification performance.
///
/// Source: ANSI/AAMI EC57:2012, *Testing and reporting performance results of cardiac rhythm and
/// ST segment measurement algorithms*, Association for the Advancement of Medical
/// Instrumentation (table of MIT-BIH beat labels per class).
public enum AAMIBeatClass: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Non-ectopic (normal, bundle branch block, escape beats).
    case n = "N"
    /// Supraventricular ectopic beat.
    case s = "S"
    /// Ventricular ectopic beat.
    case v = "V"
    /// Fusion of ventricular and normal beat.
    case f = "F"
    /// Unknown (paced, paced fusion, unclassifiable).
    case q = "Q"

    public var description: String { rawValue }
}
