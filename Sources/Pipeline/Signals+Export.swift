// Signals (the block/stream model, result schemas and the analysis contract) comes with Pipeline.
@_exported import Signals
