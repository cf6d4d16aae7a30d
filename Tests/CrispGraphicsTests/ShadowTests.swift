import Foundation
import Testing
@testable import CrispGraphics

@Suite struct ShadowTests {
    /// Regression: the shadow buffer was cut at the shape's own bounds, so a shape drawn off the
    /// canvas cast a hard-edged, square-cornered shadow.
    @Test func shadowOfAFarShapeSpreadsBeyondItsBounds() {
        let ctx = CGContext(width: 60, height: 40)!
        ctx.setShadow(offset: CGSize(width: 130, height: 0), blur: 8, color: CGColor(gray: 0, alpha: 1))
        ctx.fill(CGRect(x: -110, y: 15, width: 10, height: 10))   // the shadow lands on x 20…30
        // Centre of a 10-px square blurred with σ = 4: a Gaussian gives erf(5 / (4√2))² ≈ 0.62
        // (159); three box passes approximate it within about 10%.
        #expect(abs(ctx.alphaAt(25, 20) - 159) < 16)
        // σ = 4: the blur reaches well past the square's edge, fading smoothly.
        let profile = (30...38).map { ctx.alphaAt($0, 20) }
        #expect(profile.first! > 0 && profile.last! < profile.first!)
        #expect(zip(profile, profile.dropFirst()).allSatisfy { $1 <= $0 })
        #expect(ctx.alphaAt(34, 20) > 5)
    }

    @Test func shadowIsSavedAndRestoredAndClearedByNilColor() {
        let ctx = CGContext(width: 30, height: 30)!
        ctx.saveGState()
        ctx.setShadow(offset: CGSize(width: 5, height: -5), blur: 0)
        #expect(ctx.gstate.shadow != nil)
        ctx.restoreGState()
        #expect(ctx.gstate.shadow == nil)
        ctx.setShadow(offset: CGSize(width: 5, height: 5), blur: 2, color: nil)
        #expect(ctx.gstate.shadow == nil)
    }

    @Test func defaultShadowIsBlackAtOneThird() {
        let ctx = CGContext(width: 30, height: 30)!
        ctx.setShadow(offset: CGSize(width: 10, height: -10), blur: 0)
        ctx.fill(CGRect(x: 2, y: 18, width: 8, height: 8))
        // Shadow pixel: black at alpha 85 (1/3), 10 right and 10 down.
        #expect(ctx.pixelAt(16, 16) == 0x5500_0000)
        #expect(ctx.pixelAt(5, 6) == 0xFF00_0000)
    }

    @Test(arguments: [CGFloat(-5), 0, 1e9, .nan, .infinity])
    func absurdBlurIsDefined(blur: CGFloat) {
        let ctx = CGContext(width: 40, height: 40)!
        ctx.setShadow(offset: CGSize(width: 3, height: 3), blur: blur)
        ctx.fillEllipse(in: CGRect(x: 10, y: 10, width: 20, height: 20))
        #expect(ctx.alphaAt(20, 20) == 255)
    }

    @Test func blurCostDoesNotDependOnTheRadius() {
        // The box passes are running sums: the same three passes whatever σ.
        #expect(BoxBlur.passes(sigma: 1).count == 3 && BoxBlur.passes(sigma: 100).count == 3)
        #expect(BoxBlur.passes(sigma: 0.1).isEmpty)
    }
}
