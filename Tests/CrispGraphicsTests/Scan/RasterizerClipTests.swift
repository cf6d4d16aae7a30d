import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) import CrispGraphics

/// The rasterizer keeps edges in fixed point relative to a fixed origin and clips them exactly
/// (rows by their x at each row boundary, columns left of the clip folded into its first cell),
/// so a shape gives every visible pixel the same coverage under any clip box — and, as the same
/// context draws one shape after another, no cell is left behind for the next.
@Suite struct RasterizerClipTests {
    static let size = 64

    static func draw(_ polygons: [[CGPoint]], rule: CGPathFillRule, antialias: Bool, clip: CGRect?,
                     width: Int = size, height: Int = size) -> CGContext {
        let ctx = CGContext(width: width, height: height)!
        ctx.concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)))
        if let clip { ctx.clip(to: clip) }
        ctx.setShouldAntialias(antialias)
        ctx.setFillColor(gray: 1, alpha: 1)
        for poly in polygons {
            ctx.addLines(between: poly)
            ctx.closePath()
            ctx.fillPath(using: rule)
        }
        return ctx
    }

    @Test(arguments: [CGPathFillRule.winding, .evenOdd], Array(UInt64(1)...8))
    func everyClipShowsTheSameCoverage(rule: CGPathFillRule, seed: UInt64) {
        let size = Self.size
        var rng = SplitMix64(seed: seed &* 7919)
        // Shapes reaching beyond the canvas on every side, with long shallow edges.
        let polygons = (0..<3).map { _ in
            (0..<(3 + Int(seed % 6))).map { _ in
                CGPoint(x: CGFloat.random(in: -40...CGFloat(size + 40), using: &rng),
                        y: CGFloat.random(in: -8...CGFloat(size + 8), using: &rng))
            }
        }
        for antialias in [true, false] {
            let whole = Self.draw(polygons, rule: rule, antialias: antialias, clip: nil)
            for _ in 0..<6 {
                let x = Int.random(in: 0..<size - 1, using: &rng), y = Int.random(in: 0..<size - 1, using: &rng)
                let w = Int.random(in: 1...(size - x), using: &rng), h = Int.random(in: 1...(size - y), using: &rng)
                // The flipped CTM makes the clip rectangle raster pixels x..<x+w, y..<y+h.
                let clip = CGRect(x: x, y: y, width: w, height: h)
                let part = Self.draw(polygons, rule: rule, antialias: antialias, clip: clip)
                var differ = 0, first = ""
                for py in 0..<size {
                    for px in 0..<size {
                        let inside = px >= x && px < x + w && py >= y && py < y + h
                        let want = inside ? whole.alphaAt(px, py) : 0
                        if part.alphaAt(px, py) != want {
                            if differ == 0 { first = "(\(px), \(py)): \(part.alphaAt(px, py)) not \(want)" }
                            differ += 1
                        }
                    }
                }
                #expect(differ == 0, "clip x \(x) y \(y) w \(w) h \(h), antialias \(antialias): \(differ) pixels differ, first \(first)")
            }
        }
    }

    /// A canvas wide enough that the whole clip is swept in several bands of rows, against one
    /// band for a short clip: rows are the same whichever band they fall in.
    @Test func bandsDoNotChangeCoverage() {
        let width = 1500, height = 120
        var rng = SplitMix64(seed: 99)
        let polygons = (0..<4).map { _ in
            (0..<9).map { _ in
                CGPoint(x: CGFloat.random(in: -50...CGFloat(width + 50), using: &rng),
                        y: CGFloat.random(in: -10...CGFloat(height + 10), using: &rng))
            }
        }
        let whole = Self.draw(polygons, rule: .winding, antialias: true, clip: nil, width: width, height: height)
        #expect(width * height > Rasterizer.bandBudget * 2, "the canvas must take several bands")
        for (y, h) in [(0, 7), (41, 9), (100, 20)] {
            let part = Self.draw(polygons, rule: .winding, antialias: true,
                                 clip: CGRect(x: 0, y: y, width: width, height: h), width: width, height: height)
            let differ = (y..<y + h).reduce(0) { n, py in
                n + (0..<width).filter { part.alphaAt($0, py) != whole.alphaAt($0, py) }.count
            }
            #expect(differ == 0, "rows \(y)..<\(y + h): \(differ) pixels differ")
        }
    }
}
