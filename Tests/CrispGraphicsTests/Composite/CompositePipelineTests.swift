import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// The span pipeline (clip mask → paint → blend kernels) against the per-pixel formulas it
/// replaces: every kernel and every path through `CompositeBlitter` must give the same bits.
@Suite struct CompositePipelineTests {
    /// A random premultiplied pixel, often an edge case: transparent, opaque, or colour = alpha.
    static func randomPixel(_ rng: inout SplitMix64) -> UInt32 {
        let a = UInt32(rng.next() % 256)
        func channel() -> UInt32 { UInt32(rng.next() % 256) }
        switch rng.next() % 8 {
        case 0: return 0
        case 1: return Pixel.pack(a: 255, r: channel(), g: channel(), b: channel())
        case 2: return Pixel.pack(a: a, r: a, g: a, b: a)
        default:
            func below() -> UInt32 { a == 0 ? 0 : channel() % (a + 1) }
            return Pixel.pack(a: a, r: below(), g: below(), b: below())
        }
    }

    /// The result the old per-pixel blitters gave: untouched at coverage 0, otherwise the
    /// operator's formula at that coverage.
    static func reference(_ op: any BlendOperator.Type, _ s: UInt32, _ d: UInt32, _ c: UInt32) -> UInt32 {
        c == 0 ? d : op.blend(s, d, coverage: c)
    }

    /// All four kernels of every mode, on random pixels and all 256 coverage levels (the
    /// one-coverage kernels at every level on the first 32 pixels).
    @Test(arguments: CGBlendMode.allCases)
    func spanKernelsMatchThePixelFormula(mode: CGBlendMode) {
        let op = mode.blendOperator
        var rng = SplitMix64(seed: 0xB1E4D + UInt64(mode.rawValue))
        let n = 256, short = 32
        var coverage = (0..<n).map { UInt8($0) }
        coverage.shuffle(using: &rng)
        let sources = (0..<n).map { _ in Self.randomPixel(&rng) }
        let destination = (0..<n).map { _ in Self.randomPixel(&rng) }
        let constants: [UInt32] = [0, 0xFF10_2030, 0x8040_2010, 0x8080_8080, 0x7F00_7F3C, Self.randomPixel(&rng)]
        #expect(sources.indices.allSatisfy { op.blend(sources[$0], destination[$0], coverage: 255) == op.blend(sources[$0], destination[$0]) })

        var row = destination
        var mismatches = 0
        for s in constants {
            for c in UInt32(1)...255 {
                row = destination
                row.withUnsafeMutableBufferPointer { op.blendSpan($0.baseAddress!, count: short, source: s, coverage: c) }
                mismatches += (0..<short).filter { row[$0] != Self.reference(op, s, destination[$0], c) }.count
            }
            row = destination
            row.withUnsafeMutableBufferPointer { r in
                coverage.withUnsafeBufferPointer { op.blendSpan(r.baseAddress!, count: n, source: s, coverage: $0.baseAddress!) }
            }
            mismatches += (0..<n).filter { row[$0] != Self.reference(op, s, destination[$0], UInt32(coverage[$0])) }.count
        }
        for c in UInt32(1)...255 {
            row = destination
            row.withUnsafeMutableBufferPointer { r in
                sources.withUnsafeBufferPointer { op.blendSpan(r.baseAddress!, count: short, sources: $0.baseAddress!, coverage: c) }
            }
            mismatches += (0..<short).filter { row[$0] != Self.reference(op, sources[$0], destination[$0], c) }.count
        }
        row = destination
        row.withUnsafeMutableBufferPointer { r in
            sources.withUnsafeBufferPointer { s in
                coverage.withUnsafeBufferPointer { op.blendSpan(r.baseAddress!, count: n, sources: s.baseAddress!, coverage: $0.baseAddress!) }
            }
        }
        mismatches += (0..<n).filter { row[$0] != Self.reference(op, sources[$0], destination[$0], UInt32(coverage[$0])) }.count
        #expect(mismatches == 0)
    }

