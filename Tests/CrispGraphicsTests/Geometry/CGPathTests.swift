import Foundation
import Testing
@_spi(Testing) import CrispGraphics

@Suite struct CGPathTests {
    func near(_ a: CGPoint, _ b: CGPoint, _ eps: CGFloat = 1e-9) -> Bool { abs(a.x - b.x) < eps && abs(a.y - b.y) < eps }

    @Test func addRectElements() {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(p.elements == [.moveTo(CGPoint(x: 1, y: 2)), .lineTo(CGPoint(x: 4, y: 2)), .lineTo(CGPoint(x: 4, y: 6)),
                               .lineTo(CGPoint(x: 1, y: 6)), .closeSubpath])
        var r = CGRect.zero
        #expect(p.isRect(&r))
        #expect(r == CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    /// Regression: `elements` reported a quadratic's control point as its end point.
    @Test func quadCurveElementKeepsEndAndControlApart() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addQuadCurve(to: CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 8))
        #expect(p.elements == [.moveTo(.zero), .quadCurveTo(CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 8))])
        #expect(p.currentPoint == CGPoint(x: 10, y: 0))
    }

    @Test func lineWithoutCurrentPointIsIgnored() {
        let p = CGMutablePath()
        p.addLine(to: CGPoint(x: 5, y: 5))
        p.addCurve(to: .zero, control1: .zero, control2: .zero)
        #expect(p.isEmpty)
        #expect(p.currentPoint == .zero)
    }

    @Test func consecutiveMovesCollapse() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 1))
        p.move(to: CGPoint(x: 2, y: 2))
        p.addLine(to: CGPoint(x: 3, y: 3))
        #expect(p.elements == [.moveTo(CGPoint(x: 2, y: 2)), .lineTo(CGPoint(x: 3, y: 3))])
    }

    @Test func drawingAfterCloseStartsAtSubpathStart() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 1))
        p.addLine(to: CGPoint(x: 5, y: 1))
        p.closeSubpath()
        #expect(p.currentPoint == CGPoint(x: 1, y: 1))
        p.addLine(to: CGPoint(x: 1, y: 9))
        #expect(p.elements.suffix(2) == [.moveTo(CGPoint(x: 1, y: 1)), .lineTo(CGPoint(x: 1, y: 9))])
    }

    @Test func transformIsAppliedToAddedPoints() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 0), transform: CGAffineTransform(scaleX: 10, y: 10))
        #expect(p.currentPoint == CGPoint(x: 10, y: 0))
    }

    @Test func counterClockwiseArcGoesThroughPositiveY() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(near(p.currentPoint, CGPoint(x: 0, y: 10)))
        #expect(p.boundingBoxOfPath.minY > -1e-9)
        #expect(p.elements.count == 2)  // move + one quarter curve
    }

    @Test func clockwiseArcGoesTheLongWayInYUpSpace() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(near(p.currentPoint, CGPoint(x: 0, y: 10)))
        // Three quarters, through (0, −10) and (−10, 0).
        let box = p.boundingBoxOfPath
        #expect(abs(box.minY + 10) < 1e-9 && abs(box.minX + 10) < 1e-9)
        #expect(p.elements.count == 4)
    }

    @Test func arcPointsLieOnTheCircle() {
        let p = CGMutablePath()
        p.addArc(center: CGPoint(x: 3, y: 4), radius: 50, startAngle: 0.3, endAngle: 5.1, clockwise: false)
        for poly in p.polylines(tolerance: 0.001) {
            for q in poly.points {
                let r = hypot(q.x - 3, q.y - 4)
                #expect(abs(r - 50) < 50 * 3e-4)
            }
        }
    }

    @Test func arcJoinsCurrentPointWithALine() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addArc(center: CGPoint(x: 10, y: 0), radius: 5, startAngle: 0, endAngle: .pi, clockwise: false)
        #expect(p.elements[1] == .lineTo(CGPoint(x: 15, y: 0)))
    }

    @Test func fullTurnArcsAreCircles() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 7 * .pi, clockwise: false)
        #expect(p.elements.count == 5)  // capped at one turn: move + 4 quarters
    }

    /// Regression: `addArc(0 → 2π, clockwise: true)` drew nothing; it is the usual iOS circle.
    @Test(arguments: [false, true])
    func wholeTurnInEitherDirectionIsACircle(clockwise: Bool) {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 5, startAngle: 0, endAngle: 2 * .pi, clockwise: clockwise)
        #expect(p.elements.count == 5)
        let back = CGMutablePath()
        back.addArc(center: .zero, radius: 5, startAngle: 2 * .pi, endAngle: 0, clockwise: clockwise)
        #expect(back.elements.count == 5)
        let none = CGMutablePath()
        none.addArc(center: .zero, radius: 5, startAngle: 1, endAngle: 1, clockwise: clockwise)
        #expect(none.elements == [.moveTo(CGPoint(x: 5 * cos(CGFloat(1)), y: 5 * sin(CGFloat(1))))])
    }

    @Test func tangentArcTouchesBothLines() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 4)
        // Tangent points (6, 0) and (10, 4); centre (6, 4).
        #expect(p.elements[1] == .lineTo(CGPoint(x: 6, y: 0)))
        #expect(near(p.currentPoint, CGPoint(x: 10, y: 4)))
        let collinear = CGMutablePath()
        collinear.move(to: .zero)
        collinear.addArc(tangent1End: CGPoint(x: 5, y: 0), tangent2End: CGPoint(x: 10, y: 0), radius: 3)
        #expect(collinear.currentPoint == CGPoint(x: 5, y: 0))
    }

    @Test func relativeArcSweepsByDelta() {
        let p = CGMutablePath()
        p.addRelativeArc(center: .zero, radius: 2, startAngle: .pi / 2, delta: -.pi / 2)
        #expect(near(p.currentPoint, CGPoint(x: 2, y: 0)))
    }

    @Test func boundingBoxes() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addCurve(to: CGPoint(x: 10, y: 0), control1: CGPoint(x: 0, y: 10), control2: CGPoint(x: 10, y: 10))
        #expect(p.boundingBox == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(abs(p.boundingBoxOfPath.height - 7.5) < 1e-9)
        #expect(CGMutablePath().boundingBox.isNull)
    }

    @Test func containsUsesTheFillRule() {
        let donut = CGMutablePath()
        donut.addEllipse(in: CGRect(x: -10, y: -10, width: 20, height: 20))
        donut.addEllipse(in: CGRect(x: -5, y: -5, width: 10, height: 10))
        #expect(donut.contains(.zero, using: .winding))
        #expect(!donut.contains(.zero, using: .evenOdd))
        #expect(donut.contains(CGPoint(x: 7, y: 0), using: .evenOdd))
        #expect(!donut.contains(CGPoint(x: 11, y: 0)))
        #expect(!donut.contains(CGPoint(x: CGFloat.nan, y: 0)))
    }

    @Test func containsClosesOpenSubpaths() {
        let p = CGMutablePath()
        p.addLines(between: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)])
        #expect(p.contains(CGPoint(x: 8, y: 2)))
    }

    @Test func immutableCopiesAreIndependent() {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0, y: 0, width: 1, height: 1))
        let frozen = p.copy()!
        p.addRect(CGRect(x: 5, y: 5, width: 1, height: 1))
        #expect(frozen.elements.count == 5)
        #expect(frozen.copy() === frozen)
        #expect(frozen == CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        let m = frozen.mutableCopy()!
        m.closeSubpath()
        #expect(m == frozen)
    }

    @Test func applyWithBlockVisitsEveryElement() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addQuadCurve(to: CGPoint(x: 2, y: 0), control: CGPoint(x: 1, y: 1))
        p.addCurve(to: CGPoint(x: 5, y: 0), control1: CGPoint(x: 3, y: 1), control2: CGPoint(x: 4, y: 1))
        p.closeSubpath()
        var kinds: [CGPathElementType] = []
        var lastPoints: [CGPoint] = []
        p.applyWithBlock { e in
            kinds.append(e.pointee.type)
            let n = e.pointee.type.pointCount
            if n > 0 { lastPoints.append(e.pointee.points[n - 1]) }
        }
        #expect(kinds == [.moveToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        #expect(lastPoints == [.zero, CGPoint(x: 2, y: 0), CGPoint(x: 5, y: 0)])
    }

    @Test func roundedRectClampsCorners() {
        let p = CGMutablePath()
        p.addRoundedRect(in: CGRect(x: 0, y: 0, width: 10, height: 4), cornerWidth: 50, cornerHeight: 50)
        let box = p.boundingBoxOfPath
        #expect(abs(box.width - 10) < 1e-9 && abs(box.height - 4) < 1e-9)
        #expect(!p.contains(CGPoint(x: 0.2, y: 0.2)))
        #expect(p.contains(CGPoint(x: 5, y: 2)))
    }

    @Test func flatteningStaysWithinTolerance() {
        // A cubic flattened at 0.1 stays within 0.1 of the true curve at every parameter.
        let (p0, p1, p2, p3) = (CGPoint.zero, CGPoint(x: 30, y: 90), CGPoint(x: 70, y: -60), CGPoint(x: 100, y: 20))
        let p = CGMutablePath()
        p.move(to: p0)
        p.addCurve(to: p3, control1: p1, control2: p2)
        let poly = p.polylines(tolerance: 0.1)[0].points
        for k in 0...400 {
            let q = CGPath.cubicPoint(p0, p1, p2, p3, CGFloat(k) / 400)
            var best = CGFloat.infinity
            for i in 1..<poly.count {
                let a = poly[i - 1], b = poly[i]
                let dx = b.x - a.x, dy = b.y - a.y
                let t = max(0, min(1, ((q.x - a.x) * dx + (q.y - a.y) * dy) / (dx * dx + dy * dy)))
                best = min(best, hypot(q.x - (a.x + t * dx), q.y - (a.y + t * dy)))
            }
            #expect(best <= 0.1 + 1e-9)
        }
    }
}
