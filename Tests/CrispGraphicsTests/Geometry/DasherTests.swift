import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// The dashes of a path as (start, end) points of each subpath, with its flattened length.
func dashSummary(_ path: CGPath) -> [(start: CGPoint, end: CGPoint, length: CGFloat)] {
    path.polylines(tolerance: 0.001).map { line in
        var length: CGFloat = 0
        for (a, b) in zip(line.points, line.points.dropFirst()) { length += hypot(b.x - a.x, b.y - a.y) }
        return (line.points.first!, line.points.last!, length)
    }
}

func isClose(_ a: CGFloat, _ b: CGFloat, _ eps: CGFloat = 1e-9) -> Bool { abs(a - b) <= eps }

@Suite struct DasherTests {
    static var line: CGPath { polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0)]) }

    /// The x ranges of the dashes of the 100-long horizontal line.
    func ranges(phase: CGFloat, lengths: [CGFloat]) -> [ClosedRange<CGFloat>] {
        dashSummary(Self.line.copy(dashingWithPhase: phase, lengths: lengths)).map { $0.start.x...$0.end.x }
    }

    func expectRanges(_ actual: [ClosedRange<CGFloat>], _ expected: [ClosedRange<CGFloat>],
                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, "\(actual) vs \(expected)", sourceLocation: sourceLocation)
        for (a, e) in zip(actual, expected) {
            #expect(isClose(a.lowerBound, e.lowerBound) && isClose(a.upperBound, e.upperBound),
                    "\(actual) vs \(expected)", sourceLocation: sourceLocation)
        }
    }

    @Test func dashLengthsOnAStraightLine() {
        expectRanges(ranges(phase: 0, lengths: [10, 5]),
                     [0...10, 15...25, 30...40, 45...55, 60...70, 75...85, 90...100])
        // Lines stay single lines.
        let dashed = Self.line.copy(dashingWithPhase: 0, lengths: [10, 5])
        #expect(dashed.elements.prefix(2) == [.moveTo(.zero), .lineTo(CGPoint(x: 10, y: 0))])
    }

    @Test func phaseShiftsThePattern() {
        expectRanges(ranges(phase: 3, lengths: [10, 5]),
                     [0...7, 12...22, 27...37, 42...52, 57...67, 72...82, 87...97])
        // A phase inside the gap starts off; a whole number of periods changes nothing.
        expectRanges(ranges(phase: 12, lengths: [10, 5]).prefix(2).map { $0 }, [3...13, 18...28])
        expectRanges(ranges(phase: 30, lengths: [10, 5]), ranges(phase: 0, lengths: [10, 5]))
        // A negative phase counts back from the end of the pattern: −3 is 12.
        expectRanges(ranges(phase: -3, lengths: [10, 5]), ranges(phase: 12, lengths: [10, 5]))
        expectRanges(ranges(phase: -33, lengths: [10, 5]), ranges(phase: 12, lengths: [10, 5]))
    }

    @Test func oddArraysRepeatWithOnAndOffSwapped() {
        // [5, 2, 3] runs as on 5, off 2, on 3, off 5, on 2, off 3 (period 20).
        expectRanges(ranges(phase: 0, lengths: [5, 2, 3]).prefix(6).map { $0 },
                     [0...5, 7...10, 15...17, 20...25, 27...30, 35...37])
        // A single length: equal on and off.
        expectRanges(ranges(phase: 0, lengths: [25]), [0...25, 50...75])
    }

    @Test func patternContinuesAcrossVerticesAndRestartsPerSubpath() {
        let path = CGMutablePath()
        path.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 8, y: 0), CGPoint(x: 8, y: 20)])
        path.addLines(between: [CGPoint(x: 0, y: 50), CGPoint(x: 30, y: 50)])
        let dashes = dashSummary(path.copy(dashingWithPhase: 0, lengths: [10, 5]))
        #expect(dashes.count == 4)
        #expect(dashes[0].end == CGPoint(x: 8, y: 2))          // turns the corner
        #expect(isClose(dashes[0].length, 10))
        #expect(dashes[1].start == CGPoint(x: 8, y: 7))
        #expect(dashes[2].start == CGPoint(x: 0, y: 50))        // the pattern restarts
        #expect(dashes[3].start == CGPoint(x: 15, y: 50))
    }

    @Test func closedSubpathMergesTheDashThroughTheStart() {
        let square = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 40, y: 0), CGPoint(x: 40, y: 40),
                                   CGPoint(x: 0, y: 40)], closed: true)
        // Perimeter 160 = 4 periods: the last stretch is a gap, so the first dash stands alone.
        let aligned = dashSummary(square.copy(dashingWithPhase: 0, lengths: [30, 10]))
        #expect(aligned.count == 4)
        #expect(aligned.allSatisfy { isClose($0.length, 30) })
        #expect(aligned.last!.start == .zero)
        // Phase 5: the dash over [155, 160] continues into [0, 25] as one piece.
        let shifted = dashSummary(square.copy(dashingWithPhase: 5, lengths: [30, 10]))
        #expect(shifted.count == 4)
        #expect(shifted.allSatisfy { isClose($0.length, 30) })
        #expect(shifted.last!.start == CGPoint(x: 0, y: 5))
        #expect(shifted.last!.end == CGPoint(x: 25, y: 0))
        // The pattern runs along the closing segment (x = 0, from y = 40 down to 0).
        // Starting in a gap: the only dash covers [125, 135].
        let closing = dashSummary(square.copy(dashingWithPhase: 10, lengths: [10, 125]))
        #expect(closing.count == 1)
        #expect(closing[0].start == CGPoint(x: 0, y: 35))
        #expect(closing[0].end == CGPoint(x: 0, y: 25))
        // Ending on while starting on: [135, 160] and [0, 125] are one dash through the start.
        let merged = dashSummary(square.copy(dashingWithPhase: 0, lengths: [125, 10]))
        #expect(merged.count == 1)
        #expect(isClose(merged[0].length, 150))
        #expect(merged[0].start == CGPoint(x: 0, y: 25))
        // One dash longer than the perimeter keeps the subpath closed.
        let whole = square.copy(dashingWithPhase: 0, lengths: [500, 1])
        #expect(whole.elements.last == .closeSubpath)
        let stroked = strokedOutline(whole, StrokeStyle(width: 4, cap: .butt, join: .miter))
        #expect(stroked.contains(CGPoint(x: -1.9, y: -1.9)))
    }

    @Test func curvesStayCurvesAndMeasureTheirLength() {
        let r: CGFloat = 50
        let circle = CGPath(ellipseIn: CGRect(x: -r, y: -r, width: 2 * r, height: 2 * r))
        let dashed = circle.copy(dashingWithPhase: 0, lengths: [10, 5])
        #expect(dashed.elements.contains { if case .curveTo = $0 { return true } else { return false } })
        #expect(!dashed.elements.contains { if case .lineTo = $0 { return true } else { return false } })
        // Expected on-length along a perimeter of 2πr with period 15, first dash merged.
        let perimeter = 2 * CGFloat.pi * r
        var expected: CGFloat = 0
        var s: CGFloat = 0
        while s < perimeter { expected += min(10, perimeter - s); s += 15 }
        let dashes = dashSummary(dashed)
        let total = dashes.reduce(0) { $0 + $1.length }
        #expect(abs(total - expected) / expected < 0.01, "\(total) vs \(expected)")
        for dash in dashes.dropLast() { #expect(abs(dash.length - 10) < 0.1) }
        for dash in dashes {
            #expect(abs(hypot(dash.start.x, dash.start.y) - r) < 0.1)
            #expect(abs(hypot(dash.end.x, dash.end.y) - r) < 0.1)
        }
        // Quadratic curves too.
        let quad = CGMutablePath()
        quad.move(to: .zero)
        quad.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 50))
        let quadDashes = dashSummary(quad.copy(dashingWithPhase: 0, lengths: [20, 20]))
        #expect(quadDashes.dropLast().allSatisfy { abs($0.length - 20) < 0.1 })
    }

    @Test(arguments: [[CGFloat](), [-1, 2], [0, 0], [CGFloat.nan, 1], [CGFloat.infinity, 1], [1, -0.5, 2]])
    func invalidArraysLeaveThePathUndashed(lengths: [CGFloat]) {
        let path = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 50)])
        #expect(path.copy(dashingWithPhase: 0, lengths: lengths) == path)
        // And the stroker strokes it solid.
        let outline = strokedOutline(path, StrokeStyle(width: 2, dashLengths: lengths))
        #expect(outline.contains(CGPoint(x: 50, y: 0)))
    }

    @Test func nonFinitePhaseLeavesThePathUndashed() {
        #expect(Self.line.copy(dashingWithPhase: .nan, lengths: [1, 1]) == Self.line)
        #expect(Self.line.copy(dashingWithPhase: .infinity, lengths: [1, 1]) == Self.line)
    }

    @Test func tooManyDashesLeaveThePathUndashed() {
        let long = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 1e7, y: 0)])
        #expect(long.copy(dashingWithPhase: 0, lengths: [1, 1]) == long)
        var sink = CountingSink()
        strokeOutline(long, style: StrokeStyle(width: 1, dashLengths: [0.001, 0.001]), tolerance: 0.25,
               transform: .identity, into: &sink)
        #expect(sink.moves == 1)
        // Just under the bound still dashes.
        let shorter = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 1e5, y: 0)])
        #expect(dashSummary(shorter.copy(dashingWithPhase: 0, lengths: [1, 1])).count == 50_000)
    }

    /// Fuzzing (`drawing`, out of memory): `replacePathWithStrokedPath` on a line 28 million
    /// units long with a fine dash pattern and round caps kept every dash's caps in one path,
    /// past a 1 GB allocation. An outline kept as a path now bounds its dashes by their points
    /// (`maximumOutlinePoints`): beyond it the path is stroked solid, as beyond a million dashes.
    @Test func dashedOutlinesKeptAsPathsAreBoundedByTheirPoints() {
        func subpaths(_ p: CGPath) -> Int { p.elements.filter { if case .moveTo = $0 { true } else { false } }.count }
        // A line of 400 000 units dashed [1, 1]: 200 000 dashes (the estimate, which also walks
        // the way back, says 400 000). With round caps of ~12 points each (half-width 50,
        // tolerance 0.5) that is over the bound: solid, one subpath.
        let long = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 4e5, y: 0)])
        let round = StrokeStyle(width: 100, cap: .round, dashLengths: [1, 1])
        #expect(subpaths(strokedOutline(long, round, tolerance: 0.5)) == 1)
        // The same dashes with butt caps (6 points each) stay dashes.
        let butt = StrokeStyle(width: 100, cap: .butt, dashLengths: [1, 1])
        #expect(subpaths(strokedOutline(long, butt, tolerance: 0.5)) == 200_000)
        // 25 000 dashes with round caps stay dashes.
        let shorter = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 5e4, y: 0)])
        #expect(subpaths(strokedOutline(shorter, round, tolerance: 0.5)) == 25_000)
        // Through the context, as the fuzzer called it.
        let ctx = CGContext(data: nil, width: 8, height: 8, bitsPerComponent: 8, bytesPerRow: 32,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue)!
        ctx.setLineWidth(100)
        ctx.setLineCap(.round)
        ctx.setLineDash(phase: 0, lengths: [1, 1])
        ctx.move(to: CGPoint(x: -63.5, y: 80.25))
        ctx.addLine(to: CGPoint(x: 28_432_968.5, y: 60.7))
        ctx.replacePathWithStrokedPath()
        #expect(ctx.path.map(subpaths) == 1)
        // A drawn stroke still culls its dashes to the clip (about 43 of the 25 000 reach it, a
        // few subpaths each), and is not bounded by points: nothing changes there.
        var sink = CountingSink()
        strokeOutline(shorter, style: round, tolerance: 0.5, transform: .identity,
                      cullRect: CGRect(x: 0, y: -60, width: 10, height: 120), into: &sink)
        #expect(sink.moves > 43 && sink.moves < 1000, "\(sink.moves)")
    }

    @Test func zeroLengthDashesDrawDotsWithRoundAndSquareCaps() {
        let diagonal = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 100)])
        let step = 10 * 2.squareRoot()
        let round = strokedOutline(diagonal, StrokeStyle(width: 4, cap: .round, dashLengths: [0, step]))
        let square = strokedOutline(diagonal, StrokeStyle(width: 4, cap: .square, dashLengths: [0, step]))
        let butt = strokedOutline(diagonal, StrokeStyle(width: 4, cap: .butt, dashLengths: [0, step]))
        #expect(butt.isEmpty)
        for k in 0..<10 {
            let c = CGPoint(x: CGFloat(k) * 10, y: CGFloat(k) * 10)
            #expect(round.contains(CGPoint(x: c.x + 1.9, y: c.y)))
            #expect(!round.contains(CGPoint(x: c.x + 1.5, y: c.y - 1.5)))
            // The square follows the path: its corner lies along the axes at w/2·√2.
            #expect(square.contains(CGPoint(x: c.x + 2.75, y: c.y)))
            #expect(!square.contains(CGPoint(x: c.x + 1.6, y: c.y - 1.6)))
            #expect(!round.contains(CGPoint(x: c.x + 5, y: c.y + 5)))
        }
        // The dashed path itself carries zero-length dashes as a move and a line.
        let dots = diagonal.copy(dashingWithPhase: 0, lengths: [0, step])
        #expect(dots.elements.prefix(2) == [.moveTo(.zero), .lineTo(.zero)])
    }

    @Test func strokerDashesBeforeStroking() {
        let outline = strokedOutline(Self.line, StrokeStyle(width: 2, cap: .butt, dashLengths: [10, 10]))
        #expect(outline.contains(CGPoint(x: 5, y: 0)))
        #expect(!outline.contains(CGPoint(x: 15, y: 0)))
        #expect(!outline.contains(CGPoint(x: 10.05, y: 0)))
        #expect(outline.contains(CGPoint(x: 9.95, y: 0.9)))
        // The dash ends are perpendicular to a curve's tangent.
        let arc = CGMutablePath()
        arc.addArc(center: .zero, radius: 20, startAngle: 0, endAngle: .pi, clockwise: false)
        let dashedArc = strokedOutline(arc, StrokeStyle(width: 6, cap: .butt, dashLengths: [10 * .pi, 10 * .pi]),
                                       tolerance: 0.01)
        // The first dash covers angles [0, π/2]: its end is the y axis.
        for radius: CGFloat in [17.2, 20, 22.8] {
            #expect(dashedArc.contains(CGPoint(x: 0.05, y: radius)))
            #expect(!dashedArc.contains(CGPoint(x: -0.05, y: radius)))
        }
    }

    /// Fuzzing (`svgpath`, a timeout): `M1 2h24.5.54444444M1 2h14444V444444` stroked with a
    /// [2, 1] dash into 32×32 px stroked ≈ 153 000 dashes, all but a few far outside the
    /// canvas. Dashes that cannot reach the clip are now skipped: the rasterizer is offered a
    /// few hundred segments instead of over 600 000, and the pixels are those of every dash.
    @Test func dashesOutsideTheClipAreNotStroked() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 25.5, y: 2))
        path.addLine(to: CGPoint(x: 26.04444444, y: 2))
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 14445, y: 2))
        path.addLine(to: CGPoint(x: 14445, y: 444444))
        func stroke(_ path: CGPath, dashed: Bool) -> CGContext {
            let ctx = CGContext(width: 32, height: 32)!
            ctx.setLineJoin(.round)
            if dashed { ctx.setLineDash(phase: 0.5, lengths: [2, 1]) }
            ctx.addPath(path)
            ctx.strokePath()
            return ctx
        }
        let culled = stroke(path, dashed: true)
        #expect(culled.rasterizer.segmentsOffered < 2_000, "\(culled.rasterizer.segmentsOffered) segments")
        let every = stroke(path.copy(dashingWithPhase: 0.5, lengths: [2, 1]), dashed: false)
        #expect(every.rasterizer.segmentsOffered > 500_000)
        #expect(culled.alphas == every.alphas)
        #expect(culled.alphas.contains { $0 > 0 })
    }

    /// Culling is conservative: a long dashed spiral of lines and curves under a rotating,
    /// squashing transform, with wide pens, long miters and square caps, stroked with and without
    /// a small cull rectangle. The culled outline is the full one minus whole dash outlines, and
    /// every one left out lies outside the rectangle.
    @Test(arguments: [(CGLineJoin.miter, CGLineCap.square), (.round, .round), (.bevel, .butt)])
    func culledDashesAreThoseOutsideTheClip(join: CGLineJoin, cap: CGLineCap) {
        let spiral = CGMutablePath()
        spiral.move(to: CGPoint(x: 0, y: 0))
        for k in 1...120 {
            let r = CGFloat(k) * 1.5, a = CGFloat(k) * 0.7
            let p = CGPoint(x: r * cos(a), y: r * sin(a))
            if k % 3 == 0 {
                spiral.addCurve(to: p, control1: CGPoint(x: p.y, y: -p.x), control2: CGPoint(x: -p.y, y: p.x))
            } else if k % 3 == 1 {
                spiral.addQuadCurve(to: p, control: CGPoint(x: p.x * 1.4, y: -p.y * 0.3))
            } else {
                spiral.addLine(to: p)
            }
        }
        spiral.closeSubpath()
        let style = StrokeStyle(width: 5, cap: cap, join: join, miterLimit: 20, dashPhase: 1.25, dashLengths: [7, 3, 0.5, 4])
        let transform = CGAffineTransform(translationX: 20, y: 15).rotated(by: 0.4).scaledBy(x: 0.6, y: 0.25)
        let clip = CGRect(x: 0, y: 0, width: 40, height: 30)
        func outlines(cullRect: CGRect?) -> [[CGPoint]] {
            var sink = MutablePathSink(path: CGMutablePath(), transform: .identity)
            strokeOutline(spiral, style: style, tolerance: 0.25, transform: transform, cullRect: cullRect, into: &sink)
            return sink.path.polylines(tolerance: 0.25).map(\.points)
        }
        let every = outlines(cullRect: nil), culled = outlines(cullRect: clip)
        #expect(culled.count < every.count, "\(culled.count) of \(every.count) dash outlines")
        var next = 0
        for outline in every {
            if next < culled.count, culled[next] == outline {
                next += 1
                continue
            }
            let xs = outline.map(\.x), ys = outline.map(\.y)
            let box = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            #expect(!box.intersects(clip), "a dash outline left out reaches the clip: \(box)")
        }
        #expect(next == culled.count, "the culled outlines are not a subsequence of the full ones")
    }
}
