// SensorPipe: the umbrella module. `import SensorPipe` gives the whole public API:
//
// - `DSP`: FFTs, FIR/IIR filtering, resampling, spectra, peaks, LAPACK wrappers.
// - `Recordings`: the data model and streaming decoders (`RecordingOpener.open(path:)`,
//   `RecordingEvent`, `SampleBlock`, `StreamInfo`).
// - `Cardio`: R-peak detection, artefact correction, HRV (`HRVMetrics`), ECG signal quality.
// - `Motion`: accelerometer and rotation-rate analysis (epochs, counts, steps, sleep).
// - `Features`: the windowed feature catalog.
// - `Respiration`: breathing rate per window from ECG beats and PPG pulses (per modulation and fused).
// - `Rhythm`: rhythm labels (sinus, AF, other, noisy) per window, AF episodes and burden.
// - `Pipeline`: stages and result tables (`ECGAnalyzer` with its typed `ECGResults`,
//   `RecordingAnalysis`, the CSV and SQLite sinks, the summary tables).
// - `Report`: HTML reports of a results database (`Report.write(database:to:)`).
//
// See Sources/SensorPipe/README.md and Examples/.

@_exported import Cardio
@_exported import DSP
@_exported import Features
@_exported import Motion
@_exported import Pipeline
@_exported import Recordings
@_exported import Report
@_exported import Respiration
@_exported import Rhythm
