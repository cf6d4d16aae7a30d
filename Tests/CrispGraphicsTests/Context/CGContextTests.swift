import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) import CrispGraphics

@Suite struct CGContextTests {
    @Test func defaultsMatchCoreGraphics() throws {
        let ctx = try #require(CGContext(width: 4, height: 4))
        #expect(ctx.gstate.lineWidth == 1)
        #expect(ctx.gstate.miterLimit == 10)
        #expect(ctx.gstate.lineCap == .butt)
        #expect(ctx.gstate.lineJoin == .miter)
        #expect(ctx.gstate.dashLengths.isEmpty)
        #expect(ctx.gstate.fillColor == .black && ctx.gstate.strokeColor == .black)
        #expect(ctx.gstate.alpha == 1 && ctx.gstate.blendMode == .normal && ctx.gstate.shouldAntialias)
        #expect(ctx.ctm.isIdentity)
        #expect(ctx.alphas.allSatisfy { $0 == 0 })
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 4, height: 4))
    }

    @Test func creationRejectsBadLayouts() {
        #expect(CGContext(width: 0, height: 10) == nil)
        #expect(CGContext(width: 10, height: -1) == nil)
        #expect(CGContext(width: 1 << 20, height: 1) == nil)
        let rgb = CGColorSpaceCreateDeviceRGB()
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 0, space: rgb,
                          bitmapInfo: CGBitmapInfo.crispNative.rawValue) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 8, space: rgb,
                          bitmapInfo: CGBitmapInfo.crispNative.rawValue) == nil)
        // Non-premultiplied alpha is not a layout Crisp (or a CoreGraphics bitmap context) draws into.
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                          bitmapInfo: CGImageAlphaInfo.last.rawValue) == nil)
    }

    @Test func drawsIntoCallerMemoryWithPadding() throws {
        var memory = [UInt32](repeating: 0xDEAD_BEEF, count: 6 * 3)
        memory.withUnsafeMutableBytes { raw in
            let ctx = CGContext(data: raw.baseAddress, width: 4, height: 3, bitsPerComponent: 8, bytesPerRow: 24,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo.crispNative.rawValue)!
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 3))
        }
        for y in 0..<3 {
            #expect(memory[y * 6 ..< y * 6 + 4].allSatisfy { $0 == 0xFFFF_0000 })
            #expect(memory[y * 6 + 4 ..< y * 6 + 6].allSatisfy { $0 == 0xDEAD_BEEF })  // padding untouched
        }
    }

    @Test func originIsBottomLeft() {
        let ctx = CGContext(width: 10, height: 10)!
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        #expect(ctx.alphaAt(0, 9) == 255)
        #expect(ctx.alphaAt(0, 0) == 0)
    }

    @Test func pixelAlignedRectangleIsExact() {
        for useFastPath in [true, false] {
            let ctx = CGContext(width: 20, height: 20)!
            if useFastPath {
                ctx.fill(CGRect(x: 3, y: 4, width: 10, height: 7))
            } else {
                // Through the rasterizer: a rectangle drawn as a general polygon.
                ctx.addLines(between: [CGPoint(x: 3, y: 4), CGPoint(x: 13, y: 4), CGPoint(x: 13, y: 11), CGPoint(x: 8, y: 11), CGPoint(x: 3, y: 11)])
                ctx.fillPath()
            }
            for y in 0..<20 {
                for x in 0..<20 {
                    let inside = x >= 3 && x < 13 && (19 - y) >= 4 && (19 - y) < 11
                    #expect(ctx.alphaAt(x, y) == (inside ? 255 : 0), "(\(x), \(y)) fast path \(useFastPath)")
                }
            }
        }
    }

    @Test(arguments: [CGRect(x: 2.25, y: 3.5, width: 10.5, height: 4.75), CGRect(x: 5.1, y: 5.2, width: 0.3, height: 0.4),
                      CGRect(x: -3.5, y: 8.5, width: 40, height: 2.5)])
    func fractionalRectangleCoverageIsExactArea(rect: CGRect) {
        let fast = CGContext(width: 20, height: 20)!
        fast.fill(rect)
        let slow = CGContext(width: 20, height: 20)!
        slow.translateBy(x: 10, y: 10)
        slow.rotate(by: 1e-9)   // defeats the rectangle fast path; numerically the same rectangle
        slow.translateBy(x: -10, y: -10)
        slow.fill(rect)
        let visible = rect.intersection(CGRect(x: 0, y: 0, width: 20, height: 20))
        #expect(abs(fast.coveredArea - visible.width * visible.height) < 0.05)
        for (a, b) in zip(fast.alphas, slow.alphas) { #expect(abs(a - b) <= 1) }
    }

    @Test func saveRestoreCoversStateButNotPath() {
        let ctx = CGContext(width: 10, height: 10)!
        ctx.move(to: CGPoint(x: 1, y: 1))
        ctx.saveGState()
        ctx.translateBy(x: 3, y: 3)
        ctx.setFillColor(gray: 0.5, alpha: 1)
        ctx.setLineWidth(7)
        ctx.setAlpha(0.25)
        ctx.setBlendMode(.copy)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        ctx.addLine(to: CGPoint(x: 2, y: 2))
        ctx.restoreGState()
        #expect(ctx.ctm.isIdentity)
        #expect(ctx.gstate.fillColor == .black && ctx.gstate.lineWidth == 1 && ctx.gstate.alpha == 1)
        #expect(ctx.gstate.blendMode == .normal)
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 10, height: 10))
        // The path survives, with the point added under the translated CTM.
        #expect(ctx.currentPointOfPath == CGPoint(x: 5, y: 5))
        ctx.restoreGState()  // unbalanced restore is ignored
    }

    @Test func pathPointsUseTheCTMAtTheTimeTheyAreAdded() {
        let ctx = CGContext(width: 20, height: 20)!
        ctx.addRect(CGRect(x: 0, y: 0, width: 5, height: 5))
        ctx.scaleBy(x: 2, y: 2)   // after the rect: does not move it
        ctx.fillPath()
        #expect(abs(ctx.coveredArea - 25) < 1e-9)
        #expect(ctx.isPathEmpty)
    }

    @Test func pathQueriesAreInUserSpace() {
        let ctx = CGContext(width: 20, height: 20)!
        ctx.translateBy(x: 5, y: 5)
        ctx.addRect(CGRect(x: 1, y: 1, width: 2, height: 3))
        #expect(ctx.boundingBoxOfPath == CGRect(x: 1, y: 1, width: 2, height: 3))
        #expect(ctx.pathContains(CGPoint(x: 2, y: 2), mode: .fill))
        #expect(!ctx.pathContains(CGPoint(x: 7, y: 7), mode: .fill))
        #expect(ctx.path?.boundingBox == CGRect(x: 1, y: 1, width: 2, height: 3))
    }

    @Test func sharedPixelAlignedEdgeHasNoSeam() {
        // Two triangles sharing the diagonal of a square, drawn separately, plus two polygons
        // sharing a vertical pixel-aligned edge: the shared edge must not show.
        let ctx = CGContext(width: 16, height: 16)!
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.addLines(between: [CGPoint(x: 2, y: 2), CGPoint(x: 8, y: 2.5), CGPoint(x: 8, y: 13.5), CGPoint(x: 2, y: 14)])
        ctx.fillPath()
        ctx.addLines(between: [CGPoint(x: 8, y: 2.5), CGPoint(x: 14, y: 2), CGPoint(x: 14, y: 14), CGPoint(x: 8, y: 13.5)])
        ctx.fillPath()
        for y in 4..<12 { #expect(ctx.alphaAt(7, y) == 255 && ctx.alphaAt(8, y) == 255) }
    }

    @Test func subpathsOfOneFillShareEdgesWithoutSeam() {
        // Within one fill, coverage adds before the fill rule: a shared diagonal edge vanishes.
        let ctx = CGContext(width: 16, height: 16)!
        ctx.addLines(between: [CGPoint(x: 1, y: 1), CGPoint(x: 15, y: 1), CGPoint(x: 15, y: 15)])
        ctx.closePath()
        ctx.addLines(between: [CGPoint(x: 1, y: 1), CGPoint(x: 15, y: 15), CGPoint(x: 1, y: 15)])
        ctx.closePath()
        ctx.fillPath()
        for i in 2..<14 { #expect(ctx.alphaAt(i, 15 - i) == 255) }
    }

    @Test func coverageIsDeterministicAndLeavesNoResidue() {
        func ellipse(_ ctx: CGContext) {
            ctx.setFillColor(red: 0.3, green: 0.6, blue: 0.2, alpha: 0.7)
            ctx.fillEllipse(in: CGRect(x: 3.3, y: 2.7, width: 40.1, height: 25.9))
        }
        let once = CGContext(width: 48, height: 32)!
        ellipse(once)
        // Another shape first (it leaves nothing behind in the rasterizer's buffers), then clear.
        let after = CGContext(width: 48, height: 32)!
        after.addLines(between: [CGPoint(x: 1.5, y: 1), CGPoint(x: 47, y: 30.5), CGPoint(x: 3, y: 29)])
        after.fillPath(using: .evenOdd)
        after.clear(CGRect(x: 0, y: 0, width: 48, height: 32))
        ellipse(after)
        #expect(once.snapshot == after.snapshot)
    }

    @Test func clippingToAShapeMatchesFillingIt() {
        let shape = CGMutablePath()
        shape.addEllipse(in: CGRect(x: 3.3, y: 2.7, width: 40.1, height: 25.9))
        shape.addRect(CGRect(x: 10.5, y: 8.25, width: 12, height: 9))
        let filled = CGContext(width: 48, height: 32)!
        filled.addPath(shape)
        filled.fillPath(using: .evenOdd)
        let clipped = CGContext(width: 48, height: 32)!
        clipped.addPath(shape)
        clipped.clip(using: .evenOdd)
        clipped.fill(CGRect(x: 0, y: 0, width: 48, height: 32))
        // Edges are kept in Float relative to the clip box, and a clip mask is rasterized in a
        // box around the clip path, so rounding may differ by one step: allow ±1 per channel.
        var worst = 0
        for (a, b) in zip(filled.snapshot, clipped.snapshot) {
            for shift: UInt32 in [0, 8, 16, 24] {
                let ca = Int((a >> shift) & 0xFF), cb = Int((b >> shift) & 0xFF)
                worst = max(worst, abs(ca - cb))
            }
        }
        #expect(worst <= 1)
    }

    @Test func coverageSumsMatchPolygonArea() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20 {
            // Random convex polygons (points on an ellipse in angular order).
            let cx = CGFloat.random(in: 20...44, using: &rng), cy = CGFloat.random(in: 20...44, using: &rng)
            let rx = CGFloat.random(in: 3...18, using: &rng), ry = CGFloat.random(in: 3...18, using: &rng)
            let angles = (0..<9).map { _ in CGFloat.random(in: 0 ..< 2 * .pi, using: &rng) }.sorted()
            let pts = angles.map { CGPoint(x: cx + rx * cos($0), y: cy + ry * sin($0)) }
            var area: CGFloat = 0
            for i in pts.indices {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                area += a.x * b.y - b.x * a.y
            }
            area = abs(area) / 2
            let ctx = CGContext(width: 64, height: 64)!
            ctx.addLines(between: pts)
            ctx.fillPath(using: .evenOdd)
            // Each pixel's alpha is rounded to 1/255: at most 0.5/255 per edge pixel.
            #expect(abs(ctx.coveredArea - area) < 0.02 * Double(rx + ry), "area \(area) vs \(ctx.coveredArea)")
        }
    }

    @Test func circleCoverageMatchesAreaWithinFlatness() {
        let ctx = CGContext(width: 64, height: 64)!
        ctx.fillEllipse(in: CGRect(x: 7.3, y: 6.1, width: 50, height: 50))
        let exact = Double.pi * 25 * 25
        // Chords lie inside the circle by at most the flatness (0.2 px): area loss < perimeter × 0.2.
        let error = exact - ctx.coveredArea
        #expect(error >= -0.5 && error < 2 * .pi * 25 * 0.2)
    }

    @Test func fillRulesDiffer() {
        let ctx = CGContext(width: 40, height: 40)!
        ctx.addEllipse(in: CGRect(x: 2, y: 2, width: 36, height: 36))
        ctx.addEllipse(in: CGRect(x: 12, y: 12, width: 16, height: 16))
        ctx.fillPath(using: .evenOdd)
        #expect(ctx.alphaAt(20, 20) == 0 && ctx.alphaAt(6, 20) == 255)
        ctx.addEllipse(in: CGRect(x: 2, y: 2, width: 36, height: 36))
        ctx.addEllipse(in: CGRect(x: 12, y: 12, width: 16, height: 16))
        ctx.fillPath(using: .winding)
        #expect(ctx.alphaAt(20, 20) == 255)
    }

    @Test func antialiasingOffGivesBinaryCoverage() {
        let ctx = CGContext(width: 32, height: 32)!
        ctx.setShouldAntialias(false)
        ctx.fillEllipse(in: CGRect(x: 3.3, y: 4.4, width: 20.2, height: 17.7))
        ctx.fill(CGRect(x: 25.3, y: 1.6, width: 4.4, height: 8.2))
        #expect(Set(ctx.alphas) == [0, 255])
        ctx.setShouldAntialias(true)
        ctx.setAllowsAntialiasing(false)
        ctx.fillEllipse(in: CGRect(x: 3.3, y: 4.4, width: 20.2, height: 17.7))
        #expect(Set(ctx.alphas) == [0, 255])
    }

    @Test func alphaAndColourArePremultiplied() {
        let ctx = CGContext(width: 4, height: 4)!
        ctx.setAlpha(0.5)
        ctx.setFillColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(ctx.pixelAt(1, 1) == 0x8080_4000)
    }

    @Test func blendModesCopyAndClear() {
        let ctx = CGContext(width: 8, height: 8)!
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        ctx.setBlendMode(.copy)
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 8))
        #expect(ctx.pixelAt(1, 1) == 0x8000_0080)   // replaced, not blended
        #expect(ctx.pixelAt(6, 1) == 0xFFFF_0000)   // outside the shape: untouched
        ctx.setBlendMode(.normal)
        ctx.clear(CGRect(x: 4, y: 0, width: 2, height: 8))
        #expect(ctx.pixelAt(4, 3) == 0 && ctx.pixelAt(6, 3) == 0xFFFF_0000)
        ctx.setBlendMode(.destinationOut)
        ctx.setFillColor(gray: 0, alpha: 1)
        ctx.fill(CGRect(x: 6, y: 0, width: 1, height: 8))
        #expect(ctx.pixelAt(6, 3) == 0 && ctx.pixelAt(7, 3) == 0xFFFF_0000)
    }

    @Test func clipToPixelAlignedRectNeedsNoMask() {
        let ctx = CGContext(width: 20, height: 20)!
        ctx.clip(to: CGRect(x: 2, y: 3, width: 10, height: 5))
        #expect(ctx.gstate.clip.mask == nil)
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 2, y: 3, width: 10, height: 5))
        ctx.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
        #expect(abs(ctx.coveredArea - 50) < 1e-9)
    }

    @Test func clipsIntersectAndRestore() {
        let ctx = CGContext(width: 40, height: 40)!
        ctx.saveGState()
        ctx.addEllipse(in: CGRect(x: 0, y: 0, width: 40, height: 40))
        ctx.clip()
        ctx.clip(to: CGRect(x: 20, y: 0, width: 20, height: 40))
        ctx.addRect(CGRect(x: 0, y: 20, width: 40, height: 20))
        ctx.clip(using: .evenOdd)
        ctx.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
        ctx.restoreGState()
        // A quarter disc of radius 20; flattening (0.2 px) loses at most quarter perimeter × 0.2.
        #expect(abs(ctx.coveredArea - .pi * 400 / 4) < .pi * 20 / 2 * 0.2)
        #expect(ctx.alphaAt(30, 10) == 255 && ctx.alphaAt(10, 10) == 0 && ctx.alphaAt(30, 30) == 0)
        ctx.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
        #expect(ctx.alphas.allSatisfy { $0 == 255 })
    }

    @Test func emptyClipDrawsNothing() {
        let ctx = CGContext(width: 10, height: 10)!
        ctx.clip(to: CGRect(x: 20, y: 20, width: 5, height: 5))
        ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        ctx.fillEllipse(in: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(ctx.alphas.allSatisfy { $0 == 0 })
        #expect(ctx.boundingBoxOfClipPath == .zero)
    }

    @Test func flippedContextDrawsFromTheTop() {
        let ctx = CGContext.flipped(width: 10, height: 10)
        ctx.fill(CGRect(x: 0, y: 0, width: 3, height: 2))
        #expect(ctx.alphaAt(0, 0) == 255 && ctx.alphaAt(0, 9) == 0)
    }

    @Test func makeImageCopiesPixels() {
        let ctx = CGContext(width: 3, height: 2)!
        ctx.fill(CGRect(x: 0, y: 1, width: 1, height: 1))  // top-left pixel in raster order
        let image = ctx.makeImage()!
        #expect(image.width == 3 && image.height == 2 && image.bytesPerRow == 12)
        #expect(image.pixel(x: 0, y: 0) == 0xFF00_0000 && image.pixel(x: 0, y: 1) == 0)
        ctx.clear(CGRect(x: 0, y: 0, width: 3, height: 2))
        #expect(image.pixel(x: 0, y: 0) == 0xFF00_0000)
    }
}

