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
                .waveform(
                    ReportWaveform(
                        id: "respiration-signal", title: "Respiratory signal",
                        rows: ReportRows(RespirationTables.signal.table), x: "time", values: ["value"], plotBy: "stream", note: "note",
                        markers: ReportWaveformMarkers(
                            name: "breath", rows: ReportRows(RespirationTables.signal.table, where: [ReportFilter("breath", "1")]),
                            x: "time"),
                        whenEmpty: "no ECG lead or optical stream has a window with a breathing rate")),
            ],
            shows:
                "the breathing rate per window of each ECG lead, optical stream and their fusion, with each row's quality (spectral purity) under it, and the modulation rates each stream used, and per stream the respiratory signal of its best-rated window with the breaths counted",
            methods:
                "Per ECG lead the R apex above the PR-segment baseline, the QRS area and the RR intervals of normal beats, and per optical stream the pulse amplitude (RIAV), the mean of peak and foot (RIIV) and the pulse interval (RIFV), all from beats in windows not labelled unacceptable (RIAV and RIIV also from pulses whose window fails only the interval-ratio rule: a missed pulse, ectopic beats, AF), are linearly interpolated onto a 4-Hz grid per 32-s window (with 4 s either side), band-passed to 0.1–0.7 Hz forward and backward, and their Hann-windowed periodograms normalised. Spectral fusion: the mean of the normalised spectra of a stream's modulations (fused rows: of every ECG and PPG modulation, the beat interval counted once) over the window and its two neighbours each side (160 s, look-ahead two windows; Welch-style averaging) is peak-picked in 0.1–0.7 Hz; the rate is that peak when its concentration (the share of the fused spectrum within ±1/64 Hz of the peak, the quality shown: ECG 0.22, PPG 0.22, fused 0.22) or its local concentration (the share of the spectrum within ±3/32 Hz of the peak that lies within ±1/64 Hz of it: ECG 0.43, PPG 0.43, fused 0.40) reaches a threshold set from simulated beats without breathing (the largest value over those simulated windows). Otherwise smart fusion decides: each modulation's own peak is used when it passes three respiratory quality indices (spectral purity ≥ 0.3, autocorrelation at the rate's period ≥ 0.4, a time-domain breath count within 3 breaths/min of the peak), and the rate is the mean of two or more used rates that agree (standard deviation below 4 breaths/min); else the rate is empty with the reason. The strip shows, per stream, the band-passed modulation of its highest-quality window with a rate whose own peak is nearest that rate, each counted breath (cycle between upward zero crossings) marked at its maximum.",
            citations: [
                "Karlen W, Raman S, Ansermino JM, Dumont GA (2013) Multiparameter respiratory rate estimation from the photoplethysmogram. IEEE Trans Biomed Eng 60(7):1946–1953.",
                "Charlton PH et al. (2016) An assessment of algorithms to estimate respiratory rate from the electrocardiogram and photoplethysmogram. Physiol Meas 37(4):610–626.",
                "Moody GB, Mark RG, Zoccola A, Mantero S (1985) Derivation of respiratory signals from multi-lead ECGs. Computers in Cardiology 12:113–116.",
                "Birrenkott DA, Pimentel MAF, Watkinson PJ, Clifton DA (2018) A robust fusion model for estimating respiratory rate from photoplethysmography and electrocardiography. IEEE Trans Biomed Eng 65(9):2033–2041.",
                "Nemati S, Malhotra A, Clifford GD (2010) Data fusion for improved respiration rate estimation. EURASIP J Adv Signal Process 2010:926305.",
                "Welch PD (1967) The use of fast Fourier transform for the estimation of power spectra. IEEE Trans Audio Electroacoust 15(2):70–73.",
                "Schäfer A, Kratky KW (2008) Estimation of breathing rate from respiratory sinus arrhythmia: comparison of various methods. Ann Biomed Eng 36(3):476–485.",
            ])
    }
}
