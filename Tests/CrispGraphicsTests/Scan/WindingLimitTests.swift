import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// Many coincident copies of a shape: the winding of a pixel is the number of copies, and its
/// accumulated coverage that many times one copy's, far beyond what 32-bit cells hold (2³¹ is
/// 16 384 pixels' worth). Non-zero must give full coverage wherever one copy gives any (and
/// exactly one copy's where the windings cancel down to one), even-odd one copy's or nothing by
/// the parity, on every row loop: composited straight from the cells, coverage bytes from the
/// AVX2 kernels, `scanRow` (the general path, the clip-mask writer's and the aliased rules'),
/// with the AVX2 kernels on and off, in one band and in several. On main before branch `wrap1`
/// 32 768 copies summed to exactly 2³² and came out empty, and 87 382 copies gave a pixel that
/// one copy covers by 3/8 a quarter of its alpha.
/// Some tests force a kernel path, on their own thread only (`KernelDispatch.withPath`).
@Suite struct WindingLimitTests {
    static let width = 8, height = 4

    /// One copy of the shape, clockwise in raster space (or reversed): a left side at x = 0.25,
    /// a top at y = 0.5, a 45° side through pixel corners and a bottom at y = 2.5, so every
    /// pixel it touches has an area of a multiple of 1/8 (3/8 where the slanted side starts,
    /// 1/8 where it ends). Small, so that 100 000 copies take little time in a debug build.
    static func outline(x: CGFloat = 0, y: CGFloat = 0, reversed: Bool = false) -> [CGPoint] {
        let points = [CGPoint(x: 0.25, y: 0.5), CGPoint(x: 4.5, y: 0.5), CGPoint(x: 6.5, y: 2.5), CGPoint(x: 0.25, y: 2.5)]
            .map { CGPoint(x: $0.x + x, y: $0.y + y) }
        return reversed ? points.reversed() : points
    }

    /// The alpha a pixel gets when its accumulated coverage is `eighths` eighths of a pixel under
    /// `rule`, computed in 64 bits: non-zero clamps |s| to one pixel, even-odd folds s with period
    /// two pixels; then (a·255 + 2¹⁶) / 2¹⁷; aliased, at least half of 255 is 255.
    static func alpha(eighths: Int64, rule: CoverageRule) -> UInt8 {
        let full = Int64(Rasterizer.fullCoverage), s = eighths * (full / 8)
        let a: Int64
        switch rule {
        case .nonZero, .nonZeroAliased: a = min(abs(s), full)
        case .evenOdd, .evenOddAliased:
            let m = ((s % (2 * full)) + 2 * full) % (2 * full)
            a = m > full ? 2 * full - m : m
        }
        let level = UInt8((a * 255 + 65536) >> 17)
        switch rule {
        case .nonZero, .evenOdd: return level
        case .nonZeroAliased, .evenOddAliased: return level >= 128 ? 255 : 0
        }
    }

    /// One copy's coverage in eighths of a pixel, read back from its rendering (each byte must
    /// be exactly an eighth's level, or the shape is not what the expectations assume).
    static func singleCopyEighths() -> [Int64] {
        let one = render([(1, false)], rule: .nonZero, loop: .general)
        let eighths = one.map { Int64((Double($0) * 8 / 255).rounded()) }
        #expect(zip(one, eighths).allSatisfy { $0 == alpha(eighths: $1, rule: .nonZero) }, "one copy: \(one)")
        #expect(Set(eighths) == [0, 1, 3, 4, 6, 8], "one copy's areas: \(Set(eighths).sorted())")
        return eighths
    }

    /// What `copies` (count, reversed) give under `rule`, pixel by pixel: the winding (copies
    /// minus reversed copies) times one copy's coverage.
    static func expected(_ copies: [(Int, Bool)], rule: CoverageRule) -> [UInt8] {
        let winding = copies.reduce(Int64(0)) { $0 + ($1.1 ? -1 : 1) * Int64($1.0) }
        return singleCopyEighths().map { alpha(eighths: winding * $0, rule: rule) }
    }

