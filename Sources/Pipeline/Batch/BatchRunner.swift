import Foundation
import Recordings
import Signals

/// Options of a batch run.
public struct BatchOptions: Sendable {
    /// Recordings analysed in parallel (≥ 1; default: the number of cores).
    public var jobs: Int
    /// The software version stored with the run (part of the configuration hash; default
    /// ``SensorPipeVersion/current``).
    public var softwareVersion: String
    /// The caller's study label, stored in `runs.label` (not part of the configuration hash).
    public var label: String?
    /// Decoding and analysis options.
    public var analysis: AnalysisConfiguration
    /// Called inside a recording's store transaction, after all its rows are written and before
    /// they become visible, with the recording's path (fault injection for crash tests).
    public var beforeCommit: (@Sendable (String) -> Void)?

    /// Creates options.
    public init(
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        softwareVersion: String = SensorPipeVersion.current, label: String? = nil,
        analysis: AnalysisConfiguration = AnalysisConfiguration()
    ) {
        precondition(jobs >= 1 && jobs <= BatchOptions.maximumJobs, "jobs must be 1…\(BatchOptions.maximumJobs)")
        self.jobs = jobs
        self.softwareVersion = softwareVersion
        self.label = label
        self.analysis = analysis
    }

    /// The largest `jobs` accepted.
    public static let maximumJobs = 1024
}

/// What happened to one recording of a batch.
public struct RecordingOutcome: Sendable {
    /// How it ended.
    public enum Status: String, Sendable, Codable {
        /// Analysed and stored.
        case ok
        /// Could not be analysed (decoding error, unreadable file, unbalanced accounting); its
        /// error is stored.
        case failed
        /// Already done with the same content and configuration (resumed).
        case skipped
    }
    /// Position in the batch's list.
    public var index: Int
    /// The recording.
    public var path: String
    /// How it ended.
    public var status: Status
    /// File size, bytes (0 when unreadable).
    public var bytes: Int
    /// The error, for a failed recording: `file[:line[:column]]: code: message`.
    public var error: String?
    /// The analysis summary, for an analysed recording.
    public var summary: RecordingAnalysis.Summary?
}

/// Progress of a batch, reported after each recording is stored (on the caller's thread).
public struct BatchProgress: Sendable {
    /// Recordings in the batch.
    public var total: Int
    /// Recordings finished (stored, failed or skipped).
    public var done: Int
    /// Input bytes of the batch (every file of every recording: WFDB signal files as well as
    /// headers, sized before the batch starts), and of the finished recordings.
    public var bytesTotal: Int, bytesDone: Int
    /// Of `bytesDone`, the bytes of recordings skipped as already done (they take no time, so
    /// the rate leaves them out).
    public var bytesSkipped: Int
    /// Seconds since the batch started.
    public var elapsedSeconds: Double
    /// The recording just finished.
    public var latest: RecordingOutcome

    /// Bytes per second of the recordings read in this run (skipped ones left out), or `nil`
    /// before any was.
    public var bytesPerSecond: Double? {
        let worked = bytesDone - bytesSkipped
        guard worked > 0, elapsedSeconds > 0 else { return nil }
        return Double(worked) / elapsedSeconds
    }

    /// Estimated seconds to completion: the bytes left at the rate so far (``bytesPerSecond``),
    /// or `nil` before any recording was read; 0 when nothing is left.
    public var etaSeconds: Double? {
        if bytesDone >= bytesTotal || done >= total { return 0 }
        guard let rate = bytesPerSecond else { return nil }
        return Double(bytesTotal - bytesDone) / rate
    }
}

