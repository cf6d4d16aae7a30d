import CCrispKernels

// Which source-over kernels run: the AVX2 ones in C (CCrispKernels, eight pixels a step) on
// CPUs that have AVX2, else the Swift SSE2 ones (SourceOver+Lanes.swift, four pixels a step).
// Decided once, when the first composite starts (`prepare`, from `CompositeBlitter.init`), from
// `__builtin_cpu_supports("avx2")`, and kept as the shortest span that goes to C (`Int.max` when
// none does) in a global with a constant initial value, so each kernel call pays one load and
// one compare before its tail call, with no slow path to save registers for. (Kept in C behind
// a `static inline` accessor, the accessor was compiled as a call; decided lazily inside the
// kernels, the possible call made LLVM save five registers on every span: callgrind.) Tests
// force either path with `force`.

/// The choice between the AVX2 and the SSE2 source-over kernels.
enum KernelDispatch {
    /// A set of kernels.
    enum Path: Equatable {
        /// The Swift SSE2 kernels for every span.
        case sse2
        /// The AVX2 kernels for every span, however short.
        case avx2
        /// What runs unless a test says otherwise: AVX2 for spans of at least
        /// `measuredMinimumSpan` pixels when the CPU has it, else SSE2.
        case automatic
    }

    /// The shortest span worth an AVX2 call (README "After branch avx2": measured with
    /// `crisp bench raster` and the bench scenes).
    static let measuredMinimumSpan = 1

    /// Whether this CPU (and its OS) supports AVX2.
    static let cpuHasAVX2 = crisp_cpu_has_avx2() != 0

    /// Spans of at least this many pixels go to the AVX2 kernels: none until `prepare` or
    /// `force` has run.
    nonisolated(unsafe) private static var minimumSpan = Int.max
    /// Whether `prepare` or `force` has set `minimumSpan`.
    nonisolated(unsafe) private static var decided = false

    /// Whether a span of `count` pixels goes to the AVX2 kernels.
    @inline(__always)
    static func usesAVX2(_ count: Int) -> Bool { count >= minimumSpan }

    /// Chooses the kernels the first time it is called (every composite calls it first); the
    /// same value whichever thread gets there first.
    @inline(__always)
    static func prepare() {
        if !decided { force(.automatic) }
    }

    /// Forces a path for the whole process (for tests). Returns false, changing nothing, when
    /// `.avx2` is asked of a CPU without AVX2.
    @discardableResult
    static func force(_ path: Path) -> Bool {
        switch path {
        case .sse2: minimumSpan = Int.max
        case .avx2:
            guard cpuHasAVX2 else { return false }
            minimumSpan = 0
        case .automatic: minimumSpan = cpuHasAVX2 ? measuredMinimumSpan : Int.max
        }
        decided = true
        return true
    }
}
