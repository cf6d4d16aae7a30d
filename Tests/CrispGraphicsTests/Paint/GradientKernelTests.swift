import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// The gradients' fused AVX2 kernels (CCrispKernels/GradientAVX2.c, `GradientKernel`) against the
/// Swift path bit for bit: the span shaded by the Swift loops (SSE2 forced) and blended by
/// source-over's per-pixel formula, against the span shaded and blended in one pass (AVX2
/// forced), at every coverage level and with coverage rows, spans of 1…70 pixels and longer,
/// concentric and two-circle gradients with and without extension. Each path is forced on the
/// test's own thread only (`KernelDispatch.withPath`), so the suite runs beside the others.
@Suite struct GradientKernelTests {
    /// Random radial gradients of every shape the kernels take and some they decline.
    static func paints(_ rng: inout SplitMix64) -> [Paint] {
        let table = PaintGoldenTests.redToBlue.table(alpha: 0.85)
        return (0..<120).map { trial in
            // Concentric twice as often as each of the two-circle shapes.
            .radialGradient(GradientTests.randomRadial(&rng, table: table, shape: [0, 1, 2, 0, 2][trial % 5],
                                                       pointStart: trial % 2 == 0, extendBefore: trial % 4 < 2,
                                                       extendAfter: trial % 2 == 0))
        }
    }

    /// What the Swift path gives: the span shaded by the paint's loops, then source-over by the
    /// formula (unpainted pixels and coverage 0 left alone).
    static func swiftPath(_ paint: Paint, x: Int, y: Int, row: [UInt32],
                          coverage: (Int) -> UInt32) -> (row: [UInt32], unpainted: Int) {
        var sources = [UInt32](repeating: 0, count: row.count)
        KernelDispatch.withPath(.sse2) {
            sources.withUnsafeMutableBufferPointer { paint.shade(x: x, y: y, count: row.count, into: $0.baseAddress!) }
        }
        let blended = row.indices.map { i in
            let s = sources[i], c = coverage(i)
            return s == Pixel.unpainted || c == 0 ? row[i] : SourceOver.blend(s, row[i], coverage: c)
        }
        return (blended, sources.filter { $0 == Pixel.unpainted }.count)
    }

    /// The span shaded by the Swift loops (SSE2 forced) and by the AVX2 kernels (AVX2 forced).
    static func shadedBothWays(_ paint: Paint, x: Int, y: Int, count: Int) -> (swift: [UInt32], fused: [UInt32]) {
        var swift = [UInt32](repeating: 0, count: count), fused = swift
        KernelDispatch.withPath(.sse2) {
            swift.withUnsafeMutableBufferPointer { paint.shade(x: x, y: y, count: count, into: $0.baseAddress!) }
        }
        let forced: Void? = KernelDispatch.withPath(.avx2) {
            fused.withUnsafeMutableBufferPointer { paint.shade(x: x, y: y, count: count, into: $0.baseAddress!) }
        }
        #expect(forced != nil, "AVX2 was refused")
        return (swift, fused)
    }

    /// Every paint over random rows, with one coverage and with a coverage row, through the
    /// fused kernels against the Swift path; and shading alone (the kernels' store) against the
    /// Swift loops. The kernels must take most spans and leave a row they decline untouched.
    @Test func fusedKernelsMatchTheSwiftPath() {
        guard KernelDispatch.cpuHasAVX2 else {
            Issue.record(Comment(rawValue: KernelDispatchTests.noAVX2))
            return
        }
        var rng = SplitMix64(seed: 0x6AD1)
        let paints = Self.paints(&rng)
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: 8)
        defer { scratch.deallocate() }
        var taken = 0, declined = 0, mismatches = 0, spans = 0, partlyUnpainted = 0
        for (n, paint) in paints.enumerated() {
            for k in 0..<12 {
                let count = k < 9 ? Int(rng.next() % 70) + 1 : Int(rng.next() % 400) + 70
                let x = Int(rng.next() % 400) - 150, y = Int(rng.next() % 400) - 150
                let row = KernelDispatchTests.pixels(count, &rng)
                var coverages = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                // Runs of 0 and 255, as edges and interiors give them.
                for i in coverages.indices where (i / 9) % 3 == 1 { coverages[i] = i % 2 == 0 ? 0 : 255 }
                // Runs of full coverage, as a joined row's interior gives them (eight at once skip
                // the scaling in the kernels).
                for i in coverages.indices where (i / 24) % 4 == 3 { coverages[i] = 255 }
                let level = UInt32(k == 0 ? 255 : (n * 12 + k) % 255 + 1)
                let cases: [(Int) -> UInt32] = [{ _ in level }, { UInt32(coverages[$0]) }]
                for (index, coverage) in cases.enumerated() {
                    let (expected, unpainted) = Self.swiftPath(paint, x: x, y: y, row: row, coverage: coverage)
                    var actual = row
                    let took = KernelDispatch.withPath(.avx2) {
                        coverages.withUnsafeBufferPointer { c in
                            actual.withUnsafeMutableBufferPointer { r in
                                paint.blendOver(x: x, y: y, count: count, into: r.baseAddress!,
                                                index == 0 ? .over(level) : .overCoverages(c.baseAddress!), scratch: scratch)
                            }
                        }
                    } ?? false
                    spans += 1
                    if took {
                        taken += 1
                        if actual != expected { mismatches += 1 }
                        if unpainted > 0 && unpainted < count { partlyUnpainted += 1 }
                    } else {
                        declined += 1
                        if actual != row { mismatches += 1 }
                    }
                }
                // Shading alone.
                let (swift, fused) = Self.shadedBothWays(paint, x: x, y: y, count: count)
                if swift != fused { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) spans differ between the fused kernels and the Swift path")
        // Most spans are taken, some declined (concentric gradients that do not extend), and
        // spans with pixels the plain rule does not serve are taken too (the kernel stops and
        // resumes).
        #expect(taken > spans / 2 && declined > 0 && partlyUnpainted > 20,
                "taken \(taken), declined \(declined), partly unpainted \(partlyUnpainted) of \(spans)")
    }

    /// Without AVX2 (forced SSE2) no paint takes the fused path.
    @Test func sse2DeclinesTheFusedPath() {
        var rng = SplitMix64(seed: 3)
        let paints = Self.paints(&rng)
        var row = [UInt32](repeating: 0x8040_2010, count: 40)
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: 8)
        defer { scratch.deallocate() }
        let taken = KernelDispatch.withPath(.sse2) {
            paints.filter { paint in
                row.withUnsafeMutableBufferPointer { paint.blendOver(x: 3, y: 5, count: 40, into: $0.baseAddress!, .over(200), scratch: scratch) }
            }
        } ?? []
        #expect(taken.isEmpty && row.allSatisfy { $0 == 0x8040_2010 })
    }
}