/// The outcome of a batch.
public struct BatchSummary: Sendable {
    /// Recordings in the batch (after sharding).
    public var total = 0
    /// Recordings analysed and stored, failed, and skipped as already done.
    public var ok = 0, failed = 0, skipped = 0
    /// Input bytes of the batch, and of the recordings analysed in this run.
    public var bytesTotal = 0, bytesAnalysed = 0
    /// Samples read from the recordings analysed in this run (time points, all streams).
    public var samplesRead = 0
    /// Seconds of signal decoded in this run, per sensor (``RecordingAnalysis/Summary/signalSecondsBySensor``).
    public var signalSecondsBySensor: [SensorKind: Double] = [:]
    /// Seconds of signal some analysis used, per sensor (``RecordingAnalysis/Summary/analysedSecondsBySensor``).
    public var analysedSecondsBySensor: [SensorKind: Double] = [:]
    /// Streams no analysis used, in this run.
    public var unanalysedStreams = 0
    /// Beats found in this run.
    public var beats = 0
    /// The recordings' summary figures over this run, per family and declared figure
    /// (``SummaryVocabulary``), from their `recording_summary` rows analysed in this run: sums
    /// (beats, steps, wear hours, …) added, means and shares over every recording's facts with
    /// their weights (as a recording's figure is over its days'), the lowest minimum and highest
    /// maximum. A median figure is not a batch median (that would keep every window of the
    /// batch): its total holds the recordings' medians, as their count, lowest and highest
    /// (``SummaryFigureTotal/recordingMedians``), and `run --json` leaves it out.
    public var figureTotals: [SummaryFigureTotal] = []
    /// Wall-clock seconds.
    public var elapsedSeconds = 0.0
    /// Failed recordings and their errors, in batch order.
    public var failures: [(path: String, error: String)] = []
    /// Recordings stored in this run whose content hash equals that of a recording stored
    /// before them (in this batch or, with this configuration, in the store): the same bytes
    /// under another path (a copy), with the first path. They are stored (distinct files the
    /// caller named; the same file reached twice is one input, ``RecordingDiscovery/unique(_:)``)
    /// and the run's summary notes them. Copies within one batch are not analysed
    /// (``duplicates``): this lists copies of recordings stored by earlier runs.
    public var sameContent: [(path: String, storedAs: String)] = []
    /// Recordings of this batch not analysed because an earlier recording of the batch has the
    /// same content (FNV-1a 64 of every member file, ``ContentHash``) under another path: each
    /// with the path of that first recording. They are neither stored nor counted in ``total``.
    public var duplicates: [(path: String, duplicateOf: String)] = []

    /// The summary as JSON (`JSONEncoder`, sorted keys; ``encode(to:)``): counts, bytes,
    /// `signal_hours` (decoded) and `analysed_hours` per sensor, streams no analysis used,
    /// seconds, MB/s and the failures.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// One figure of a batch: a family's declared figure over the recordings of a run, aggregated as
/// the figure declares (a sum added up, a mean or share weighted, a minimum or maximum).
public struct SummaryFigureTotal: Sendable, Hashable {
    /// The family (or beat source).
    public var family: String
    /// The figure's name (its summary column).
    public var name: String
    /// Its unit, or `nil`.
    public var unit: String?
    /// How it adds up.
    public var aggregation: SummaryFigure.Aggregation
    /// The recordings' totals added up; for a median figure, one fact per recording: its median.
    var aggregate: SummaryAggregate
    /// The value over the recordings (`aggregate` under `aggregation`; 0 for a mean over no
    /// weight); for a median figure the lowest recording median (see ``recordingMedians``).
    public var value: Double { aggregation == .median ? aggregate.minimum : aggregate.value(aggregation) ?? 0 }
    /// For a median figure: how many recordings had a median, and the lowest and highest of
    /// them; `nil` for other figures.
    public var recordingMedians: (recordings: Int, lowest: Double, highest: Double)? {
        aggregation == .median ? (aggregate.count, aggregate.minimum, aggregate.maximum) : nil
    }
}

extension BatchSummary {
    /// Adds a recording's `recording_summary` rows to ``figureTotals``: every declared figure but
    /// medians, per family, in vocabulary order.
    /// - Complexity: O(rows · figures).
    mutating func addFigures(_ rows: [RecordingSummaryRow]) {
        let vocabulary = AnalysisRegistry.summaryVocabulary
        for row in rows {
            for figure in vocabulary.figures where figure.family == row.family {
                guard var a = row.figures.aggregates[figure.name], let v = a.value(figure.aggregation) else { continue }
                if figure.aggregation == .median {
                    a = SummaryAggregate()
                    a.add(value: v, weight: 1)
                }
                if let k = figureTotals.firstIndex(where: { $0.family == row.family && $0.name == figure.name }) {
                    figureTotals[k].aggregate.add(a)
                } else {
                    figureTotals.append(
                        SummaryFigureTotal(
                            family: row.family, name: figure.name, unit: figure.unit, aggregation: figure.aggregation, aggregate: a))
                    let order = { (t: SummaryFigureTotal) in
                        vocabulary.figures.firstIndex { $0.family == t.family && $0.name == t.name } ?? Int.max
                    }
                    figureTotals.sort { order($0) < order($1) }
                }
            }
        }
    }
}

/// A batch that could not go on: the store (database or folder) failed. Recordings stored before
/// stay stored; rerunning resumes.
public struct BatchStoreError: Error, CustomStringConvertible, Sendable {
    /// What kind of problem it is; new codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
        /// The database or folder failed (starting, storing, finishing the run).
        public static let store = Code(rawValue: "store")
        /// Another run holds the output, or its lock file cannot be opened.
        public static let locked = Code(rawValue: "locked")
        /// A worker's temporary spool file failed.
        public static let spool = Code(rawValue: "spool")
    }

