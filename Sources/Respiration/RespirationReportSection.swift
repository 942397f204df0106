import Signals

extension RespirationFamily {
    /// The respiration section of the report: breathing rate per source over time with the
    /// rows' quality (spectral purity) under it, one plot per stream, and the fused rate; a
    /// table of the windows without a rate and why.
    public static var reportSection: ReportSection {
        let table = RespirationTables.respiration.table
        return ReportSection(
            title: "Respiration: breathing rate",
            results: [ReportRows(table)],
            items: [
                .timeSeries(
                    ReportTimeSeries(
                        id: "respiration-rate", title: "Breathing rate per source", rows: ReportRows(table),
                        values: ["breaths_per_min"], seriesBy: ["source", "stream"], confidence: "quality",
                        whenEmpty: "no respiration window in this recording (no ECG beats or PPG pulses)")),
                .timeSeries(
                    ReportTimeSeries(
                        id: "respiration-modulations", title: "Breathing rate per modulation",
                        rows: ReportRows(table, where: [ReportFilter("source", "ecg", "ppg")]),
                        values: ["rate_amplitude", "rate_frequency", "rate_intensity", "rate_qrs_area"], plotBy: "stream",
                        whenEmpty: "no ECG or PPG respiration window in this recording")),
            ],
            shows:
                "the breathing rate per window of each ECG lead, optical stream and their fusion, with each row's quality (spectral purity) under it, and the modulation rates each stream used",
            methods:
                "Per ECG lead the R apex above the PR-segment baseline, the QRS area and the RR intervals of normal beats, and per optical stream the pulse amplitude (RIAV), the mean of peak and foot (RIIV) and the pulse interval (RIFV), all from beats in windows not labelled unacceptable, are linearly interpolated onto a 4-Hz grid per 32-s window (with 4 s either side), band-passed to 0.1–0.7 Hz forward and backward; each modulation's rate is the periodogram peak in 0.1–0.7 Hz and is used when its spectral purity reaches 0.3. A stream's rate is the mean of its used rates when two or more agree (standard deviation below 4 breaths/min; smart fusion); the fused rate is the ECG rate, the PPG rate, or their mean when both exist and agree by the same rule; otherwise the rate is empty with the reason.",
            citations: [
                "Karlen W, Raman S, Ansermino JM, Dumont GA (2013) Multiparameter respiratory rate estimation from the photoplethysmogram. IEEE Trans Biomed Eng 60(7):1946–1953.",
                "Charlton PH et al. (2016) An assessment of algorithms to estimate respiratory rate from the electrocardiogram and photoplethysmogram. Physiol Meas 37(4):610–626.",
                "Moody GB, Mark RG, Zoccola A, Mantero S (1985) Derivation of respiratory signals from multi-lead ECGs. Computers in Cardiology 12:113–116.",
            ])
    }
}
