import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// A row's runs of touched cells separated by a short gap are emitted as one coverage row, the
/// gap's pixels carrying the gap's constant alpha (zero included); longer gaps stay a constant
/// span between two coverage rows. Either way every pixel gets exactly its own coverage, once.
@Suite struct RasterizerGapTests {
    /// Records what the rasterizer emits: each pixel's coverage, how often it was emitted, and
    /// the calls per row.
    struct Recorder: SpanBlitter {
        let width: Int, height: Int
        var coverage: [UInt8]
        var emitted: [Int]
        var masks: [Int], spans: [Int]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            coverage = Array(repeating: 0, count: width * height)
            emitted = Array(repeating: 0, count: width * height)
            masks = Array(repeating: 0, count: height)
            spans = Array(repeating: 0, count: height)
        }

        mutating func blitMask(x: Int, y: Int, count: Int, coverage row: UnsafePointer<UInt8>) {
            masks[y] += 1
            for i in 0..<count { record(x + i, y, row[i]) }
        }

        mutating func blitSpan(x: Int, y: Int, count: Int, coverage c: UInt8) {
            spans[y] += 1
            for i in 0..<count { record(x + i, y, c) }
        }

        private mutating func record(_ x: Int, _ y: Int, _ c: UInt8) {
            coverage[y * width + x] = c
            emitted[y * width + x] += 1
        }
    }

    static let width = 160, height = 4

    /// Rectangles `[x0, x1) × [0, height)` (x in quarter pixels), filled under `rule`: every
    /// pixel's expected alpha from the winding of each quarter column, exactly what the
    /// area method gives when no pixel holds edges of two rectangles.
    static func expected(_ rects: [(Int, Int)], rule: CoverageRule) -> [UInt8] {
        (0..<width).map { px in
            var quarters: Int32 = 0
            for q in 4 * px..<4 * px + 4 { quarters += Int32(rects.filter { $0.0 <= q && q < $0.1 }.count) }
            let sum = quarters * (Rasterizer.fullCoverage / 4)
            return rule == .nonZero ? NonZeroRule.alpha(sum) : EvenOddRule.alpha(sum)
        }
    }

    static func render(_ rects: [(Int, Int)], rule: CoverageRule) -> Recorder {
        let rasterizer = Rasterizer()
        rasterizer.reset(clip: PixelRect(x: 0, y: 0, maxX: width, maxY: height))
        let h = CGFloat(height)
        for (x0, x1) in rects {
            let l = CGFloat(x0) / 4, r = CGFloat(x1) / 4
            rasterizer.addLine(CGPoint(x: l, y: 0), CGPoint(x: l, y: h))
            rasterizer.addLine(CGPoint(x: r, y: h), CGPoint(x: r, y: 0))
        }
        var recorder = Recorder(width: width, height: height)
        rasterizer.render(rule: rule, into: &recorder)
        return recorder
    }

    /// Two bars 1½ px wide with gaps from 1 px to three times the joining limit, alone (a gap
    /// of alpha 0) and on a wide rectangle (a gap of alpha 255, and, under even-odd, bars of 0).
    @Test(arguments: [CoverageRule.nonZero, .evenOdd], [false, true])
    func gapsKeepEveryPixelsCoverage(rule: CoverageRule, onBackground: Bool) {
        for gap in 1...3 * Rasterizer.mergedGap {
            // Bar edges at quarter pixels; the second bar starts `gap` whole pixels after the
            // first one's last column, and the background's edges are far from both.
            let first = (8 * 4 + 1, 9 * 4 + 3), start = (10 + gap) * 4 + 1
            var rects = [first, (start, start + 6)]
            if onBackground { rects.append((2 * 4 + 2, (Self.width - 3) * 4 + 2)) }
            let got = Self.render(rects, rule: rule)
            let want = Self.expected(rects, rule: rule)
            for y in 0..<Self.height {
                let row = Array(got.coverage[y * Self.width..<(y + 1) * Self.width])
                let twice = (0..<Self.width).filter { got.emitted[y * Self.width + $0] > 1 }
                #expect(row == want, "gap \(gap), row \(y): \(row) not \(want)")
                #expect(twice.isEmpty, "gap \(gap), row \(y): pixels \(twice) emitted more than once")
            }
            // Untouched cells between the runs: the first bar's deposits end at cell 10.
            let joined = gap - 1 <= Rasterizer.mergedGap
            if !onBackground {
                #expect(got.masks[0] == (joined ? 1 : 2) && got.spans[0] == 0,
                        "gap \(gap): \(got.masks[0]) coverage rows and \(got.spans[0]) spans")
            }
        }
    }
}