/// Hostile geometry: every call returns promptly with a defined result.
@Suite struct CGContextBadInputTests {
    @Test func nanAndInfinityAreSkipped() {
        let ctx = CGContext(width: 20, height: 20)!
        ctx.addLines(between: [CGPoint(x: 1, y: 1), CGPoint(x: CGFloat.nan, y: 5), CGPoint(x: 10, y: 10)])
        ctx.addLines(between: [CGPoint(x: 1, y: 1), CGPoint(x: CGFloat.infinity, y: 5), CGPoint(x: 10, y: 10)])
        ctx.fillPath()
        ctx.fill(CGRect(x: CGFloat.nan, y: 0, width: 5, height: 5))
        ctx.fillEllipse(in: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 5))
        #expect(ctx.alphas.allSatisfy { $0 == 0 })
        // A good subpath next to a bad one still draws.
        ctx.addRect(CGRect(x: 0, y: 0, width: 2, height: 2))
        ctx.addLines(between: [CGPoint(x: 5, y: 5), CGPoint(x: CGFloat.nan, y: CGFloat.nan), CGPoint(x: 9, y: 9)])
        ctx.fillPath()
        #expect(abs(ctx.coveredArea - 4) < 1e-9)
    }

    /// Regression: the rectangle fast path handed a NaN rectangle to Foundation, which traps.
    @Test func nonFiniteRectanglesNeitherTrapNorDraw() {
        let ctx = CGContext(width: 8, height: 8)!
        ctx.fill(CGRect(x: 0, y: 0, width: CGFloat.nan, height: 4))
        ctx.fill([CGRect(x: CGFloat.infinity, y: 0, width: 1, height: 1)])
        ctx.stroke(CGRect(x: 0, y: CGFloat.nan, width: 3, height: 3))
        ctx.clear(CGRect(x: 0, y: 0, width: 8, height: CGFloat.nan))
        #expect(ctx.alphas.allSatisfy { $0 == 0 })
        ctx.clip(to: CGRect(x: CGFloat.nan, y: 0, width: 4, height: 4))
        ctx.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        #expect(ctx.alphas.allSatisfy { $0 == 0 })
    }

    @Test func hugeCoordinatesAreClippedExactly() {
        let ctx = CGContext(width: 32, height: 32)!
        ctx.addLines(between: [CGPoint(x: -1e12, y: -1e12), CGPoint(x: 1e12, y: -1e12), CGPoint(x: 0, y: 1e12)])
        ctx.fillPath()
        #expect(ctx.alphas.allSatisfy { $0 == 255 })
        let curves = CGContext(width: 32, height: 32)!
        curves.move(to: CGPoint(x: -1e12, y: 16))
        curves.addCurve(to: CGPoint(x: 1e12, y: 16), control1: CGPoint(x: -1e12, y: -1e12), control2: CGPoint(x: 1e12, y: -1e12))
        curves.fillPath()
        #expect(curves.alphaAt(16, 20) == 255 && curves.alphaAt(16, 10) == 0)
    }

    @Test func emptyAndDegeneratePathsDrawNothing() {
        let ctx = CGContext(width: 10, height: 10)!
        ctx.fillPath()
        ctx.move(to: CGPoint(x: 3, y: 3))
        ctx.fillPath()
        ctx.addLines(between: [CGPoint(x: 1, y: 1), CGPoint(x: 8, y: 8)])
        ctx.fillPath()
        ctx.fill(CGRect(x: 2, y: 2, width: 0, height: 5))
        ctx.scaleBy(x: 0, y: 1)
        ctx.fill(CGRect(x: 2, y: 2, width: 5, height: 5))
        ctx.strokeEllipse(in: CGRect(x: 2, y: 2, width: 5, height: 5))
        #expect(ctx.alphas.allSatisfy { $0 == 0 })
    }

    @Test func millionSegmentPathCompletes() {
        let ctx = CGContext(width: 256, height: 256)!
        var rng = SplitMix64(seed: 7)
        let pts = (0..<1_000_000).map { _ in
            CGPoint(x: CGFloat.random(in: 0...256, using: &rng), y: CGFloat.random(in: 0...256, using: &rng))
        }
        ctx.addLines(between: pts)
        ctx.fillPath(using: .evenOdd)
        #expect(ctx.alphas.contains { $0 > 0 })
    }

    @Test func absurdCurvesAreBounded() {
        let ctx = CGContext(width: 64, height: 64)!
        ctx.move(to: CGPoint(x: 0, y: 0))
        for i in 0..<1000 {
            let f = CGFloat(i)
            ctx.addCurve(to: CGPoint(x: 32, y: 32), control1: CGPoint(x: 1e15 * f, y: -1e15), control2: CGPoint(x: -1e15, y: 1e15 * f))
        }
        ctx.fillPath()
        #expect(ctx.rasterizer.isEmpty)
    }
}
