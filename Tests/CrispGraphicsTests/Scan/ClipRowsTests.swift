import Foundation
import Testing
@_spi(Testing) import CrispGraphics

/// Clip masks built from paths record their row runs as they are written (`MaskWriter`), and a
/// clip inside another is written through the outer mask's rows (`ClipRows`): the runs must
/// describe the mask as `summarizeRows()` would, and the nested mask must be the product of
/// the two coverages, pixel by pixel.
@Suite struct ClipRowsTests {
    static let size = 90

    /// Clip paths with soft edges, holes, two runs a row and rows with nothing inside.
    static let shapes: [(String, CGPathFillRule, @Sendable (CGMutablePath) -> Void)] = [
        ("ellipse", .winding, { $0.addEllipse(in: CGRect(x: 7.3, y: 11.6, width: 70.2, height: 55.9)) }),
        ("star", .evenOdd, { p in
            p.move(to: CGPoint(x: 45.2, y: 2.7))
            for k in 1..<5 {
                let angle = Double(k) * 4 * Double.pi / 5
                p.addLine(to: CGPoint(x: 45.2 + 42 * sin(angle), y: 46.1 - 42 * cos(angle)))
            }
            p.closeSubpath()
        }),
        ("ring", .evenOdd, { p in
            p.addEllipse(in: CGRect(x: 4.5, y: 4.5, width: 80, height: 80))
            p.addEllipse(in: CGRect(x: 25.25, y: 30.1, width: 38, height: 30))
        }),
        ("rotated bars", .winding, { p in
            let t = CGAffineTransform(translationX: 45, y: 45).rotated(by: 0.41)
            for k in 0..<6 { p.addRect(CGRect(x: -40 + Double(k) * 14.3, y: -38, width: 5.6, height: 76), transform: t) }
        }),
        ("sliver", .winding, { p in
            p.move(to: CGPoint(x: 3.2, y: 80.4))
            p.addLine(to: CGPoint(x: 86.9, y: 9.1))
            p.addLine(to: CGPoint(x: 88.1, y: 11.3))
            p.closeSubpath()
        }),
    ]

    /// The mask of `shape` clipped inside `outer` (if any), built through a context.
    static func mask(_ shape: Int, inside outer: Int?) throws -> ClipMask {
        let ctx = try #require(CGContext(width: size, height: size))
        for index in [outer, shape].compactMap({ $0 }) {
            let (_, rule, build) = shapes[index]
            let path = CGMutablePath()
            build(path)
            ctx.addPath(path)
            ctx.clip(using: rule)
        }
        return try #require(ctx.gstate.clip.mask)
    }