    /// How many pixels differ, and the first few.
    static func differences(_ got: [UInt8], _ want: [UInt8]) -> String {
        let wrong = got.indices.filter { got[$0] != want[$0] }
        let first = wrong.prefix(4).map { "(\($0 % width), \($0 / width)): \(got[$0]) not \(want[$0])" }
        return "\(wrong.count) pixels wrong, first \(first.joined(separator: ", "))"
    }

    /// The rasterizer's row loops.
    enum RowLoop: CaseIterable {
        /// Composited straight from the cells (`cellTarget`, the AVX2 cell kernels).
        case fused
        /// Coverage bytes, gaps joined (the AVX2 coverage kernels, or `scanRow` with SSE2).
        case coverage
        /// `scanRow` with no joined gaps (the clip-mask writer's path).
        case general
    }

    /// Records each pixel's coverage; takes joined gaps unless `joinedGap` says 0.
    struct Recorder: SpanBlitter {
        let width: Int
        let joinedGap: Int
        var coverage: [UInt8]

        mutating func blitMask(x: Int, y: Int, count: Int, coverage row: UnsafePointer<UInt8>) {
            for i in 0..<count { coverage[y * width + x + i] = row[i] }
        }

        mutating func blitSpan(x: Int, y: Int, count: Int, coverage c: UInt8) {
            for i in 0..<count { coverage[y * width + x + i] = c }
        }
    }

    /// The coverage of `copies` (count, reversed) of the outline, moved to each of `places`
    /// (whole pixels, 8 × 4 apart), in a canvas `width` wide, through `loop`; returns the first
    /// place's 8 × 4 pixels, after checking every other place's equal to them and nothing
    /// covered elsewhere.
    static func render(_ copies: [(Int, Bool)], rule: CoverageRule, loop: RowLoop, width: Int = width,
                       places: [(x: Int, y: Int)] = [(0, 0)]) -> [UInt8] {
        let height = places.map(\.y).max()! + Self.height
        let rasterizer = Rasterizer()
        rasterizer.reset(clip: PixelRect(x: 0, y: 0, maxX: width, maxY: height))
        for place in places {
            for (count, reversed) in copies {
                let shape = outline(x: CGFloat(place.x), y: CGFloat(place.y), reversed: reversed)
                for _ in 0..<count {
                    for i in 0..<4 { rasterizer.addLine(shape[i], shape[(i + 1) & 3]) }
                }
            }
        }
        var pixels: [UInt8]
        if loop == .fused {
            let target = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
            defer { target.deallocate() }
            target.initialize(repeating: 0, count: width * height)
            var painter = RasterizerCellTargetTests.Painter(pixels: target, width: width, color: 0xFF00_0000, fused: true)
            rasterizer.render(rule: rule, into: &painter)
            pixels = (0..<width * height).map { UInt8(target[$0] >> 24) }
        } else {
            var recorder = Recorder(width: width, joinedGap: loop == .general ? 0 : Rasterizer.mergedGap,
                                    coverage: Array(repeating: 0, count: width * height))
            rasterizer.render(rule: rule, into: &recorder)
            pixels = recorder.coverage
        }
        var shown: [[UInt8]] = []
        for place in places {
            var copy: [UInt8] = []
            for row in place.y..<place.y + Self.height {
                let start = row * width + place.x
                copy += pixels[start..<start + Self.width]
                for i in start..<start + Self.width { pixels[i] = 0 }
            }
            shown.append(copy)
        }
        #expect(shown.allSatisfy { $0 == shown[0] }, "the copies at \(places) differ")
        #expect(!pixels.contains { $0 != 0 }, "coverage outside the shapes")
        return shown[0]
    }

