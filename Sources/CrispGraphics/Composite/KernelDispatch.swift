import CCrispKernels

// Which source-over kernels run: the AVX2 ones in C (CCrispKernels, eight pixels a step) on
// CPUs that have AVX2, else the Swift SSE2 ones (SourceOver+Lanes.swift, four pixels a step).
// Decided once, on the first span, from `__builtin_cpu_supports("avx2")`, and kept as the
// shortest span that goes to C (`crisp_avx2_min_span`: the maximum when none do), so each
// kernel call pays one load and one compare. Tests force either path with `path`.

/// The choice between the AVX2 and the SSE2 source-over kernels.
enum KernelDispatch {
    /// A set of kernels.
    enum Path: Equatable {
        /// The Swift SSE2 kernels for every span.
        case sse2
        /// The AVX2 kernels for every span, however short.
        case avx2
        /// What runs unless a test says otherwise: AVX2 for spans of at least the measured
        /// length when the CPU has it, else SSE2.
        case automatic
    }

    /// Whether this CPU (and its OS) supports AVX2.
    static var cpuHasAVX2: Bool { crisp_cpu_has_avx2() != 0 }

    /// Whether a span of `count` pixels goes to the AVX2 kernels.
    @inline(__always)
    static func usesAVX2(_ count: Int) -> Bool { count >= crisp_avx2_min_span_now() }

    /// Forces a path for the whole process (for tests). Returns false, changing nothing, when
    /// `.avx2` is asked of a CPU without AVX2.
    @discardableResult
    static func force(_ path: Path) -> Bool {
        switch path {
        case .sse2: crisp_avx2_set_min_span(Int.max) != 0
        case .avx2: crisp_avx2_set_min_span(0) != 0
        case .automatic: crisp_avx2_decide() >= 0
        }
    }
}
