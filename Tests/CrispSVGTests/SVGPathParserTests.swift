import CrispGraphics
import CrispSVG
import Foundation
import Testing

@Suite("SVG path data")
struct SVGPathParserTests {
    typealias E = CGPath.Element

    func elements(_ d: String) throws -> [E] { Self.elements(of: try SVGPathParser.path(from: d)) }

    /// The path's elements, read with `applyWithBlock` (CoreGraphics' order: a quad curve's
    /// points are control, end). `CGPath.elements` is not used: it swaps a quad curve's end and
    /// control point (a CrispGraphics bug, reported).
    static func elements(of path: CGPath) -> [E] {
        var result: [E] = []
        path.applyWithBlock { e in
            let p = e.pointee.points
            switch e.pointee.type {
            case .moveToPoint: result.append(.moveTo(p[0]))
            case .addLineToPoint: result.append(.lineTo(p[0]))
            case .addQuadCurveToPoint: result.append(.quadCurveTo(p[1], control: p[0]))
            case .addCurveToPoint: result.append(.curveTo(p[2], control1: p[0], control2: p[1]))
            case .closeSubpath: result.append(.closeSubpath)
            }
        }
        return result
    }

    func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    @Test func absoluteAndRelativeLines() throws {
        #expect(try elements("M10 20 L30 40 l5 5 H0 h2 V7 v-1 Z") == [
            .moveTo(p(10, 20)), .lineTo(p(30, 40)), .lineTo(p(35, 45)), .lineTo(p(0, 45)), .lineTo(p(2, 45)),
            .lineTo(p(2, 7)), .lineTo(p(2, 6)), .closeSubpath,
        ])
    }

    @Test func implicitRepeatsAfterMoveAreLines() throws {
        #expect(try elements("M1 1 2 2 3 3") == [.moveTo(p(1, 1)), .lineTo(p(2, 2)), .lineTo(p(3, 3))])
        #expect(try elements("m1 1 2 2 3 3") == [.moveTo(p(1, 1)), .lineTo(p(3, 3)), .lineTo(p(6, 6))])
        #expect(try elements("M0 0 L1 1 2 2") == [.moveTo(p(0, 0)), .lineTo(p(1, 1)), .lineTo(p(2, 2))])
        #expect(try elements("M0 0 h1 2 3") == [.moveTo(p(0, 0)), .lineTo(p(1, 0)), .lineTo(p(3, 0)), .lineTo(p(6, 0))])
    }

    @Test func compactNumbers() throws {
        // `.5.5` is two numbers, `-1-2` is two numbers, exponents in both cases.
        #expect(try elements("M.5.5L-1-2") == [.moveTo(p(0.5, 0.5)), .lineTo(p(-1, -2))])
        #expect(try elements("M1e-3 2E+2L1.5e1,-.25") == [.moveTo(p(0.001, 200)), .lineTo(p(15, -0.25))])
        #expect(try elements("M0,0L5.,6.") == [.moveTo(p(0, 0)), .lineTo(p(5, 6))])
        #expect(try elements("  M 0 , 0 \n\t L +3 , +4  ") == [.moveTo(p(0, 0)), .lineTo(p(3, 4))])
        #expect(try elements("M0 0L1-.5.5.25") == [.moveTo(p(0, 0)), .lineTo(p(1, -0.5)), .lineTo(p(0.5, 0.25))])
    }

    @Test func numberPrecision() throws {
        #expect(try elements("M0.1 123456.789") == [.moveTo(p(0.1, 123456.789))])
        #expect(try elements("M3.141592653589793 1e300") == [.moveTo(p(3.141592653589793, 1e300))])
        #expect(try elements("M0.000000000000000000000000001 0") == [.moveTo(p(1e-27, 0))])
    }

    @Test func cubicAndSmoothCubic() throws {
        #expect(try elements("M0 0 C1 2 3 4 5 6 S9 10 11 12") == [
            .moveTo(p(0, 0)), .curveTo(p(5, 6), control1: p(1, 2), control2: p(3, 4)),
            .curveTo(p(11, 12), control1: p(7, 8), control2: p(9, 10)),
        ])
        // Relative, and S without a preceding C uses the current point.
        #expect(try elements("M10 10 s5 0 10 10") == [
            .moveTo(p(10, 10)), .curveTo(p(20, 20), control1: p(10, 10), control2: p(15, 10)),
        ])
        #expect(try elements("M0 0 c1 1 2 2 3 3 s1 1 2 2") == [
            .moveTo(p(0, 0)), .curveTo(p(3, 3), control1: p(1, 1), control2: p(2, 2)),
            .curveTo(p(5, 5), control1: p(4, 4), control2: p(4, 4)),
        ])
    }

    @Test func quadraticAndSmoothQuadratic() throws {
        #expect(try elements("M0 0 Q1 1 2 0 T4 0") == [
            .moveTo(p(0, 0)), .quadCurveTo(p(2, 0), control: p(1, 1)), .quadCurveTo(p(4, 0), control: p(3, -1)),
        ])
        #expect(try elements("M0 0 q1 1 2 0 t2 0 t2 0") == [
            .moveTo(p(0, 0)), .quadCurveTo(p(2, 0), control: p(1, 1)), .quadCurveTo(p(4, 0), control: p(3, -1)),
            .quadCurveTo(p(6, 0), control: p(5, 1)),
        ])
        // T after a cubic does not reflect the cubic's control point.
        #expect(try elements("M0 0 C1 1 2 2 3 3 T5 5") == [
            .moveTo(p(0, 0)), .curveTo(p(3, 3), control1: p(1, 1), control2: p(2, 2)), .quadCurveTo(p(5, 5), control: p(3, 3)),
        ])
    }

    @Test func drawingAfterCloseStartsAtTheSubpathStart() throws {
        #expect(try elements("M10 10 L20 10 Z l5 5") == [
            .moveTo(p(10, 10)), .lineTo(p(20, 10)), .closeSubpath, .moveTo(p(10, 10)), .lineTo(p(15, 15)),
        ])
        #expect(try elements("M10 10 L20 10 z m1 1 l1 0") == [
            .moveTo(p(10, 10)), .lineTo(p(20, 10)), .closeSubpath, .moveTo(p(11, 11)), .lineTo(p(12, 11)),
        ])
    }

    @Test func arcFlagsWithoutSeparators() throws {
        let compact = try elements("M0 0a25 25 0 1050 50")
        let spaced = try elements("M0 0 a 25 25 0 1 0 50 50")
        #expect(compact == spaced)
        #expect(compact.count > 2)
        #expect(compact.last == spaced.last)
        if case .curveTo(let end, _, _) = compact.last { #expect(end == p(50, 50)) } else { Issue.record("no curve") }
    }

    @Test func arcEndpointsCentreAndSweep() throws {
        // A half circle from (0, 0) to (20, 0) of radius 10: with sweep 1 (positive angles, which
        // turn clockwise on a y-down screen) it passes through (10, -10); with sweep 0, (10, 10).
        let up = try SVGPathParser.path(from: "M0 0 A10 10 0 0 1 20 0")
        let down = try SVGPathParser.path(from: "M0 0 A10 10 0 0 0 20 0")
        #expect(abs(up.boundingBoxOfPath.minY - -10) < 1e-3)
        #expect(abs(down.boundingBoxOfPath.maxY - 10) < 1e-3)
        // Radii too small are scaled up: r = 1 between points 20 apart becomes r = 10.
        let scaled = try SVGPathParser.path(from: "M0 0 A1 1 0 0 1 20 0")
        #expect(abs(scaled.boundingBoxOfPath.minY - -10) < 1e-3)
        // Large arc, counter-sweep: from (10, 0) to (0, 10) the long way round the centre (0, 0).
        let large = try SVGPathParser.path(from: "M10 0 A10 10 0 1 0 0 10").boundingBoxOfPath
        #expect(abs(large.minX + 10) < 1e-3 && abs(large.minY + 10) < 1e-3 && abs(large.maxX - 10) < 1e-3)
        // Rotated ellipse: x-axis rotation 90° swaps the radii's roles.
        let rotated = try SVGPathParser.path(from: "M0 0 A20 10 90 0 1 0 40").boundingBoxOfPath
        #expect(abs(rotated.width - 20) < 1e-3 || abs(rotated.width - 10) < 1e-3)
        #expect(abs(rotated.height - 40) < 1e-3)
    }

    @Test func degenerateArcs() throws {
        // Zero radius: a straight line. Same endpoints: nothing.
        #expect(try elements("M0 0 A0 5 0 0 1 10 10") == [.moveTo(p(0, 0)), .lineTo(p(10, 10))])
        #expect(try elements("M0 0 A5 5 0 0 1 0 0") == [.moveTo(p(0, 0))])
        // Negative radii count as positive.
        #expect(try elements("M0 0 A-10 -10 0 0 1 20 0") == (try elements("M0 0 A10 10 0 0 1 20 0")))
    }

    @Test func arcPointsLieOnTheEllipse() throws {
        // Every curve end and midpoint of a full ellipse through two arcs is on the ellipse.
        let path = try SVGPathParser.path(from: "M-30 0 A30 15 0 1 1 30 0 A30 15 0 1 1 -30 0")
        var last = CGPoint(x: -30, y: 0)
        for e in path.elements {
            guard case .curveTo(let end, let c1, let c2) = e else { continue }
            let t: CGFloat = 0.5
            let mid = CGPoint(x: pow(1 - t, 3) * last.x + 3 * pow(1 - t, 2) * t * c1.x + 3 * (1 - t) * t * t * c2.x + t * t * t * end.x,
                              y: pow(1 - t, 3) * last.y + 3 * pow(1 - t, 2) * t * c1.y + 3 * (1 - t) * t * t * c2.y + t * t * t * end.y)
            for q in [end, mid] {
                let r = (q.x / 30) * (q.x / 30) + (q.y / 15) * (q.y / 15)
                #expect(abs(r - 1) < 1e-3)
            }
            last = end
        }
    }

    @Test func emptyDataIsAnEmptyPath() throws {
        #expect(try SVGPathParser.path(from: "").isEmpty)
        #expect(try SVGPathParser.path(from: " \n ").isEmpty)
    }

    @Test(arguments: [
        ("L10 10", 0, "path data must start with M or m"),
        ("10 10", 0, "path data must start with M or m"),
        ("M10", 3, "expected a number, found the end"),
        ("M10 10 L", 8, "expected a number, found the end"),
        ("M10 10 X 5", 7, "unexpected character 'X'"),
        ("M0 0 A10 10 0 2 0 5 5", 14, "expected an arc flag (0 or 1)"),
        ("M0 0 Z 5 5", 7, "a number after Z needs a command"),
        ("M1e999 0", 1, "expected a number"),
        ("M0 0 L1 .", 8, "expected a number"),
        ("M0 0 L1 1e", 9, "unexpected character 'e'"),
    ])
    func errorsCarryTheirOffset(data: String, offset: Int, message: String) {
        #expect(throws: SVGPathParser.Failure(message: message, offset: offset)) {
            try SVGPathParser.path(from: data)
        }
    }
}