    /// N coincident copies under non-zero cover fully every pixel one copy touches, through each
    /// row loop, with the AVX2 kernels and without.
    @Test(arguments: [32767, 32768, 32769, 65536, 87382, 100_000])
    func coincidentCopiesSaturateUnderNonZero(copies: Int) {
        let want = Self.expected([(copies, false)], rule: .nonZero)
        #expect(want.allSatisfy { $0 == 0 || $0 == 255 } && want.contains(255))
        Self.eachLoop { loop, path in
            let got = Self.render([(copies, false)], rule: .nonZero, loop: loop)
            #expect(got == want, "\(copies) copies, \(path): \(Self.differences(got, want))")
        }
    }

    /// Every row loop, with the AVX2 kernels (where the CPU has them) and without: `body` gets
    /// the loop and a description. The fused and general loops run once: the first calls its
    /// AVX2 kernel, the second `scanRow`, whatever the switch says.
    static func eachLoop(_ body: (RowLoop, String) -> Void) {
        for kernels in [KernelDispatch.Path.automatic, .sse2] {
            let ran: Void? = KernelDispatch.withPath(kernels) {
                for loop in RowLoop.allCases where kernels == .automatic ? loop != .fused || KernelDispatch.cpuHasAVX2 : loop == .coverage {
                    body(loop, "\(loop) rows, \(kernels) kernels")
                }
            }
            #expect(ran != nil)
        }
        if !KernelDispatch.cpuHasAVX2 { Issue.record(Comment(rawValue: RasterizerCellTargetTests.noAVX2)) }
    }

    /// Even-odd folds the sum with a period (two pixels' worth, 2¹⁸) that divides 2³², so
    /// wrapping never changed it: an odd number of copies gives one copy's coverage, an even
    /// number nothing. Kept here so that it stays so.
    @Test(arguments: [32768, 65537, 100_000])
    func coincidentCopiesFoldUnderEvenOdd(copies: Int) {
        let want = Self.expected([(copies, false)], rule: .evenOdd)
        #expect(want == (copies % 2 == 0 ? Array(repeating: 0, count: want.count) : Self.expected([(1, false)], rule: .evenOdd)))
        Self.eachLoop { loop, path in
            let got = Self.render([(copies, false)], rule: .evenOdd, loop: loop)
            #expect(got == want, "\(copies) copies, \(path): \(Self.differences(got, want))")
        }
    }

    /// Anti-aliasing off: the rules' aliased forms (resolved by `scanRow` alone, whatever the
    /// kernel switch says) paint every pixel that at least half a pixel's worth reaches.
    @Test(arguments: [CoverageRule.nonZeroAliased, .evenOddAliased], [32768, 87382])
    func coincidentCopiesUnderTheAliasedRules(rule: CoverageRule, copies: Int) {
        let want = Self.expected([(copies, false)], rule: rule)
        for loop in [RowLoop.coverage, .general] {
            let got = Self.render([(copies, false)], rule: rule, loop: loop)
            #expect(got == want, "\(rule), \(copies) copies, \(loop) rows: \(Self.differences(got, want))")
        }
    }

    /// Copies in both directions cancel exactly, however many: what is left is the winding's
    /// worth of one copy's coverage (one copy, nothing, or saturated). Around the number of
    /// edges a row may have before the rasterizer adds up its cells in 64 bits
    /// (`Rasterizer.exactEdges`: two edges of each copy cross a row), and far beyond it.
    /// Resolved by `scanRow` and by the fused kernels (the rows differ only in how they resolve
    /// the same cells, which the tests above compare).
    @Test(arguments: [[(1024, false), (1025, true)], [(1025, false), (1024, true)],
                      [(50_000, false), (50_000, true), (1, false)], [(40_000, true), (40_000, false)],
                      [(20_000, false), (60_000, true)]])
    func oppositeCopiesCancelExactly(copies: [(Int, Bool)]) {
        let want = Self.expected(copies, rule: .nonZero)
        Self.eachLoop { loop, path in
            guard loop != .coverage else { return }
            let got = Self.render(copies, rule: .nonZero, loop: loop)
            #expect(got == want, "\(copies), \(path): \(Self.differences(got, want))")
        }
    }

