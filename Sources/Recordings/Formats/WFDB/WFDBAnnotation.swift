/// One annotation of a WFDB annotation file (`WFDB_Annotation`).
public struct WFDBAnnotation: Sendable, Hashable {
    /// Time of the annotation as a sample number of the record (frames at the record's sampling
    /// frequency), from 0.
    public var sample: Int
    /// Annotation type.
    public var code: WFDBAnnotationCode
    /// Subtype (signed 8-bit; e.g. −1 for an unreadable `~` noise annotation), 0 when absent.
    public var subtype: Int
    /// Signal the annotation is attached to (unsigned 8-bit); persists from the previous
    /// annotation when the file does not set it.
    public var channel: Int
    /// Annotator-defined number (signed 8-bit); persists like ``channel``.
    public var number: Int
    /// Auxiliary text (e.g. the rhythm `(AFIB` of a `+` annotation), trailing NULs removed;
    /// `nil` when absent.
    public var aux: String?

    /// Creates an annotation (fields as documented on the properties).
    /// - Complexity: O(1).
    public init(
        sample: Int, code: WFDBAnnotationCode, subtype: Int = 0, channel: Int = 0, number: Int = 0,
        aux: String? = nil
    ) {
        self.sample = sample
        self.code = code
        self.subtype = subtype
        self.channel = channel
        self.number = number
        self.aux = aux
    }
}
