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
                "Per ECG lead the R apex above the PR-segment baseline, the QRS area and the RR intervals of normal beats, and per optical stream the pulse amplitude (RIAV), the mean of peak and foot (RIIV) and the pulse interval (RIFV), all from beats in windows not labelled unacceptable, are linearly interpolated onto a 4-Hz grid per 32-s window (with 4 s either side), band-passed to 0.1–0.7 Hz forward and backward; each modulation's rate is the periodogram peak in 0.1–0.7 Hz and is used when it passes three respiratory quality indices: spectral purity ≥ 0.3, autocorrelation at the rate's period ≥ 0.4, and a time-domain breath count within 3 breaths/min of the peak. A stream's rate is the mean of its used rates when two or more agree (standard deviation below 4 breaths/min; smart fusion); the fused rate applies the same rule to every ECG and PPG modulation used in the window; otherwise the rate is empty with the reason.",
            citations: [
                "Karlen W, Raman S, Ansermino JM, Dumont GA (2013) Multiparameter respiratory rate estimation from the photoplethysmogram. IEEE Trans Biomed Eng 60(7):1946–1953.",
                "Charlton PH et al. (2016) An assessment of algorithms to estimate respiratory rate from the electrocardiogram and photoplethysmogram. Physiol Meas 37(4):610–626.",
                "Moody GB, Mark RG, Zoccola A, Mantero S (1985) Derivation of respiratory signals from multi-lead ECGs. Computers in Cardiology 12:113–116.",
                "Birrenkott DA, Pimentel MAF, Watkinson PJ, Clifton DA (2018) A robust fusion model for estimating respiratory rate from photoplethysmography and electrocardiography. IEEE Trans Biomed Eng 65(9):2033–2041.",
                "Schäfer A, Kratky KW (2008) Estimation of breathing rate from respiratory sinus arrhythmia: comparison of various methods. Ann Biomed Eng 36(3):476–485.",
            ])
    }
}
