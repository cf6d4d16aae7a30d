import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// Curve edges walked inside the sweep (Rasterizer+Curves.swift): a pixel's value does not
/// depend on the clip box or the banding, both fill rules, the winding limit's fallback to
/// chords, and bad input.
@Suite struct CurveEdgeSweepTests {
    struct Recorder: SpanBlitter {
        let origin: (x: Int, y: Int)
        let width: Int
        var coverage: [UInt8]
        mutating func blitMask(x: Int, y: Int, count: Int, coverage row: UnsafePointer<UInt8>) {
            for i in 0..<count { coverage[(y - origin.y) * width + x - origin.x + i] = row[i] }
        }
        mutating func blitSpan(x: Int, y: Int, count: Int, coverage c: UInt8) {
            for i in 0..<count { coverage[(y - origin.y) * width + x - origin.x + i] = c }
        }
    }

    static func render(_ path: CGPath, clip: PixelRect, rule: CoverageRule = .nonZero, exact: Bool = true) -> [UInt8] {
        let rasterizer = Rasterizer()
        rasterizer.reset(clip: clip)
        var sink = EdgeSink(rasterizer: rasterizer)
        sink.exactCurves = exact
        path.flatten(transform: .identity, tolerance: 0.05, into: &sink)
        sink.finish()
        var recorder = Recorder(origin: (clip.x, clip.y), width: clip.width,
                                coverage: Array(repeating: 0, count: clip.width * clip.height))
        rasterizer.render(rule: rule, into: &recorder)
        return recorder.coverage
    }

    /// Random closed cubic outlines (loops, cusps and self-crossings among them) in 0…300 px.
    static func randomPath(seed: UInt64) -> CGPath {
        var rng = SplitMix64(seed: seed)
        func point() -> CGPoint { CGPoint(x: 300 * rng.nextUnit(), y: 300 * rng.nextUnit()) }
        let path = CGMutablePath()
        for _ in 0..<4 {
            path.move(to: point())
            for _ in 0..<5 { path.addCurve(to: point(), control1: point(), control2: point()) }
            path.addQuadCurve(to: point(), control: point())
            path.closeSubpath()
        }
        path.addEllipse(in: CGRect(x: 40.3 + rng.nextUnit(), y: 60.7, width: 180.2, height: 120.9))
        return path
    }

    /// The same pixels whatever the clip box: windows of a 300×300 drawing, and a 2,100-px-wide
    /// clip (31 rows a band, so the drawing is swept in ten bands), for both fill rules.
    @Test func clipsAndBandsAgree() {
        var worst = 0
        for seed in UInt64(1)...4 {
            let path = Self.randomPath(seed: seed)
            for rule in [CoverageRule.nonZero, .evenOdd] {
                let full = PixelRect(x: 0, y: 0, maxX: 300, maxY: 300)
                let whole = Self.render(path, clip: full, rule: rule)
                let wide = Self.render(path, clip: PixelRect(x: -900, y: 0, maxX: 1200, maxY: 300), rule: rule)
                for y in 0..<300 { for x in 0..<300 { worst = max(worst, abs(Int(whole[y * 300 + x]) - Int(wide[y * 2100 + x + 900]))) } }
                for window in [PixelRect(x: 37, y: 11, maxX: 121, maxY: 290), PixelRect(x: 150, y: 150, maxX: 151, maxY: 299),
                               PixelRect(x: 0, y: 200, maxX: 300, maxY: 201), PixelRect(x: 233, y: 5, maxX: 300, maxY: 77)] {
                    let part = Self.render(path, clip: window, rule: rule)
                    for y in window.y..<window.maxY {
                        for x in window.x..<window.maxX {
                            let e = abs(Int(part[(y - window.y) * window.width + x - window.x]) - Int(whole[y * 300 + x]))
                            worst = max(worst, e)
                        }
                    }
                }
            }
        }
        print("CurveEdgeSweepTests clips and bands: worst difference \(worst) levels")
        #expect(worst == 0)
    }

    /// Curve edges and chords agree within the chords' own error on random looping cubics, for
    /// both fill rules (chords at 10⁻³ px as the reference).
    @Test func randomCubicsMatchFineChords() {
        var worst = 0
        let clip = PixelRect(x: 0, y: 0, maxX: 300, maxY: 300)
        for seed in UInt64(11)...14 {
            let path = Self.randomPath(seed: seed)
            for rule in [CoverageRule.nonZero, .evenOdd] {
                let exact = Self.render(path, clip: clip, rule: rule)
                let rasterizer = Rasterizer()
                rasterizer.reset(clip: clip)
                var sink = EdgeSink(rasterizer: rasterizer)
                sink.exactCurves = false
                path.flatten(transform: .identity, tolerance: 1e-3, into: &sink)
                sink.finish()
                var recorder = Recorder(origin: (0, 0), width: 300, coverage: Array(repeating: 0, count: 300 * 300))
                rasterizer.render(rule: rule, into: &recorder)
                for k in 0..<exact.count { worst = max(worst, abs(Int(exact[k]) - Int(recorder.coverage[k]))) }
            }
        }
        print("CurveEdgeSweepTests random cubics: worst \(worst) levels against chords at 0.001 px")
        #expect(worst <= 3)
    }

