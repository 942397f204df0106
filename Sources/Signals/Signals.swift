/// `Signals`: the model every stage shares and nothing else — sensors, devices, stream keys and
/// descriptions, time bases, per-sample flags, sample blocks, deletion records and the per-stream
/// QC account — plus the analysis contract (``RecordingAnalyzer``) and the declared result
/// schemas analyses emit rows through. It knows no file format, database or analysis family.
public enum Signals {}
