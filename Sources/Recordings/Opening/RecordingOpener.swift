/// Options for opening a recording with ``RecordingOpener``.
public struct DecodeOptions: Sendable {
    /// Maximum samples per block (memory per stream is about two blocks).
    public var blockCapacity: Int
    /// Force a format instead of sniffing it from content.
    public var format: RecordingFormat?
    /// Use a known layout for CSV/MATLAB files (otherwise it is detected from content).
    public var preset: RecordingPreset?
    /// Explicit CSV mapping (overrides ``preset``).
    public var csvMapping: CSVMapping?
    /// A CSV mapping given as command-line texts (`--csv-time`, `--csv-column`), used when
    /// ``csvMapping`` is `nil` (overrides ``preset``).
    public var csvColumns: CSVColumnOptions?
    /// Explicit MATLAB mapping (overrides ``preset``).
    public var matlabMapping: MATLABChannelMapping?
    /// Whether an integrity failure fails the recording (default `true`): a WFDB checksum,
    /// first-value or size mismatch between header and data, a WFDB header with more
    /// specification lines than signals, a GT3X ZIP entry whose CRC-32 or size differs from the
    /// ZIP directory. `false` delivers the data and reports each failure as an issue.
    public var verifiesIntegrity: Bool = true
    /// EDF/BDF signals whose sensor is given instead of found by ``EDFSignalRules``: label →
    /// kind, or `nil` for "not delivered" (`--edf-signal LABEL=KIND`).
    public var edfSignalSensors: [String: SensorKind?] = [:]

    /// Creates options; every field defaults to automatic behaviour.
    public init(
        blockCapacity: Int = 65_536, format: RecordingFormat? = nil, preset: RecordingPreset? = nil,
        csvMapping: CSVMapping? = nil, matlabMapping: MATLABChannelMapping? = nil
    ) {
        self.blockCapacity = blockCapacity
        self.format = format
        self.preset = preset
        self.csvMapping = csvMapping
        self.matlabMapping = matlabMapping
    }
}

/// Opens any supported recording: sniffs the format from content and creates its decoder.
public enum RecordingOpener {
    /// What was opened and how.
    public struct Opened {
        /// The decoder, ready for ``RecordingDecoder/next()``.
        public var decoder: any RecordingDecoder
        /// The format used.
        public var format: RecordingFormat
        /// The preset used for a CSV/MATLAB file, if any (given or detected).
        public var preset: RecordingPreset?
        /// Whether the preset was detected from content rather than given.
        public var presetDetected: Bool
    }

    /// Every file the recording at `path` is read from: the file itself, or for a WFDB record
    /// its header and signal files (``WFDBDecoder/files(ofRecord:)``). A batch hashes and sizes
    /// all of them, so that a changed signal file is noticed.
    /// - Parameters:
    ///   - path: as for ``open(path:options:)``.
    ///   - options: the format override, if any.
    /// - Returns: paths, `path` first.
    /// - Throws: ``RecordingError`` as ``open(path:options:)`` would for a missing signal file or
    ///   an unreadable header.
    /// - Complexity: reads the first few KiB (and a WFDB header).
    public static func files(path: String, options: DecodeOptions = DecodeOptions()) throws(RecordingError) -> [String] {
        try identify(path: path, options: options).files
    }

    /// The format of the recording at `path` and every file it is read from (as
    /// ``files(path:options:)``), recognised once: pass the format on as ``DecodeOptions/format``
    /// when opening it, so its head is not read again.
    /// - Parameters:
    ///   - path: as for ``open(path:options:)``.
    ///   - options: the format override, if any.
    /// - Returns: the format (sniffed, or the override) and the paths, `path` first.
    /// - Throws: ``RecordingError`` as ``files(path:options:)``.
    /// - Complexity: reads the first few KiB (and a WFDB header).
    public static func identify(
        path: String, options: DecodeOptions = DecodeOptions()
    ) throws(RecordingError) -> (format: RecordingFormat, files: [String]) {
        let format: RecordingFormat
        if let forced = options.format { format = forced } else { format = try RecordingFormat.sniff(path: path) }
        guard format == .wfdb else { return (format, [path]) }
        return (format, try WFDBDecoder.files(ofRecord: path))
    }

