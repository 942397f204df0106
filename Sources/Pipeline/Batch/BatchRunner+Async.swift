import Foundation
import Synchronization

/// A batch running on threads of its own (``BatchRunner/start(inputs:store:options:)``): its
/// progress as an `AsyncStream`, its outcome as an `async` value, and a way to stop it.
///
/// ```swift
/// let run = BatchRunner.start(inputs: recordings, store: try BatchDatabase(path: "study.sqlite"), options: BatchOptions())
/// for await p in run.progress { print("\(p.done)/\(p.total)", p.latest.path) }
/// let summary = try await run.summary
/// ```
public struct BatchRun: Sendable {
    /// One value after each recording is stored, failed or skipped, in batch order; it finishes
    /// when the batch ends (completed, failed or stopped). Cancelling the task that iterates it
    /// stops the batch.
    public let progress: AsyncStream<BatchProgress>
    let task: Task<BatchSummary, any Error>

    /// The batch's outcome, once it has ended.
    /// - Throws: ``BatchStoreError``; `CancellationError` when the batch was stopped (the
    ///   recordings stored until then stay stored; a rerun resumes). Cancelling the awaiting task
    ///   stops the batch.
    public var summary: BatchSummary {
        get async throws {
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// Stops the batch after the recording being stored (the worker threads are joined and the
    /// run is finished before ``summary`` throws `CancellationError`).
    public func cancel() { task.cancel() }
}

extension BatchRunner {
    /// Starts a batch on threads of its own and returns at once: the `async` form of
    /// ``run(inputs:store:options:progress:shouldStop:)``. The analysis threads and the writer
    /// thread never run on Swift's cooperative pool (a batch blocks on files and its store).
    /// - Parameters:
    ///   - inputs: the recordings, in the order to store them.
    ///   - store: where results go; handed over to the batch's writer thread.
    ///   - options: jobs, version, analysis options.
    /// - Returns: the running batch (progress, outcome, cancellation).
    /// - Complexity: as ``run(inputs:store:options:progress:shouldStop:)``.
    public static func start(inputs: [RecordingInput], store: sending any BatchStore, options: BatchOptions) -> BatchRun {
        let stop = StopFlag()
        let (progress, continuation) = AsyncStream.makeStream(of: BatchProgress.self)
        continuation.onTermination = { termination in
            if case .cancelled = termination { stop.set() }
        }
        let handover = Handover(store)
        let task = Task<BatchSummary, any Error> {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (result: CheckedContinuation<BatchSummary, any Error>) in
                    let writer = Thread {
                        defer { continuation.finish() }
                        do {
                            result.resume(
                                returning: try run(
                                    inputs: inputs, store: handover.value, options: options,
                                    progress: { continuation.yield($0) }, shouldStop: { stop.isSet }))
                        } catch {
                            result.resume(throwing: error)
                        }
                    }
                    writer.stackSize = 8 << 20
                    writer.start()
                }
            } onCancel: {
                stop.set()
            }
        }
        return BatchRun(progress: progress, task: task)
    }
}

/// Set once, read from any thread.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}

/// Carries a value the caller gave away (`sending`) to the one thread that uses it from then on.
private final class Handover<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: sending Value) { self.value = value }
}
