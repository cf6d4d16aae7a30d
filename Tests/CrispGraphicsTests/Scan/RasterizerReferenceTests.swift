import CrispTestSupport
import Foundation
import Testing
import CrispGraphics

/// The fast rasterizer against the 16×16 supersampling reference on random polygons.
///
/// Tolerance: the reference quantizes coverage to 1/256 and places its samples on a grid, so
/// along an edge it can be off by about one sample row or column: up to 16 of its 256 samples,
/// i.e. 16/255, in the worst pixel for a steep or shallow edge that runs almost along the grid.
/// The mean difference must stay tiny (below 0.5/255), which an error in the area formula or in
/// the fill rule would break at once.
///
/// Pixels whose winding number takes non-adjacent values (e.g. +1 and −1 near a
/// self-intersection) are left out: exact-area rasterizers (this one, FreeType, AGG, Blend2D)
/// integrate the winding number and apply the fill rule to the integral, which differs from the
/// true coverage there ("conflation"). The test checks that such pixels stay rare.
@Suite struct RasterizerReferenceTests {
    static let size = 48

    /// Renders polygons with the fast rasterizer as an 8-bit coverage image (white on transparent).
    static func fastCoverage(_ polygons: [[CGPoint]], rule: CGPathFillRule) -> [UInt8] {
        let ctx = CGContext(width: size, height: size)!
        // Raster coordinates (y down) into the y-up context.
        ctx.concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(size)))
        for poly in polygons { ctx.addLines(between: poly); ctx.closePath() }
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fillPath(using: rule)
        return ctx.makeImage()!.pixels.map { UInt8($0 >> 24) }
    }

    static func randomPolygons(seed: UInt64, count: Int, vertices: Int) -> [[CGPoint]] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0..<vertices).map { _ in
                CGPoint(x: CGFloat.random(in: -4...CGFloat(size + 4), using: &rng),
                        y: CGFloat.random(in: -4...CGFloat(size + 4), using: &rng))
            }
        }
    }

    @Test(arguments: [CGPathFillRule.winding, .evenOdd], Array(UInt64(1)...12))
    func randomPolygonsMatchSupersampling(rule: CGPathFillRule, seed: UInt64) {
        let polygons = Self.randomPolygons(seed: seed, count: 1 + Int(seed % 3), vertices: 3 + Int(seed % 9))
        let fast = Self.fastCoverage(polygons, rule: rule)
        let (slow, isSimple) = ReferenceRasterizer.coverage(of: polygons, rule: rule, width: Self.size, height: Self.size)
        var maxDiff = 0, total = 0
        let excluded = isSimple.filter { !$0 }.count
        #expect(excluded * 10 < fast.count, "\(excluded) pixels with non-adjacent winding numbers")
        for i in fast.indices where isSimple[i] {
            let d = abs(Int(fast[i]) - Int(slow[i]))
            maxDiff = max(maxDiff, d)
            total += d
        }
        let mean = Double(total) / Double(fast.count)
        #expect(maxDiff <= 16, "max difference \(maxDiff)/255")
        #expect(mean < 0.5, "mean difference \(mean)/255")
    }
}