    /// What kind of problem.
    public var code: Code
    /// What failed, with the underlying error.
    public var description: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - description: what failed, with the underlying error.
    public init(_ code: Code, description: String) {
        self.code = code
        self.description = description
    }
}

/// Runs a batch of recordings into a ``BatchStore``: parallel, resumable, in a fixed order.
///
/// `jobs` worker threads take recordings in list order; each skips a recording the store already
/// holds with the same content (FNV-1a 64, ``ContentHash``) and configuration, and otherwise
/// analyses it into a spool, hashing its files from the bytes it decodes (each file read once; the
/// rule in ``analyse(_:done:donePaths:analysis:)``) (``SpoolSink``: rows in memory up to 4 MiB, then in an anonymous
/// temporary file). The caller's thread is the single writer:
/// it stores the outcomes strictly in list order, one transaction per recording, so the store's
/// content (ids included) does not depend on `jobs`. Workers run at most `2 × jobs` recordings
/// ahead of the writer; with the spool's budget, memory is bounded by the analyses' look-ahead plus
/// `2 × jobs × 4 MiB`, however long a recording is.
///
/// A recording that cannot be read, decoded or accounted for (samples read ≠ used + masked +
/// duplicates + rejected) is stored as failed with its error and the batch goes on; only a store
/// failure ends the batch (``BatchStoreError``).
public enum BatchRunner {
    /// Runs the batch.
    /// - Parameters:
    ///   - recordings: paths, in the order to store them (see ``RecordingDiscovery/expand(_:)``
    ///     and ``Shard``); made absolute so that a rerun from elsewhere resumes.
    ///   - store: where results go.
    ///   - options: jobs, version, analysis options.
    ///   - progress: called on the caller's thread after each recording.
    /// - Returns: the counts, bytes and hours of signal.
    /// - Throws: ``BatchStoreError``.
    /// - Complexity: the analyses' cost over all recordings, divided across `jobs` threads.
    public static func run(
        recordings: [String], store: BatchStore, options: BatchOptions,
        progress: (BatchProgress) -> Void = { _ in }
    ) throws -> BatchSummary {
        try run(inputs: recordings.map(RecordingInput.init(path:)), store: store, options: options, progress: progress)
    }