    /// Opens `path` for decoding.
    /// - Parameters:
    ///   - path: a recording file (`.ndjson[.gz]`, `.json[.gz]`, Apple Health `.csv`, WFDB `.hea`,
    ///     `.mat`, BUT PPG `.csv`, ActiGraph `.gt3x`, mapped `.csv`; `.gz`/`.xz` compression is
    ///     recognised from content).
    ///   - options: format, mapping and block-size overrides.
    /// - Returns: the decoder and how the file was interpreted.
    /// - Throws: ``RecordingError``: `.unknownFormat` when the content matches no format, or
    ///   `.missingField` for a CSV/MATLAB file whose layout is unknown and no mapping was given,
    ///   and the decoder's own errors.
    /// - Complexity: reads the first few KiB to sniff; decoding is lazy.
    public static func open(path: String, options: DecodeOptions = DecodeOptions()) throws(RecordingError) -> Opened {
        let format: RecordingFormat
        if let forced = options.format { format = forced } else { format = try RecordingFormat.sniff(path: path) }
        let capacity = options.blockCapacity
        switch format {
        case .sensorKitNDJSON, .myDataHelpsJSON:
            return Opened(
                decoder: try SensorKitDecoder(path: path, blockCapacity: capacity, format: format),
                format: format, preset: nil, presetDetected: false)
        case .appleHealthECG:
            return Opened(
                decoder: try AppleHealthECGDecoder(path: path, blockCapacity: capacity),
                format: format, preset: nil, presetDetected: false)
        case .wfdb:
            return Opened(
                decoder: try WFDBDecoder(
                    path: path, blockCapacity: capacity,
                    verifiesIntegrity: options.verifiesIntegrity),
                format: format, preset: nil, presetDetected: false)
        case .appleHealthExport:
            return Opened(
                decoder: try AppleHealthExportDecoder(path: path, blockCapacity: capacity),
                format: format, preset: nil, presetDetected: false)
        case .butPPG:
            return Opened(
                decoder: try BUTPPGDecoder(path: path, blockCapacity: capacity),
                format: format, preset: nil, presetDetected: false)
        case .gt3x:
            return Opened(
                decoder: try GT3XDecoder(
                    path: path, blockCapacity: capacity,
                    verifiesIntegrity: options.verifiesIntegrity),
                format: format, preset: nil, presetDetected: false)
        case .edf:
            let overrides = options.edfSignalSensors
            return Opened(
                decoder: try EDFDecoder(
                    path: path, blockCapacity: capacity,
                    sensor: { signal in
                        if let given = overrides[signal.label] { return given }
                        return EDFSignalRules.classify(signal)
                    },
                    verifiesIntegrity: options.verifiesIntegrity, keepsAnnotations: false),
                format: format, preset: nil, presetDetected: false)
        case .csv:
            var given = options.csvMapping
            if given == nil, let columns = options.csvColumns { given = try columns.mapping(path: path) }
            if let mapping = given {
                return Opened(
                    decoder: try CSVDecoder(path: path, mapping: mapping, blockCapacity: capacity),
                    format: format, preset: nil, presetDetected: false)
            }
            let (preset, detected) = try choosePreset(path: path, format: format, given: options.preset)
            guard let mapping = preset.csvMapping(path: path) else {
                throw RecordingError(.inconsistent, file: path, "preset '\(preset)' is for MATLAB files, not CSV")
            }
            return Opened(
                decoder: try CSVDecoder(path: path, mapping: mapping, blockCapacity: capacity),
                format: format, preset: preset, presetDetected: detected)
        case .matlab:
            if let mapping = options.matlabMapping {
                return Opened(
                    decoder: try MATLABDecoder(path: path, mapping: mapping, blockCapacity: capacity),
                    format: format, preset: nil, presetDetected: false)
            }
            let (preset, detected) = try choosePreset(path: path, format: format, given: options.preset)
            guard let mapping = preset.matlabMapping else {
                throw RecordingError(.inconsistent, file: path, "preset '\(preset)' is for CSV files, not MATLAB")
            }
            return Opened(
                decoder: try MATLABDecoder(path: path, mapping: mapping, blockCapacity: capacity),
                format: format, preset: preset, presetDetected: detected)
        }
    }

    static func choosePreset(
        path: String, format: RecordingFormat,
        given: RecordingPreset?
    ) throws(RecordingError) -> (RecordingPreset, Bool) {
        if let given { return (given, false) }
        if let found = RecordingPreset.detect(path: path, format: format) { return (found, true) }
        // A file that cannot be read as its format says why (a truncated MAT-file is truncated,
        // not of an unknown layout).
        if format == .matlab { _ = try MATFile(path: path) }
        let names = RecordingPreset.allCases.map(\.rawValue).joined(separator: ", ")
        throw RecordingError(
            .missingField, file: path,
            "\(format) file of unknown layout: "
                + (format == .csv
                    ? "say which columns hold what: --csv-time COLUMN[,UNIT[,ORIGIN]] with --csv-column SENSOR.NAME=COLUMN[,UNIT] "
                        + "(e.g. --csv-time timestamp,ms --csv-column acc.x=x,g --csv-column acc.y=y,g --csv-column acc.z=z,g), "
                        + "a mapping file --csv-mapping FILE (JSON, docs/SCHEMA.md \"CSV mapping file\"), or --preset NAME (\(names))"
                    : "give --preset NAME (\(names)), or a MATLABChannelMapping through the Swift API"))
    }
}
