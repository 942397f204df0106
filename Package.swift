// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SensorPipe",
    products: [
        // MARK: - Public products
        .library(name: "SensorPipe", targets: ["SensorPipe"]),
        .library(name: "DSP", targets: ["DSP"]),
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "Recordings", targets: ["Recordings"]),
        .library(name: "Cardio", targets: ["Cardio"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "Features", targets: ["Features"]),
        .library(name: "Rhythm", targets: ["Rhythm"]),
        .library(name: "Respiration", targets: ["Respiration"]),
        .library(name: "Pipeline", targets: ["Pipeline"]),
        .library(name: "Report", targets: ["Report"]),
        .executable(name: "sensorpipe", targets: ["sensorpipe"]),
        .executable(name: "sensorpipe-bench", targets: ["sensorpipe-bench"]),
    ],
    targets: [
        // MARK: - C libraries from Debian (system-library targets)
        .systemLibrary(
            name: "CFFTW", path: "Sources/CFFTW", pkgConfig: "fftw3",
            providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(
            name: "CLAPACKE", path: "Sources/CLAPACKE", pkgConfig: "lapacke",
            providers: [.apt(["liblapacke-dev", "libopenblas-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CLZMA", path: "Sources/CLZMA", pkgConfig: "liblzma",
            providers: [.apt(["liblzma-dev"])]),

        // MARK: - Implementation targets
        .target(name: "DSP", dependencies: ["CFFTW", "CLAPACKE"], exclude: ["README.md"]),
        .target(name: "Signals", exclude: ["README.md"]),
        .target(name: "Recordings", dependencies: ["Signals", "CZlib", "CLZMA"], exclude: ["README.md"]),
        .target(name: "Cardio", dependencies: ["DSP", "Signals"], exclude: ["README.md"]),
        .target(name: "Motion", dependencies: ["DSP", "Signals"], exclude: ["README.md"]),
        .target(name: "Features", dependencies: ["DSP", "Signals"], exclude: ["README.md"]),
        .target(name: "Rhythm", dependencies: ["DSP", "Signals"], exclude: ["README.md"]),
        .target(name: "Respiration", dependencies: ["DSP", "Signals"], exclude: ["README.md"]),
        .target(
            name: "Pipeline",
            dependencies: ["Signals", "Recordings", "Cardio", "Motion", "Features", "Rhythm", "Respiration", "CSQLite"],
            exclude: ["README.md"]),
        .target(name: "Report", dependencies: ["Pipeline", "Recordings", "CSQLite"], exclude: ["README.md"]),

        // MARK: - Umbrella library (`import SensorPipe` re-exports DSP, Recordings, Cardio, Motion, Features, Pipeline)
        .target(
            name: "SensorPipe",
            dependencies: [
                "DSP", "Recordings", "Cardio", "Motion", "Features", "Pipeline", "Report", "Rhythm",
                "Respiration",
            ],
            exclude: ["README.md"]),

        // MARK: - Command-line tool
        .executableTarget(
            name: "sensorpipe", dependencies: ["Pipeline", "Recordings", "Cardio", "DSP", "Features", "Report", "Rhythm"]),

        // MARK: - Examples (runnable with `swift run -c release <name>`; not products)
        .executableTarget(name: "heart-rate-report", dependencies: ["SensorPipe"], path: "Examples/HeartRateReport"),

        // MARK: - Benchmarks
        .executableTarget(
            name: "sensorpipe-bench",
            dependencies: ["DSP", "Recordings", "Cardio", "Motion", "Features", "Respiration", "Pipeline", "Rhythm", "CFFTW", "CZlib"],
            path: "Benchmarks/sensorpipe-bench"),

        // MARK: - Test support and tests
        .target(name: "_TestSupport", path: "Sources/_TestSupport"),
        .testTarget(
            name: "DSPTests", dependencies: ["DSP", "_TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "PipelineTests", dependencies: ["Pipeline", "Recordings", "Cardio", "Motion", "Features", "_TestSupport", "CSQLite"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "CardioTests", dependencies: ["Cardio", "DSP", "Recordings", "_TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "MotionTests", dependencies: ["Motion", "DSP", "Recordings", "_TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "FeaturesTests", dependencies: ["Features", "DSP", "Recordings", "_TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "RhythmTests", dependencies: ["Rhythm", "Pipeline", "Recordings", "_TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "RespirationTests", dependencies: ["Respiration", "Pipeline", "Recordings", "Cardio", "_TestSupport"]),
        .testTarget(name: "SensorPipeTests", dependencies: ["SensorPipe", "_TestSupport"]),
        .testTarget(name: "SensorPipeCLITests", dependencies: ["sensorpipe", "Pipeline"]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "Pipeline", "Recordings", "_TestSupport", "CSQLite"]),
        .testTarget(
            name: "RecordingsTests", dependencies: ["Recordings", "_TestSupport", "CZlib"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: - Fuzz targets (only with SENSORPIPE_FUZZ set; built by scripts/fuzz.sh with -sanitize=fuzzer,address)
if Context.environment["SENSORPIPE_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["Recordings"], path: "Fuzz/FuzzSupport"))
    for name in [
        "FuzzSensorKit", "FuzzMyDataHelps", "FuzzAppleHealth", "FuzzWFDB", "FuzzMATLAB", "FuzzCSV",
        "FuzzBUTPPG", "FuzzGT3X", "FuzzOpener", "FuzzManifest", "FuzzMerge",
        "FuzzHealthExport",
    ] {
        package.targets.append(
            .executableTarget(
                name: name, dependencies: ["FuzzSupport", "Recordings", "Pipeline"],
                path: "Fuzz/\(name)"))
    }
    package.targets.append(
        .executableTarget(name: "FuzzEDF", dependencies: ["FuzzSupport", "Recordings"], path: "Fuzz/FuzzEDF"))
    package.targets.append(
        .executableTarget(
            name: "FuzzReportDatabase", dependencies: ["FuzzSupport", "Report"], path: "Fuzz/FuzzReportDatabase"))
}
