import CCrispKernels

// How a gradient span reaches its AVX2 kernel (CCrispKernels/GradientAVX2.c), which shades eight
// pixels a step and stores them or blends them under source-over in the same step. A kernel
// stops before a step it cannot shade by the plain lookup; the span's paint then shades that
// step (at most eight pixels) by its Swift loops, which apply the general rule, and the kernel
// is called again for the rest. Blending such a step uses source-over's per-pixel formula, which
// every source-over kernel reproduces bit for bit (`KernelDispatchTests`), skipping pixels the
// paint leaves unpainted as the compositor does.

/// The driver of the fused gradient kernels.
enum GradientKernel {
    /// What a kernel does with the colours it shades: store them, or blend them under
    /// source-over at one coverage (1…255) or with a coverage byte a pixel.
    enum Operation {
        case store
        case over(UInt32)
        case overCoverages(UnsafePointer<UInt8>)

        /// The kernel's `op`, coverage and coverage bytes from pixel `start`.
        @inline(__always)
        func arguments(from start: Int) -> (op: Int32, coverage: UInt32, coverages: UnsafePointer<UInt8>?) {
            switch self {
            case .store: (Int32(CRISP_STORE), 0, nil)
            case .over(let c): (Int32(CRISP_OVER), c, nil)
            case .overCoverages(let row): (Int32(CRISP_OVER_COVERAGES), 0, row + start)
            }
        }
    }

    /// Runs `kernel(start)` (the kernel on pixels `start..<count` of the span, returning how many
    /// it did) over the span at `row`, and for each step it leaves `shade(start, n, out)` (the
    /// paint's Swift loops on `n` pixels from `start`), into the row or into `scratch` and blended.
    @inline(__always)
    static func run(_ operation: Operation, row: UnsafeMutablePointer<UInt32>, count: Int,
                    scratch: UnsafeMutablePointer<UInt32>, kernel: (Int) -> Int,
                    shade: (Int, Int, UnsafeMutablePointer<UInt32>) -> Void) {
        var i = kernel(0)
        while i < count {
            let n = min(8, count &- i)
            if case .store = operation {
                shade(i, n, row + i)
            } else {
                shade(i, n, scratch)
                blend(operation, row: row + i, count: n, sources: scratch, from: i)
            }
            i &+= n
            if i < count { i &+= kernel(i) }
        }
    }

    /// Source-over of `sources` onto `row` by the per-pixel formula, pixel `start` of the span
    /// first; unpainted sources and coverage 0 leave a pixel alone.
    @inline(never)
    private static func blend(_ operation: Operation, row: UnsafeMutablePointer<UInt32>, count: Int,
                              sources: UnsafePointer<UInt32>, from start: Int) {
        for k in 0..<count {
            let s = sources[k]
            let c: UInt32
            switch operation {
            case .store: c = 255
            case .over(let coverage): c = coverage
            case .overCoverages(let row): c = UInt32(row[start &+ k])
            }
            if s == Pixel.unpainted || c == 0 { continue }
            row[k] = SourceOver.blend(s, row[k], coverage: c)
        }
    }
}
