/// A fixed-size, SIMD-aligned buffer from `fftw_malloc`, for scratch memory on hot paths.
///
/// FFTW's SIMD kernels run only on arrays with the alignment of the arrays the plan was made
/// with; Swift arrays are usually, but not always, aligned. Stages that own their scratch use
/// this type so the fast plan is always taken. Not copyable: it frees its memory on `deinit`.
public struct AlignedBuffer<Scalar: FFTScalar>: ~Copyable, @unchecked Sendable {
    /// Base address of `count` elements, zero-initialised.
    public let baseAddress: UnsafeMutablePointer<Scalar>
    /// Number of elements.
    public let count: Int

    /// Allocates `count` zeroed elements.
    /// - Complexity: O(count).
    public init(count: Int) {
        self.count = count
        baseAddress = Scalar._allocate(count)
        baseAddress.initialize(repeating: 0, count: max(count, 1))
    }

    /// The elements as a mutable buffer pointer (valid while `self` lives).
    public var buffer: UnsafeMutableBufferPointer<Scalar> {
        UnsafeMutableBufferPointer(start: baseAddress, count: count)
    }

    deinit { Scalar._free(baseAddress) }
}