    /// Paints that take every path through the compositor: solid (opaque, translucent,
    /// transparent), gradients that leave pixels unpainted or are opaque, and a layer.
    static func paints(layer: UnsafeMutablePointer<UInt32>, width: Int) -> [(String, Paint)] {
        let translucent = CGGradient(colorsSpace: nil, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 0.6),
                                                                CGColor(red: 0, green: 0.5, blue: 1, alpha: 1)],
                                     locations: nil)!
        let opaque = CGGradient(colorsSpace: nil, colors: [CGColor(red: 0.1, green: 0.9, blue: 0.2, alpha: 1),
                                                           CGColor(red: 0.8, green: 0.1, blue: 0.5, alpha: 1)],
                                locations: nil)!
        // t runs from −0.25 to 1.25 across the row: unpainted ends, half-covered end pixels.
        let a = Float(1.5) / Float(width), c = Float(-0.25)
        let unpainted = LinearGradientPaint(table: translucent.table(alpha: 1), a: a, b: 0.01, c: c,
                                            extendBefore: false, extendAfter: false)
        let extended = LinearGradientPaint(table: opaque.table(alpha: 1), a: a, b: 0, c: c,
                                           extendBefore: true, extendAfter: true)
        // Vertical: t depends on the row only (a = 0), so spans blend one colour per row; over the
        // six test rows t runs from −0.3 to 1.3, giving unpainted, half-covered and plain rows.
        let vertical = LinearGradientPaint(table: translucent.table(alpha: 1), a: 0, b: 0.32, c: -0.46,
                                           extendBefore: false, extendAfter: false)
        let verticalOpaque = LinearGradientPaint(table: opaque.table(alpha: 1), a: -0.0, b: 0.2, c: 0,
                                                 extendBefore: true, extendAfter: true)
        let radial = RadialGradientPaint(table: translucent.table(alpha: 0.8), toUser: .identity,
                                         c0: CGPoint(x: 20, y: 2), r0: 3, dc: CGPoint(x: 10, y: 0), dr: 15,
                                         extendBefore: false, extendAfter: false)
        return [("opaque solid", .solid(0xFF20_6090)), ("translucent solid", .solid(0x8010_2040)), ("clear solid", .solid(0)),
                ("linear, unpainted ends", .linearGradient(unpainted)), ("linear, opaque", .linearGradient(extended)),
                ("vertical linear, unpainted rows", .linearGradient(vertical)),
                ("vertical linear, opaque", .linearGradient(verticalOpaque)), ("radial", .radialGradient(radial)), ("layer", .layer(LayerPaint(layer: layer, rowStride: width, alpha: 200)))]
    }

    /// A clip mask's row summary: hidden ends and the longest fully open run.
    @Test func clipMaskRowsAreSummarized() {
        let mask = ClipMask(bounds: PixelRect(x: 10, y: 5, maxX: 20, maxY: 8))
        let rows: [[UInt8]] = [[0, 0, 9, 255, 255, 7, 255, 255, 255, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                               [255, 255, 255, 255, 255, 255, 255, 255, 255, 1]]
        for (y, row) in rows.enumerated() { for (x, v) in row.enumerated() { mask.row(5 + y)[x] = v } }
        mask.summarizeRows()
        let runs = (0..<3).map { mask.rowRuns![$0] }.map { [$0.start, $0.end, $0.fullStart, $0.fullEnd] }
        #expect(runs == [[12, 19, 16, 19], [20, 20, 20, 20], [10, 20, 10, 19]])
    }

    /// The radial shader's four-pixel steps give what it gives one pixel at a time.
    @Test func radialFourPixelStepsMatchSinglePixels() {
        let gradient = CGGradient(colorsSpace: nil, colors: [CGColor(red: 1, green: 0.2, blue: 0, alpha: 1),
                                                             CGColor(red: 0, green: 0.5, blue: 1, alpha: 0.5)], locations: nil)!
        let rotation = CGAffineTransform(a: 0.83, b: 0.31, c: -0.27, d: 1.1, tx: -3.7, ty: 5.2)
        let paints = [RadialGradientPaint(table: gradient.table(alpha: 1), toUser: rotation, c0: CGPoint(x: 30, y: 20), r0: 0,
                                          dc: .zero, dr: 25, extendBefore: false, extendAfter: true),
                      RadialGradientPaint(table: gradient.table(alpha: 1), toUser: .identity, c0: CGPoint(x: 20, y: 10), r0: 4,
                                          dc: CGPoint(x: 30, y: 7), dr: 6, extendBefore: true, extendAfter: false)]
        let count = 67
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { row.deallocate() }
        var one: UInt32 = 0
        for paint in paints {
            for y in stride(from: -3, to: 60, by: 7) {
                paint.shade(x: -5, y: y, count: count, into: row)
                let wrong = (0..<count).filter { i in
                    paint.shade(x: -5 + i, y: y, count: 1, into: &one)
                    return one != row[i]
                }
                #expect(wrong.isEmpty, "row \(y): \(wrong)")
            }
        }
    }

    /// Every blend mode × paint × clip mask through `CompositeBlitter`, span by span, against
    /// the per-pixel rule: coverage times the mask, unpainted pixels and zero coverage left
    /// alone, otherwise the operator's formula at that coverage.
    @Test(arguments: CGBlendMode.allCases)
    func compositeBlitterMatchesThePerPixelRule(mode: CGBlendMode) {
        let width = 64, height = 6
        var rng = SplitMix64(seed: 0xC0FFEE + UInt64(mode.rawValue))
        let layer = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        defer { layer.deallocate() }
        for i in 0..<width * height { layer[i] = Self.randomPixel(&rng) }
        let shade = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
        defer { shade.deallocate(); scratch.deallocate() }
        let bounds = PixelRect(x: 0, y: 0, maxX: width, maxY: height)
        let mask = ClipMask(bounds: bounds), summarized = ClipMask(bounds: bounds), shaped = ClipMask(bounds: bounds)
        for i in 0..<width * height {
            let r = rng.next() % 4
            mask.data[i] = r == 0 ? 0 : r == 1 ? 255 : UInt8(rng.next() % 256)
            summarized.data[i] = mask.data[i]
        }
        // A rounded shape's rows: hidden ends, soft edges, an open middle (one row all hidden,
        // one with two open runs).
        for y in 0..<height {
            for x in 0..<width {
                let inset = [9, 4, 2, 64, 1, 6][y]
                let edge = x < inset || x >= width - inset ? 0 : x < inset + 3 || x >= width - inset - 3 ? UInt8(40 + 60 * (x % 3)) : 255
                shaped.row(y)[x] = y == 4 && (30..<33).contains(x) ? 128 : edge
            }
        }
        summarized.summarizeRows()
        shaped.summarizeRows()
        // Coverage rows with zeros, full coverage and everything between.
        let coverageRows = (0..<height).map { _ in
            (0..<width).map { _ -> UInt8 in
                let r = rng.next() % 4
                return r == 0 ? 0 : r == 1 ? 255 : UInt8(rng.next() % 256)
            }
        }
        // (row, first pixel, count, constant coverage or nil for the row's coverage bytes)
        let spans: [(Int, Int, Int, UInt8?)] = [(0, 3, 50, 255), (1, 0, 64, 77), (2, 5, 40, nil), (3, 0, 64, nil),
                                                (4, 10, 1, 1), (5, 0, 64, 255)]
        let op = mode.blendOperator
        for (name, paint) in Self.paints(layer: layer, width: width) {
            for clipMask in [nil, mask, summarized, shaped] {
                let destination = (0..<width * height).map { _ in Self.randomPixel(&rng) }
                var actual = destination
                actual.withUnsafeMutableBufferPointer { pixels in
                    var blitter = CompositeBlitter(pixels: pixels.baseAddress!, rowStride: width, paint: paint, blendMode: mode,
                                                   clipMask: clipMask, shadeBuffer: shade, maskScratch: scratch)
                    for (y, x, count, constant) in spans {
                        if let constant {
                            blitter.blitSpan(x: x, y: y, count: count, coverage: constant)
                        } else {
                            coverageRows[y].withUnsafeBufferPointer {
                                blitter.blitMask(x: x, y: y, count: count, coverage: $0.baseAddress! + x)
                            }
                        }
                    }
                }
                var expected = destination
                for (y, x, count, constant) in spans {
                    paint.shade(x: x, y: y, count: count, into: shade)
                    for i in 0..<count {
                        var c = UInt32(constant ?? coverageRows[y][x + i])
                        if let clipMask { c = UInt32(Pixel.multiply8(UInt32(clipMask.row(y)[x + i]), c)) }
                        let s = shade[i]
                        if c == 0 || (paint.mayLeaveUnpainted && s == Pixel.unpainted) { continue }
                        expected[y * width + x + i] = op.blend(s, expected[y * width + x + i], coverage: c)
                    }
                }
                let wrong = (0..<width * height).filter { actual[$0] != expected[$0] }.count
                #expect(wrong == 0, "\(mode) with \(name), clip mask: \(clipMask.map { $0 === mask ? "plain" : $0 === shaped ? "shaped" : "summarized" } ?? "none")")
            }
        }
    }
}