    /// A canvas 16 000 px wide has bands of four rows (`Rasterizer.bandBudget`): one stack of
    /// copies lies in rows 0…2, the other in rows 3…5, across two bands, and they share the
    /// first: every band adds up its own edges (2048 copies: two stacks of 4096 edges a row in
    /// a band of 8192 edges; 32 768: far beyond), and both stacks come out alike.
    @Test(arguments: [2048, 32768])
    func coincidentCopiesInSeveralBands(copies: Int) {
        let want = Self.expected([(copies, false)], rule: .nonZero)
        Self.eachLoop { loop, path in
            let got = Self.render([(copies, false)], rule: .nonZero, loop: loop, width: 16_000,
                                  places: [(0, 0), (9000, 3)])
            #expect(got == want, "\(copies) copies in bands, \(path): \(Self.differences(got, want))")
        }
    }

    /// Through `CGContext`: a fill, a clip mask (its writer resolves rows through `scanRow`) and a
    /// stroke of coincident copies, with the AVX2 kernels (fused rows) and without.
    @Test(arguments: [KernelDispatch.Path.automatic, .sse2])
    func coincidentCopiesThroughTheContext(kernels: KernelDispatch.Path) {
        #expect(KernelDispatch.withPath(kernels) { coincidentCopiesThroughTheContext(describing: kernels) } != nil)
    }

    func coincidentCopiesThroughTheContext(describing kernels: KernelDispatch.Path) {
        let copies = 32768
        func canvas() -> CGContext { CGContext.flipped(width: Self.width, height: Self.height) }
        func addCopies(_ ctx: CGContext, _ count: Int) {
            for _ in 0..<count { ctx.addLines(between: Self.outline()); ctx.closePath() }
        }
        func alphas(_ ctx: CGContext) -> [UInt8] { ctx.alphas.map { UInt8($0) } }
        for (rule, name) in [(CGPathFillRule.winding, "fill"), (.evenOdd, "even-odd fill")] {
            for count in [copies, copies + 1] {
                let ctx = canvas()
                addCopies(ctx, count)
                ctx.fillPath(using: rule)
                let want = Self.expected([(count, false)], rule: rule == .winding ? .nonZero : .evenOdd)
                #expect(alphas(ctx) == want, "\(name), \(count) copies, \(kernels): \(Self.differences(alphas(ctx), want))")
            }
        }
        let clipped = canvas()
        addCopies(clipped, copies)
        clipped.clip()
        clipped.fill(CGRect(x: 0, y: 0, width: Self.width, height: Self.height))
        let want = Self.expected([(copies, false)], rule: .nonZero)
        #expect(alphas(clipped) == want, "clip, \(kernels): \(Self.differences(alphas(clipped), want))")
        // A line stroked 2 px wide across rows 0.75…2.75: one copy covers rows 0 and 2 partly.
        func stroked(_ count: Int) -> [UInt8] {
            let ctx = canvas()
            ctx.setLineWidth(2)
            for _ in 0..<count {
                ctx.move(to: CGPoint(x: 1, y: 1.75))
                ctx.addLine(to: CGPoint(x: 7, y: 1.75))
            }
            ctx.strokePath()
            return alphas(ctx)
        }
        let one = stroked(1)
        #expect(Set(one) == [0, 64, 191, 255], "one stroke: \(Set(one).sorted())")
        let strokeWant = one.map { $0 == 0 ? UInt8(0) : 255 }
        let got = stroked(copies)
        #expect(got == strokeWant, "stroke, \(copies) copies, \(kernels): \(Self.differences(got, strokeWant))")
    }
}
