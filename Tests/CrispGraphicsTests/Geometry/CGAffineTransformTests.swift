import Foundation
import Testing
@_spi(Testing) import CrispGraphics

@Suite struct CGAffineTransformTests {
    func close(_ a: CGPoint, _ b: CGPoint, _ eps: CGFloat = 1e-9) -> Bool { abs(a.x - b.x) < eps && abs(a.y - b.y) < eps }

    @Test func concatenationAppliesLeftFirst() {
        let t = CGAffineTransform(translationX: 10, y: 0).concatenating(CGAffineTransform(scaleX: 2, y: 3))
        #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 22, y: 3))
    }

    @Test func translatedByActsBeforeTheTransform() {
        // As in CoreGraphics: t.translatedBy(x:y:) == CGAffineTransform(translationX:y:).concatenating(t)
        let t = CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 5, y: 0)
        #expect(CGPoint.zero.applying(t) == CGPoint(x: 10, y: 0))
        let r = CGAffineTransform(translationX: 100, y: 0).rotated(by: .pi / 2)
        #expect(close(CGPoint(x: 1, y: 0).applying(r), CGPoint(x: 100, y: 1)))
        let s = CGAffineTransform(translationX: 1, y: 1).scaledBy(x: 3, y: 4)
        #expect(CGPoint(x: 1, y: 1).applying(s) == CGPoint(x: 4, y: 5))
    }

    @Test(arguments: [0.0, 1.0, 2.0, 3.0, -1.0, 4.0])
    func quarterTurnsAreExact(quarters: Double) {
        let t = CGAffineTransform(rotationAngle: quarters * .pi / 2)
        for v in [t.a, t.b, t.c, t.d] { #expect(v == 0 || v == 1 || v == -1) }
        #expect(t.isRectilinear)
    }

    @Test func rotationIsCounterClockwiseInYUpSpace() {
        let p = CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(p == CGPoint(x: 0, y: 1))
    }

    @Test func inversionRoundTrips() {
        let t = CGAffineTransform(a: 2, b: 0.5, c: -0.3, d: 1.5, tx: 7, ty: -3)
        let p = CGPoint(x: 3.25, y: -8.5)
        #expect(close(p.applying(t).applying(t.inverted()), p))
        #expect(t.concatenating(t.inverted()).a - 1 < 1e-12)
    }

    @Test func singularTransformInvertsToItself() {
        let t = CGAffineTransform(scaleX: 0, y: 2)
        #expect(t.inverted() == t)
    }

    @Test func identity() {
        #expect(CGAffineTransform.identity.isIdentity)
        #expect(CGAffineTransform() == .identity)
        #expect(!CGAffineTransform(translationX: 1, y: 0).isIdentity)
    }

    @Test func rectApplyingGivesBoundingBox() {
        let r = CGRect(x: 0, y: 0, width: 10, height: 20).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(r == CGRect(x: -20, y: 0, width: 20, height: 10))
        #expect(CGRect.null.applying(CGAffineTransform(scaleX: 2, y: 2)).isNull)
    }

    @Test func sizeApplyingIgnoresTranslation() {
        let s = CGSize(width: 2, height: 3).applying(CGAffineTransform(a: 2, b: 0, c: 0, d: -1, tx: 50, ty: 60))
        #expect(s == CGSize(width: 4, height: -3))
    }

    @Test func scaleMeasures() {
        let t = CGAffineTransform(scaleX: 3, y: 2).rotated(by: 0.3)
        #expect(abs(t.maximumScale - 3) < 1e-9)
        #expect(abs(t.areaScale - 6.0.squareRoot()) < 1e-9)
    }
}
