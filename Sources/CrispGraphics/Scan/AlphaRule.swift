import CCrispKernels

// The fill rules: how a running sum of cells (`Rasterizer.fullCoverage` a pixel, signed by
// winding) becomes 8-bit alpha, one sum at a time, four at a time, and in the AVX2 kernels.

/// Maps an accumulated coverage sum (`Rasterizer.fullCoverage` = one pixel's worth, signed by
/// winding) to 8-bit alpha. Every operation wraps, so no value traps; the sums a rule meets are
/// exact (`Rasterizer.exactEdges`), or exact modulo 2³² where that is all it needs
/// (`wrapsHarmlessly`).
protocol AlphaRule {
    static func alpha(_ sum: Int32) -> UInt8
    /// `alpha` of four sums, as 0…255 in each lane: the same operations lane by lane.
    static func alphas(_ sums: SIMD4<Int32>) -> SIMD4<Int32>
    /// The AVX2 kernel that composites a stretch of cells under this rule (CellsOverAVX2.c), if any.
    static var cellKernel: CellKernel? { get }
    /// The AVX2 kernel that turns a stretch of cells into coverage bytes under this rule, if any.
    static var coverageKernel: CoverageKernel? { get }
    /// Whether the alpha depends only on the sum modulo 2³², so that cells and running sums
    /// may wrap: even-odd's, whose period (2¹⁸) divides 2³².
    static var wrapsHarmlessly: Bool { get }
}

/// A kernel that writes the coverage of `count` cells as bytes and returns the running sum
/// (`crisp_cells_coverage_nonzero_avx2`): bytes, cells, count, sum.
typealias CoverageKernel = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?, Int, Int32) -> Int32

/// A kernel that composites a solid colour over `count` native pixels from the cells under it
/// and returns the running sum (`crisp_over_cells_nonzero_avx2`): row, cells, count, colour, sum.
typealias CellKernel = @convention(c) (UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<Int32>?, Int, UInt32, Int32) -> Int32

/// 0…2¹⁷ to 0…255, rounded to nearest (halves up): (a·255 + 2¹⁶) / 2¹⁷.
@inline(__always)
private func level(_ a: Int32) -> Int32 { (a &* 255 &+ 65536) &>> 17 }

/// `level` four at a time, the product as a shift and a subtraction (SSE2 has no 32-bit
/// multiply); both wrap alike.
@inline(__always)
private func levels(_ a: SIMD4<Int32>) -> SIMD4<Int32> { ((a &<< 8) &- a &+ 65536) &>> 17 }

/// Non-zero winding: |sum| clamped to one pixel.
enum NonZeroRule: AlphaRule {
    static var cellKernel: CellKernel? { crisp_over_cells_nonzero_avx2 }
    static var coverageKernel: CoverageKernel? { crisp_cells_coverage_nonzero_avx2 }
    static var wrapsHarmlessly: Bool { false }

    @inline(__always)
    static func alpha(_ sum: Int32) -> UInt8 {
        let m = sum &>> 31
        let a = (sum ^ m) &- m
        return UInt8(truncatingIfNeeded: level(a > Rasterizer.fullCoverage ? Rasterizer.fullCoverage : a))
    }

    @inline(__always)
    static func alphas(_ sums: SIMD4<Int32>) -> SIMD4<Int32> {
        let m = sums &>> 31
        let a = (sums ^ m) &- m
        let full = SIMD4(repeating: Rasterizer.fullCoverage)
        return levels(a.replacing(with: full, where: a .> full))
    }
}

/// Even-odd: the sum folded into 0…1 pixel with period 2 (a two's-complement mask takes the
/// sign along).
enum EvenOddRule: AlphaRule {
    static var cellKernel: CellKernel? { crisp_over_cells_evenodd_avx2 }
    static var coverageKernel: CoverageKernel? { crisp_cells_coverage_evenodd_avx2 }
    static var wrapsHarmlessly: Bool { true }

    @inline(__always)
    static func alpha(_ sum: Int32) -> UInt8 {
        let a = sum & (2 &* Rasterizer.fullCoverage &- 1)
        return UInt8(truncatingIfNeeded: level(a > Rasterizer.fullCoverage ? 2 &* Rasterizer.fullCoverage &- a : a))
    }

    @inline(__always)
    static func alphas(_ sums: SIMD4<Int32>) -> SIMD4<Int32> {
        let full = SIMD4(repeating: Rasterizer.fullCoverage)
        let a = sums & (full &+ full &- 1)
        return levels(a.replacing(with: full &+ full &- a, where: a .> full))
    }
}

/// Anti-aliasing off: a pixel is painted when at least half of it is covered.
enum AliasedRule<Base: AlphaRule>: AlphaRule {
    static var cellKernel: CellKernel? { nil }
    static var coverageKernel: CoverageKernel? { nil }
    static var wrapsHarmlessly: Bool { Base.wrapsHarmlessly }

    @inline(__always)
    static func alpha(_ sum: Int32) -> UInt8 { Base.alpha(sum) >= 128 ? 255 : 0 }

    @inline(__always)
    static func alphas(_ sums: SIMD4<Int32>) -> SIMD4<Int32> {
        SIMD4(repeating: 0).replacing(with: 255, where: Base.alphas(sums) .>= 128)
    }
}
