/// Summary figures of one ECG stream (one row of the `ecg_summary` table): how many beats of
/// each class, the mean heart rate, the share of ectopic beats and how much of the stream is
/// usable.
public struct ECGSummary: Sendable, Equatable {
    /// Detected beats that the correction kept (removed extra detections are not counted).
    public var beatCount = 0
    /// Of those, beats classified normal, supraventricular, ventricular and unclassifiable.
    public var normalCount = 0
    public var supraventricularCount = 0
    public var ventricularCount = 0
    public var unclassifiableCount = 0
    /// 60000 / the mean interval of the corrected beat series (every beat, ectopic ones too),
    /// beats per minute; `nil` without intervals.
    public var meanHeartRateBPM: Double?
    /// (S + V) / classified beats, 0…1; `nil` without beats.
    public var ectopicShare: Double?
    /// Share of the quality-assessed time not labelled `unacceptable`, 0…1; `nil` when no
    /// window was assessed (e.g. a stream shorter than one quality window).
    public var usableShare: Double?
    /// Share of the corrected series' intervals used as NN intervals by the whole-stream HRV,
    /// 0…1; `nil` without intervals.
    public var nnShare: Double?
    /// The recording device's own rhythm classification, exactly as its export wrote it (Apple
    /// Health ECG CSV: `Classification`, e.g. `Sinus Rhythm`; the stream attribute
    /// `classification`), or `nil` when the input has none. The device's result, not SensorPipe's.
    public var deviceClassification: String?

    /// Creates an empty summary.
    public init() {}

    /// Accumulates a summary while the beat series is emitted.
    struct Tally {
        var summary = ECGSummary()
        var intervals = 0
        var sum = 0.0
        var assessed = 0.0
        var usable = 0.0

        mutating func addWindow(seconds: Double, unacceptable: Bool) {
            assessed += seconds
            if !unacceptable { usable += seconds }
            summary.usableShare = assessed > 0 ? usable / assessed : nil
        }

        mutating func add(_ b: SeriesBeat) {
            if let nn = b.nnMilliseconds {
                intervals += 1
                sum += nn
                summary.meanHeartRateBPM = 60000 / (sum / Double(intervals))
            }
            guard !b.isRemovedExtra, b.detectionTimeSeconds != nil else { return }
            summary.beatCount += 1
            switch b.beatClass {
            case .normal?: summary.normalCount += 1
            case .supraventricular?: summary.supraventricularCount += 1
            case .ventricular?: summary.ventricularCount += 1
            case .unclassifiable?: summary.unclassifiableCount += 1
            case nil: break
            }
            let classified = summary.normalCount + summary.supraventricularCount + summary.ventricularCount + summary.unclassifiableCount
            if classified > 0 {
                summary.ectopicShare = Double(summary.supraventricularCount + summary.ventricularCount) / Double(classified)
            }
        }

        var recordingHRV: HRVResult? {
            get { nil }
            set {
                guard let h = newValue, intervals > 0 else { return }
                summary.nnShare = Double(h.intervalCount) / Double(intervals)
            }
        }
    }
}

extension ECGAnalyzer {
    /// Ventricular probability from which a beat classified normal counts as uncertain.
    static let uncertainVentricularProbability = 0.2
    /// QRS width of the normal template from which HRV measures intervals between template-matched
    /// fiducial points instead of R apices, seconds: 120 ms, the QRS duration of complete bundle
    /// branch block (Surawicz et al. 2009, AHA/ACCF/HRS recommendations for the standardization
    /// and interpretation of the ECG, part III, J Am Coll Cardiol 53(11):976–981,
    /// doi:10.1016/j.jacc.2008.12.013), whose notched R waves make the apex jump between notches.
    static let wideQRSSeconds = BeatClassifier.wideQRSSeconds

    /// The HRV fiducial point of a beat relative to its R apex, input samples: the normal-template
    /// match (``BeatFeatures/normalAlignmentSamples``) when the normal QRS is wide, else 0.
    static func fiducialOffsetSamples(_ b: ClassifiedBeat) -> Double {
        guard (b.features.normalQRSWidthSeconds ?? 0) >= wideQRSSeconds else { return 0 }
        return b.features.normalAlignmentSamples ?? 0
    }

    /// Whether a classified beat's class is uncertain: a beat classified normal whose ventricular
    /// probability (``BeatFeatures/ventricularProbability``) is at least
    /// ``uncertainVentricularProbability``, or a suspected fusion beat
    /// (``BeatFeatures/fusionSuspected``). Its intervals are left out of HRV.
    static func isUncertain(_ b: ClassifiedBeat) -> Bool {
        b.beatClass == .normal
            && ((b.features.ventricularProbability ?? 0) >= uncertainVentricularProbability || b.features.fusionSuspected)
    }
}