    /// TrueType glyphs (quadratics, taken whole as themselves) at text sizes and sub-pixel
    /// phases: within 2 levels of the same outline as chords within 10⁻³ px.
    @Test func glyphsMatchFineChords() throws {
        let face = try TestFonts.regular
        let clip = PixelRect(x: 0, y: 0, maxX: 48, maxY: 48)
        var worst = 0, at = ""
        for glyph in CGGlyph(20)...CGGlyph(90) {
            let outline = try face.path(for: glyph)
            if outline.isEmpty { continue }
            for (size, phase) in [(9.0, 0.0), (13.0, 0.37), (21.0, 0.71), (40.0, 0.13)] {
                let s = CGFloat(size) / CGFloat(face.unitsPerEm)
                let t = CGAffineTransform(a: s, b: 0, c: 0, d: -s, tx: 3 + phase, ty: 38.6)
                let path = CGMutablePath()
                path.addPath(outline, transform: t)
                let exact = Self.render(path, clip: clip)
                let fine = Self.renderChords(path, clip: clip, tolerance: 1e-3)
                for k in 0..<exact.count where abs(Int(exact[k]) - Int(fine[k])) > worst {
                    worst = abs(Int(exact[k]) - Int(fine[k]))
                    at = "glyph \(glyph) at \(size) px, pixel \(k % 48),\(k / 48): \(exact[k]) for \(fine[k])"
                }
            }
        }
        print("CurveEdgeSweepTests glyphs: worst \(worst) levels against chords at 0.001 px (\(at))")
        #expect(worst <= 2, "\(at)")
    }

    static func renderChords(_ path: CGPath, clip: PixelRect, tolerance: CGFloat) -> [UInt8] {
        let rasterizer = Rasterizer()
        rasterizer.reset(clip: clip)
        var sink = EdgeSink(rasterizer: rasterizer)
        sink.exactCurves = false
        path.flatten(transform: .identity, tolerance: tolerance, into: &sink)
        sink.finish()
        var recorder = Recorder(origin: (clip.x, clip.y), width: clip.width,
                                coverage: Array(repeating: 0, count: clip.width * clip.height))
        rasterizer.render(rule: .nonZero, into: &recorder)
        return recorder.coverage
    }

    /// Past the winding limit (more than 4,096 edges, non-zero) the curves become chords:
    /// 3,001 circles one way round and 3,000 the other fill like one circle (within the chords'
    /// error at 0.05 px).
    @Test func windingLimitFallsBackToChords() {
        func circle(_ path: CGMutablePath, clockwise: Bool) {
            path.move(to: CGPoint(x: 16.4, y: 9.3))
            path.addArc(center: CGPoint(x: 9.8, y: 9.3), radius: 6.6, startAngle: 0, endAngle: 2 * .pi, clockwise: clockwise)
            path.closeSubpath()
        }
        let one = CGMutablePath()
        circle(one, clockwise: false)
        let many = CGMutablePath()
        for i in 0..<6001 { circle(many, clockwise: i % 2 == 1) }
        let clip = PixelRect(x: 0, y: 0, maxX: 20, maxY: 20)
        let a = Self.render(one, clip: clip), b = Self.render(many, clip: clip)
        var worst = 0
        for k in 0..<a.count { worst = max(worst, abs(Int(a[k]) - Int(b[k]))) }
        #expect(a[9 * 20 + 10] == 255 && b[9 * 20 + 10] == 255)
        #expect(worst <= 16, "6,001 circles against one: worst \(worst)")
    }

    /// Bad curves: no trap, bounded work, and coverage only where a finite curve can reach.
    @Test func badCurves() {
        let clip = PixelRect(x: 0, y: 0, maxX: 64, maxY: 64)
        let values: [CGFloat] = [.nan, .infinity, -.infinity, 1e300, -1e300, 1e-300, 3e6, -3e6, 32, 0, 64, 31.999999]
        var rng = SplitMix64(seed: 99)
        for _ in 0..<400 {
            let rasterizer = Rasterizer()
            rasterizer.reset(clip: clip)
            func v() -> CGFloat { rng.next() % 3 == 0 ? values[Int(rng.next() % UInt64(values.count))] : 80 * rng.nextUnit() - 8 }
            func p() -> CGPoint { CGPoint(x: v(), y: v()) }
            let start = p()
            var current = start
            for _ in 0..<3 {
                let e = p()
                rasterizer.addCubicExact(current, p(), p(), e)
                current = e
            }
            rasterizer.addLine(current, start)
            #expect(rasterizer.segmentsOffered < 200_000)
            var recorder = Recorder(origin: (0, 0), width: 64, coverage: Array(repeating: 0, count: 64 * 64))
            rasterizer.render(rule: .nonZero, into: &recorder)
        }
        // A cusp, a loop and a curve folded back on itself fill what their chords fill.
        let shapes: [(CGPoint, CGPoint, CGPoint, CGPoint)] = [
            (CGPoint(x: 5, y: 50), CGPoint(x: 60, y: 5), CGPoint(x: 5, y: 5), CGPoint(x: 60, y: 50)),
            (CGPoint(x: 10, y: 10), CGPoint(x: 70, y: 60), CGPoint(x: -10, y: 60), CGPoint(x: 50, y: 10)),
            (CGPoint(x: 10, y: 10), CGPoint(x: 50, y: 50), CGPoint(x: 50, y: 50), CGPoint(x: 10, y: 10)),
        ]
        for (a, b, c, d) in shapes {
            let path = CGMutablePath()
            path.move(to: a)
            path.addCurve(to: d, control1: b, control2: c)
            path.addLine(to: CGPoint(x: 32, y: 63))
            path.closeSubpath()
            let exact = Self.render(path, clip: clip), chords = Self.render(path, clip: clip, exact: false)
            var worst = 0
            for k in 0..<exact.count { worst = max(worst, abs(Int(exact[k]) - Int(chords[k]))) }
            #expect(worst <= 16, "worst \(worst) against chords at 0.05 px")
        }
    }
}
