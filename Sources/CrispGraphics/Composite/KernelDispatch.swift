import CCrispKernels

// Which source-over kernels run: the AVX2 ones in C (CCrispKernels, eight pixels a step) on
// CPUs that have AVX2, else the Swift SSE2 ones (SourceOver+Lanes.swift, four pixels a step).
// Decided when a thread starts its first composite (`prepare`, from `CompositeBlitter.init` and
// the rasterizer), from `__builtin_cpu_supports("avx2")`, and kept as the shortest span that
// goes to C (`Int.max` when none does). The choice is the calling thread's own: a C
// thread-local with a constant initial value (CCrispKernels.h), read directly, so each kernel
// call still pays one load (from the thread pointer) and one compare before its tail call, with
// no slow path to save registers for. (Decided lazily inside the
// kernels, the possible call made LLVM save five registers on every span: callgrind.)
//
// Tests run one path on their own thread with `withPath(_:_:)` while other tests draw on other
// threads with theirs: a process-wide switch flipped by parallel suites was a data race
// (ThreadSanitizer, issue 35). A synchronous body cannot change threads, so the path holds for
// everything the body draws on the calling thread.

/// The choice between the AVX2 and the SSE2 source-over kernels, per thread.
@_spi(Testing) public enum KernelDispatch {
    /// A set of kernels.
    public enum Path: Equatable, Sendable {
        /// The Swift SSE2 kernels for every span.
        case sse2
        /// The AVX2 kernels for every span, however short.
        case avx2
        /// What runs unless a test says otherwise: AVX2 for spans of at least
        /// `measuredMinimumSpan` pixels when the CPU has it, else SSE2.
        case automatic
    }

    /// The shortest span worth an AVX2 call (docs/performance.md, "After branch `avx2`": measured
    /// with `crisp bench raster` and the bench scenes).
    static let measuredMinimumSpan = 1

    /// Whether this CPU (and its OS) supports AVX2.
    public static let cpuHasAVX2 = crisp_cpu_has_avx2() != 0

    /// Whether a span of `count` pixels goes to the AVX2 kernels on this thread.
    @inline(__always)
    static func usesAVX2(_ count: Int) -> Bool { count >= crisp_dispatch_minimum_span }

    /// Chooses this thread's kernels the first time it is called on the thread (every composite
    /// calls it first).
    @inline(__always)
    static func prepare() {
        if crisp_dispatch_decided == 0 { set(.automatic) }
    }

    /// Runs `body` with `path` forced on the calling thread (for tests and benchmarks), then
    /// restores the thread's previous choice. Returns nil, running nothing, when `.avx2` is asked
    /// of a CPU without AVX2.
    public static func withPath<Result>(_ path: Path, _ body: () throws -> Result) rethrows -> Result? {
        let decided = crisp_dispatch_decided != 0, previous = crisp_dispatch_minimum_span
        guard set(path) else { return nil }
        defer {
            if decided { setMinimumSpan(previous) } else { set(.automatic) }
        }
        return try body()
    }

    /// Sets this thread's path; false, changing nothing, for `.avx2` without AVX2.
    @discardableResult
    private static func set(_ path: Path) -> Bool {
        switch path {
        case .sse2: setMinimumSpan(Int.max)
        case .avx2:
            guard cpuHasAVX2 else { return false }
            setMinimumSpan(0)
        case .automatic: setMinimumSpan(cpuHasAVX2 ? measuredMinimumSpan : Int.max)
        }
        return true
    }

    /// Sets this thread's shortest AVX2 span and marks the choice made.
    private static func setMinimumSpan(_ span: Int) {
        crisp_dispatch_minimum_span = span
        crisp_dispatch_decided = 1
    }
}