    @Test func recordedRowRunsDescribeTheMask() throws {
        for shape in Self.shapes.indices {
            for outer in [nil] + Self.shapes.indices.map(Optional.some) {
                let mask = try Self.mask(shape, inside: outer)
                let name = "\(Self.shapes[shape].0) inside \(outer.map { Self.shapes[$0].0 } ?? "nothing")"
                let recorded = try #require(mask.rowRuns)
                // The same bytes summarized by reading every one of them.
                let reread = ClipMask(bounds: mask.bounds)
                reread.data.update(from: mask.data, count: mask.bounds.width * mask.bounds.height)
                reread.summarizeRows()
                let summary = try #require(reread.rowRuns)
                var rowsWithOpenRuns = 0
                for r in 0..<mask.bounds.height {
                    let run = recorded[r], expected = summary[r]
                    let row = mask.row(mask.bounds.y + r) - mask.bounds.x
                    if expected.start >= expected.end {
                        #expect(run.start >= run.end, "\(name), row \(r): \(run) lets something through an empty row")
                        continue
                    }
                    // Exactly the columns from the first to the last byte that is not zero.
                    #expect(run.start == expected.start && run.end == expected.end, "\(name), row \(r): \(run) against \(expected)")
                    guard run.fullStart < run.end && run.fullStart < run.fullEnd else { continue }
                    rowsWithOpenRuns += 1
                    // The open run: full coverage throughout, inside the row, as long as it goes.
                    #expect(run.start <= run.fullStart && run.fullEnd <= run.end, "\(name), row \(r): \(run)")
                    #expect((Int(run.fullStart)..<Int(run.fullEnd)).allSatisfy { row[$0] == 255 }, "\(name), row \(r)")
                    #expect(run.fullStart == run.start || row[Int(run.fullStart) - 1] != 255, "\(name), row \(r)")
                    #expect(run.fullEnd == run.end || row[Int(run.fullEnd)] != 255, "\(name), row \(r)")
                }
                if shape != 4 && outer != 4 { #expect(rowsWithOpenRuns > 0, "\(name): no open run recorded") }
            }
        }
    }

    /// An image mask (`clip(to:mask:)`, written by `AlphaWriter`) inside a path clip: on whole
    /// pixels its coverage is full, so its mask is the path's mask times the image mask alone.
    @Test func anImageMaskInsideAPathClipIsTheProduct() throws {
        let levels = (0..<(13 * 9)).map { i -> UInt32 in
            let v = UInt32((i * 37) % 256)
            return 0xFF00_0000 | v << 16 | v << 8 | v
        }
        let image = CGImage(width: 13, height: 9, pixels: levels)
        let rect = CGRect(x: 6, y: 9, width: 71, height: 64)
        func imageMask(inside outer: Int?) throws -> ClipMask {
            let ctx = try #require(CGContext(width: Self.size, height: Self.size))
            if let outer {
                let path = CGMutablePath()
                Self.shapes[outer].2(path)
                ctx.addPath(path)
                ctx.clip(using: Self.shapes[outer].1)
            }
            ctx.clip(to: rect, mask: image)
            return try #require(ctx.gstate.clip.mask)
        }
        let alone = try imageMask(inside: nil)
        for outer in Self.shapes.indices {
            let nested = try imageMask(inside: outer), parent = try Self.mask(outer, inside: nil)
            let (wrong, covered) = Self.compare(nested, toProductOf: alone, parent)
            #expect(wrong == 0, "inside \(Self.shapes[outer].0): \(wrong) pixels differ")
            if outer != 4 { #expect(covered > 0) }
        }
    }

    /// The mask's value at pixel (x, y), 0 outside its bounds.
    static func value(_ m: ClipMask, _ x: Int, _ y: Int) -> UInt32 {
        let b = m.bounds
        return x >= b.x && x < b.maxX && y >= b.y && y < b.maxY ? UInt32(m.row(y)[x - b.x]) : 0
    }

    /// Over the whole canvas: the pixels where `mask` is not `a` times `b` (`Pixel.multiply8`),
    /// and those where that product is not zero.
    static func compare(_ mask: ClipMask, toProductOf a: ClipMask, _ b: ClipMask) -> (wrong: Int, covered: Int) {
        var wrong = 0, covered = 0
        for y in 0..<size {
            for x in 0..<size {
                let expected = Pixel.multiply8(value(a, x, y), value(b, x, y))
                if UInt8(value(mask, x, y)) != expected { wrong += 1 }
                if expected != 0 { covered += 1 }
            }
        }
        return (wrong, covered)
    }

    /// A clip inside another: its mask is the product of the two masks built alone.
    @Test func aNestedMaskIsTheProductOfBoth() throws {
        for shape in Self.shapes.indices {
            for outer in Self.shapes.indices where outer != shape {
                let nested = try Self.mask(shape, inside: outer)
                let inner = try Self.mask(shape, inside: nil), parent = try Self.mask(outer, inside: nil)
                let (wrong, covered) = Self.compare(nested, toProductOf: inner, parent)
                #expect(wrong == 0, "\(Self.shapes[shape].0) inside \(Self.shapes[outer].0): \(wrong) pixels differ")
                if shape != 4 && outer != 4 { #expect(covered > 0) }
            }
        }
    }
}