    /// Runs a batch of recordings, some of which may span several files.
    /// - Parameters:
    ///   - inputs: the recordings (``RecordingDiscovery/recordings(_:)``), in the order to store
    ///     them; paths are made absolute so that a rerun from elsewhere resumes.
    ///   - store: where results go.
    ///   - options: jobs, version, analysis options.
    ///   - progress: called on the caller's thread after each recording.
    ///   - shouldStop: asked before each recording is stored; when it answers `true`, the
    ///     recordings stored so far stay stored (a rerun resumes), the workers are joined, the
    ///     run is finished and `CancellationError` is thrown.
    /// - Returns: the counts, bytes and hours of signal.
    /// - Throws: ``BatchStoreError``; `CancellationError` when stopped.
    public static func run(
        inputs: [RecordingInput], store: BatchStore, options: BatchOptions,
        progress: (BatchProgress) -> Void = { _ in }, shouldStop: () -> Bool = { false }
    ) throws -> BatchSummary {
        let start = Date()
        let absolute = { (p: String) in URL(fileURLWithPath: p).standardizedFileURL.path }
        let given = inputs.map { RecordingInput(path: absolute($0.path), files: $0.files.map(absolute)) }
        // Every file of every recording (WFDB: the signal files too) with its format, recognised
        // once here and handed to the analysis; sized before the start so the ETA is right from
        // the first recording.
        let allPrepared = given.map { PreparedRecording($0, decode: options.analysis.decode) }
        let allSizes = allPrepared.map { $0.members.reduce(0) { $0 + fileSize($1) } }
        // The same content under another path in this batch is analysed once (``duplicates(_:sizes:)``).
        let copies = duplicates(allPrepared, sizes: allSizes)
        let kept = allPrepared.indices.filter { copies[$0] == nil }
        let prepared = kept.map { allPrepared[$0] }
        let sizes = kept.map { allSizes[$0] }
        let files = prepared.map(\.recording.path)
        var summary = BatchSummary()
        summary.duplicates = copies.keys.sorted().map { (given[$0].path, given[copies[$0]!].path) }
        summary.total = files.count
        summary.bytesTotal = sizes.reduce(0, +)
        let done: Set<CompletedRecording>
        do {
            try store.startRun(
                softwareVersion: options.softwareVersion,
                configJSON: options.analysis.canonicalJSON(softwareVersion: options.softwareVersion),
                label: options.label)
            done = try store.completedRecordings()
        } catch {
            throw BatchStoreError(.store, description: "cannot start the run: \(error)")
        }

        let queue = WorkQueue(count: files.count, window: 2 * options.jobs)
        let group = DispatchGroup()
        let analysis = options.analysis
        let donePaths = Set(done.map(\.path))
        for _ in 0..<min(options.jobs, max(files.count, 1)) {
            group.enter()
            let thread = Thread {
                while let i = queue.claim() {
                    queue.deliver(i, analyse(prepared[i], done: done, donePaths: donePaths, analysis: analysis))
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        defer {
            queue.cancel()
            group.wait()
        }

        var bytesDone = 0, bytesSkipped = 0
        var stopped = false
        // Content already stored (this configuration): the same bytes under another path are noted.
        var stored = [String: String]()
        for d in done where stored[d.contentHash] == nil || d.path < stored[d.contentHash]! { stored[d.contentHash] = d.path }
        for i in files.indices {
            if shouldStop() {
                stopped = true
                break
            }
            let work = queue.take(i)
            var outcome = RecordingOutcome(index: i, path: files[i], status: .ok, bytes: 0)
            do {
                switch work {
                case .skipped(let size):
                    outcome.status = .skipped
                    outcome.bytes = size
                    bytesSkipped += size
                    summary.skipped += 1
                case .analysed(let hash, let size, let s, let staged):
                    if let first = stored[hash], first != files[i] { summary.sameContent.append((files[i], first)) }
                    stored[hash] = stored[hash] ?? files[i]
                    let hook = options.beforeCommit
                    try store.store(path: files[i], size: size, contentHash: hash, summary: s, results: staged) {
                        hook?(files[i])
                    }
                    outcome.summary = s
                    outcome.bytes = size
                    summary.ok += 1
                    summary.bytesAnalysed += size
                    summary.beats += s.beats
                    summary.addFigures(s.recordingSummaries)
                    summary.samplesRead += s.accounts.reduce(0) { $0 + $1.samplesRead }
                    for (k, v) in s.signalSecondsBySensor { summary.signalSecondsBySensor[k, default: 0] += v }
                    for (k, v) in s.analysedSecondsBySensor { summary.analysedSecondsBySensor[k, default: 0] += v }
                    summary.unanalysedStreams += s.unanalysedStreams.count
                case .failed(let hash, let size, let message):
                    outcome.bytes = size
                    try store.recordFailure(path: files[i], size: size, contentHash: hash, error: message)
                    outcome.status = .failed
                    outcome.error = message
                    summary.failed += 1
                    summary.failures.append((files[i], message))
                }
            } catch {
                throw BatchStoreError(.store, description: "cannot store \(files[i]): \(error)")
            }
            // A file that changed size since the start is counted as it was read.
            bytesDone += outcome.bytes
            summary.bytesTotal += outcome.bytes - sizes[i]
            progress(
                BatchProgress(
                    total: files.count, done: i + 1, bytesTotal: summary.bytesTotal,
                    bytesDone: bytesDone, bytesSkipped: bytesSkipped, elapsedSeconds: Date().timeIntervalSince(start),
                    latest: outcome))
        }
        do {
            try store.finishRun(ok: summary.ok, failed: summary.failed, skipped: summary.skipped)
        } catch {
            throw BatchStoreError(.store, description: "cannot finish the run: \(error)")
        }
        if stopped { throw CancellationError() }
        summary.elapsedSeconds = Date().timeIntervalSince(start)
        return summary
    }

    /// Recordings of a batch whose content repeats an earlier one's under another path (a copy):
    /// index → index of the first recording with that content. Only recordings whose member
    /// count and member sizes equal another's are hashed (``contentHash(_:digest:)``, one extra
    /// read of those files before the batch); an empty or unreadable recording is never a copy.
    /// - Parameters:
    ///   - prepared: the batch's recordings, in order.
    ///   - sizes: each recording's total size in bytes.
    /// - Returns: the copies and the recording each repeats.
    /// - Complexity: O(recordings) `stat` calls, plus one read of each recording whose sizes collide.
    static func duplicates(_ prepared: [PreparedRecording], sizes: [Int]) -> [Int: Int] {
        var bySizes = [[Int]: [Int]]()
        for (i, p) in prepared.enumerated() where sizes[i] > 0 {
            bySizes[p.members.map(fileSize), default: []].append(i)
        }
        var copies = [Int: Int]()
        for (_, group) in bySizes where group.count > 1 {
            var first = [String: Int]()
            for i in group {
                guard let hash = try? contentHash(prepared[i].members, digest: nil) else { continue }
                if let f = first[hash] { copies[i] = f } else { first[hash] = i }
            }
        }
        return copies
    }

    /// Size in bytes of the file `path` names (following symbolic links), 0 when unreadable.
    static func fileSize(_ path: String) -> Int {
        FilePathBytes.status(path).map { Int($0.st_size) } ?? 0
    }

    /// A recording ready for a worker: its member files' formats (recognised once, here) and
    /// every file it reads (WFDB: header and signal files).
    struct PreparedRecording: Sendable {
        /// The recording, its files' formats filled in where they could be recognised.
        var recording: RecordingInput
        /// Every file read (a member whose files cannot be listed stands for itself: decoding
        /// then reports what is wrong).
        var members: [String]

        init(_ recording: RecordingInput, decode: DecodeOptions) {
            var formats = [RecordingFormat]()
            var members = [String]()
            for file in recording.files {
                guard let found = try? RecordingOpener.identify(path: file, options: decode) else {
                    members.append(file)
                    continue
                }
                formats.append(found.format)
                members += found.files
            }
            self.recording = recording
            if formats.count == recording.files.count { self.recording.formats = formats }
            self.members = members
        }
    }

    /// The content hash of a recording's files: from `digest` for the files a decoder read
    /// whole while it was bound, else read on their own (``ContentHash/files(_:)``'s value).
    static func contentHash(_ members: [String], digest: ContentDigest?) throws -> String {
        var hashes = [UInt64]()
        for file in members { hashes.append(try digest?.hash(of: file) ?? ContentDigest.fileHash(file)) }
        return ContentHash.hex(ContentDigest.combine(hashes))
    }

    /// One recording's work on a worker thread.
    ///
    /// **Each file is read once.** The content hash that resuming compares is computed from the
    /// bytes as they are decoded (``ContentDigest``). The skip rule: a recording is skipped when
    /// the store holds it done (same path) with this configuration and the same content hash. A
    /// recording the store does not hold done is decoded at once, and the hash stored with its
    /// results is that of the bytes decoded. Only a recording the store holds done is hashed
    /// before decoding (one read: skipped when the hash matches; a changed file is then decoded,
    /// a second read). Files a decoder does not read whole (MATLAB, `.gt3x`, a decoding that
    /// fails) are hashed on their own.
    static func analyse(
        _ prepared: PreparedRecording, done: Set<CompletedRecording>, donePaths: Set<String>,
        analysis: AnalysisConfiguration
    ) -> WorkQueue.Work {
        let recording = prepared.recording
        let path = recording.path
        let members = prepared.members
        let size = members.reduce(0) { $0 + fileSize($1) }
        func failure(_ error: Error, hash: String?) -> WorkQueue.Work {
            if let e = error as? RecordingError { return .failed(hash: hash, size: size, message: e.description) } // names the file
            return .failed(hash: hash, size: size, message: "\(path): \(error)")
        }
        if donePaths.contains(path) {
            do {
                let hash = try contentHash(members, digest: nil)
                if done.contains(CompletedRecording(path: path, contentHash: hash)) { return .skipped(size: size) }
            } catch {
                return failure(error, hash: nil)
            }
        }
        let spooling = SpoolSink()
        let digest = ContentDigest()
        let s: RecordingAnalysis.Summary
        do {
            s = try ContentDigest.$current.withValue(digest) {
                try RecordingAnalysis.run(recording: recording, analysis: analysis, sink: spooling)
            }
        } catch {
            // The failed decoding may have read part of a file: hash what it did not read whole.
            return failure(error, hash: try? contentHash(members, digest: digest))
        }
        let hash: String
        do {
            hash = try contentHash(members, digest: digest)
        } catch {
            return failure(error, hash: nil)
        }
        let unbalanced = s.unbalancedAccounts
        guard unbalanced.isEmpty else {
            return .failed(
                hash: hash, size: size,
                message: "\(path): sample accounting does not balance: " + unbalanced.joined(separator: "; "))
        }
        return .analysed(hash: hash, size: size, summary: s, results: spooling.spool)
    }
}

/// The hand-over between worker threads and the writer: workers claim indices in order (at most
/// `window` ahead of the writer) and deliver results; the writer takes them in order.
final class WorkQueue: @unchecked Sendable {
    enum Work: Sendable {
        case skipped(size: Int)
        case analysed(hash: String, size: Int, summary: RecordingAnalysis.Summary, results: RowSpool)
        case failed(hash: String?, size: Int, message: String)
    }

    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    private var nextClaim = 0
    private var taken = 0
    private var cancelled = false
    private var results: [Int: Work] = [:]

    init(count: Int, window: Int) {
        self.count = count
        self.window = window
    }

    /// The next index to work on, or `nil` when all are claimed or the batch is cancelled;
    /// waits while the worker would run more than `window` ahead of the writer.
    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && nextClaim < count && nextClaim >= taken + window { condition.wait() }
        guard !cancelled && nextClaim < count else { return nil }
        nextClaim += 1
        return nextClaim - 1
    }

    func deliver(_ index: Int, _ work: Work) {
        condition.lock()
        results[index] = work
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for and removes the result of `index`.
    func take(_ index: Int) -> Work {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        taken = index + 1
        condition.broadcast()
        return results.removeValue(forKey: index)!
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
