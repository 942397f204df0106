// The data model decoders produce (blocks, streams, flags, QC accounts) lives in `Signals`, the
// bottom module analyses consume; `import Recordings` brings it along.
@_exported import Signals
