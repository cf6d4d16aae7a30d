import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// Rows resolved by the AVX2 cell kernels (CellsOverAVX2.c) — composited straight from the
/// rasterizer's cells (`SpanBlitter.cellTarget`), or turned into coverage bytes eight cells a
/// step — against the general path (`scanRow`: coverage bytes and pieces, then
/// `blitMask`/`blitSpan`), bit for bit: the kernels against the rules' scalar formulas and
/// source-over's, and whole outlines through the three row loops — runs that end or start at
/// every bit-word boundary, gaps either side of the joining limit, both fill rules, shapes cut
/// by the clip on every side, several bands. The fused rows and the kernels' own test do not
/// depend on the thread's kernel path; the coverage rows follow it (AVX2 unless SSE2 is forced,
/// when `scanRow` makes them: the pixels are the same either way), and one test switches it off
/// on its own thread to reach `scanRow` for a blitter that takes joined gaps.
@Suite struct RasterizerCellTargetTests {
    static let noAVX2 = "this CPU (or its OS) has no AVX2, so the cell kernels were NOT tested"

    /// Cell values the kernels meet: deposits of up to a few pixels either way, zeros, and now
    /// and then an extreme value whose sums wrap.
    static func cell(_ rng: inout SplitMix64) -> Int32 {
        switch rng.next() % 8 {
        case 0, 1: return 0
        case 2: return [Int32.min, .max, 1 << 30, -(1 << 30), Rasterizer.fullCoverage][Int(rng.next() % 5)]
        default: return Int32(truncatingIfNeeded: Int64(rng.next() % (8 << 17)) - (4 << 17))
        }
    }

    /// Each kernel on stretches of 1…70 cells from every offset: pixel i is source-over of the
    /// colour at the rule's alpha of the running sum through cell i; the cells are cleared, the
    /// seven after them and the pixels around the span left alone, and the last sum returned.
    @Test(arguments: [CoverageRule.nonZero, .evenOdd])
    func kernelsMatchTheFormulas(rule: CoverageRule) {
        guard KernelDispatch.cpuHasAVX2 else {
            Issue.record(Comment(rawValue: Self.noAVX2))
            return
        }
        let kernel = (rule == .nonZero ? NonZeroRule.cellKernel : EvenOddRule.cellKernel)!
        let coverageKernel = (rule == .nonZero ? NonZeroRule.coverageKernel : EvenOddRule.coverageKernel)!
        let alpha = rule == .nonZero ? NonZeroRule.alpha : EvenOddRule.alpha
        var rng = SplitMix64(seed: rule == .nonZero ? 0xCE11 : 0xE0CE11)
        let width = 96
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        let cells = UnsafeMutablePointer<Int32>.allocate(capacity: width)
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
        defer { pixels.deallocate(); cells.deallocate(); bytes.deallocate() }
        let colors = InPlaceKernelTests.colors + (0..<4).map { _ in CompositePipelineTests.randomPixel(&rng) }
        var failures = 0, first = ""
        for count in 1...70 {
            for offset in 0..<8 {
                let color = colors[(count + offset) % colors.count]
                let destination = KernelDispatchTests.pixels(width, &rng)
                var given = (0..<width).map { _ in Self.cell(&rng) }
                if count % 2 == 0 {
                    // Untouched stretches (a wide shape's interior): whole blocks of eight cells
                    // from the stretch's start left 0, which the coverage kernel skips.
                    for block in stride(from: offset, to: width, by: 8) where rng.next() % 2 == 0 {
                        for i in block..<min(block + 8, width) { given[i] = 0 }
                    }
                }
                let start = [0, Rasterizer.fullCoverage, -Rasterizer.fullCoverage, Self.cell(&rng)][offset % 4]
                pixels.update(from: destination, count: width)
                cells.update(from: given, count: width)
                let got = kernel(pixels + offset, cells + offset, count, color, start)
                var sum = start
                var wrong: [String] = []
                for i in 0..<width {
                    let inside = i >= offset && i < offset + count
                    var want = destination[i]
                    if inside {
                        sum &+= given[i]
                        want = CompositePipelineTests.reference(SourceOver.self, color, destination[i], UInt32(alpha(sum)))
                    }
                    if pixels[i] != want { wrong.append("pixel \(i): \(pixels[i]) not \(want)") }
                    if cells[i] != (inside ? 0 : given[i]) { wrong.append("cell \(i): \(cells[i])") }
                }
                if got != sum { wrong.append("returned \(got) not \(sum)") }
                // The coverage bytes alone: up to seven bytes past the stretch may be written.
                bytes.update(repeating: 0xA5, count: width)
                cells.update(from: given, count: width)
                let gotBytes = coverageKernel(bytes + offset, cells + offset, count, start)
                sum = start
                for i in 0..<width {
                    let inside = i >= offset && i < offset + count
                    if inside {
                        sum &+= given[i]
                        if bytes[i] != alpha(sum) { wrong.append("byte \(i): \(bytes[i]) not \(alpha(sum))") }
                    } else if (i < offset || i >= offset + count + 7) && bytes[i] != 0xA5 {
                        wrong.append("byte \(i) outside written")
                    }
                    if cells[i] != (inside ? 0 : given[i]) { wrong.append("cell \(i) after the coverage kernel: \(cells[i])") }
                }
                if gotBytes != sum { wrong.append("coverage kernel returned \(gotBytes) not \(sum)") }
                if !wrong.isEmpty {
                    if failures == 0 { first = "count \(count) offset \(offset): \(wrong.prefix(3))" }
                    failures += 1
                }
            }
        }
        #expect(failures == 0, "\(failures) stretches wrong, first \(first)")
    }

    /// With the AVX2 kernels switched off, rows of a blitter that takes joined gaps come from
    /// `scanRow` again (as on CPUs without AVX2), and join and split gaps as
    /// `RasterizerGapTests` requires; left alone, they come from the coverage kernels, which
    /// must do the same (`RasterizerGapTests` itself runs that way).
    @Test func scanRowStillJoinsGapsWithTheKernelsOff() {
        KernelDispatch.withPath(.sse2) {
            for rule in [CoverageRule.nonZero, .evenOdd] {
                for onBackground in [false, true] {
                    RasterizerGapTests().gapsKeepEveryPixelsCoverage(rule: rule, onBackground: onBackground)
                }
            }
        }
    }

    /// Source-over into its own pixels by the scalar formula, from whatever spans it gets.
    protocol Painting: SpanBlitter {
        var pixels: UnsafeMutablePointer<UInt32> { get }
        var width: Int { get }
        var color: UInt32 { get }
    }

    /// Takes joined gaps: rows come from the cells through the kernel when `fused` (it has a
    /// `cellTarget`), else as coverage bytes from the coverage kernel.
    struct Painter: Painting {
        let pixels: UnsafeMutablePointer<UInt32>
        let width: Int
        let color: UInt32
        let cellTarget: CellTarget?

        init(pixels: UnsafeMutablePointer<UInt32>, width: Int, color: UInt32, fused: Bool) {
            self.pixels = pixels
            self.width = width
            self.color = color
            cellTarget = fused ? CellTarget(pixels: pixels, rowStride: width, color: color) : nil
        }
    }

    /// Takes no joined gaps, so rows come through `scanRow` (the general path).
    struct SeparatePainter: Painting {
        var joinedGap: Int { 0 }
        let pixels: UnsafeMutablePointer<UInt32>
        let width: Int
        let color: UInt32
    }

    /// Bars whose sides fall on each side of every bit-word boundary of the clip's cells, with
    /// gaps around the joining limit, and random polygons reaching beyond the clip; drawn with
    /// both row loops into random pixels.
    static func outlines(width: Int, height: Int, clip: PixelRect, _ rng: inout SplitMix64) -> [[CGPoint]] {
        var shapes: [[CGPoint]] = []
        // Bars a few rows high, side by side: their sides at cells 64k − 2 … 64k + 2 (in
        // quarter pixels, so runs start and end at every cell around the boundary).
        var top = CGFloat(clip.y) + 0.25
        for boundary in stride(from: 64, through: clip.width + 64, by: 64) {
            for d in -9...9 {
                let x = CGFloat(clip.x + boundary) + CGFloat(d) / 4
                let gap = [1, 2, 31, 32, 33, 34, 40][Int(rng.next() % 7)]
                let w = CGFloat(1 + Int(rng.next() % 6)) / 4
                let h = CGFloat(1 + Int(rng.next() % 3)) + 0.5
                // A bar left of the boundary and one right of it, `gap` pixels apart.
                shapes.append([CGPoint(x: x - w - CGFloat(gap), y: top), CGPoint(x: x - CGFloat(gap), y: top),
                               CGPoint(x: x - CGFloat(gap) + 0.3, y: top + h), CGPoint(x: x - w - CGFloat(gap), y: top + h)])
                shapes.append([CGPoint(x: x, y: top), CGPoint(x: x + w, y: top),
                               CGPoint(x: x + w, y: top + h), CGPoint(x: x - 0.2, y: top + h)])
                top += 1.75
                if top > CGFloat(clip.maxY) { top = CGFloat(clip.y) + 0.5 }
            }
        }
        // Hairline-like slivers and polygons over the whole canvas and beyond it.
        for _ in 0..<12 {
            let n = 3 + Int(rng.next() % 8)
            shapes.append((0..<n).map { _ in
                CGPoint(x: CGFloat.random(in: -30...CGFloat(width + 30), using: &rng),
                        y: CGFloat.random(in: -10...CGFloat(height + 10), using: &rng))
            })
        }
        for _ in 0..<12 {
            let a = CGPoint(x: CGFloat.random(in: -20...CGFloat(width + 20), using: &rng),
                            y: CGFloat.random(in: -10...CGFloat(height + 10), using: &rng))
            let b = CGPoint(x: CGFloat.random(in: -20...CGFloat(width + 20), using: &rng),
                            y: CGFloat.random(in: -10...CGFloat(height + 10), using: &rng))
            let t = CGFloat.random(in: 0.3...2.5, using: &rng)
            shapes.append([a, b, CGPoint(x: b.x + t, y: b.y + 0.4), CGPoint(x: a.x + t, y: a.y + 0.4)])
        }
        return shapes
    }

    /// Every outline filled through the three row loops, each with its own rasterizer, one
    /// shape after another into the same pixels under clips that change from shape to shape
    /// and cut them on every side (so a cell either loop left behind would show in a later
    /// shape, the buffer's layout having changed with the clip), in one band and in several.
    @Test(arguments: [CoverageRule.nonZero, .evenOdd], [false, true])
    func fusedRowsMatchTheGeneralPath(rule: CoverageRule, manyBands: Bool) {
        guard KernelDispatch.cpuHasAVX2 else {
            Issue.record(Comment(rawValue: Self.noAVX2))
            return
        }
        // Wide enough for several bit words a row; with `manyBands`, 1000 px wide so that a
        // band holds 65 rows (`Rasterizer.bandBudget`) and the outlines span three of them.
        let width = manyBands ? 1000 : 300, height = manyBands ? 180 : 60
        var rng = SplitMix64(seed: manyBands ? 0xBA4D : 0x5EED)
        let clips = [PixelRect(x: 0, y: 0, maxX: width, maxY: height),
                     PixelRect(x: 3, y: 2, maxX: width - 5, maxY: height - 3),
                     PixelRect(x: 61, y: 7, maxX: 200, maxY: height - 9),
                     PixelRect(x: 127, y: 0, maxX: width - 64, maxY: height)]
        let destination = KernelDispatchTests.pixels(width * height, &rng)
        let targets = (0..<3).map { _ in UnsafeMutablePointer<UInt32>.allocate(capacity: width * height) }
        defer { targets.forEach { $0.deallocate() } }
        targets.forEach { $0.update(from: destination, count: width * height) }
        let rasterizers = [Rasterizer(), Rasterizer(), Rasterizer()]
        for (c, clip) in clips.enumerated() {
            var shapes = Self.outlines(width: width, height: height, clip: clip, &rng)
            // Slivers across the clip's right side.
            for _ in 0..<8 {
                let x = CGFloat(clip.maxX) + CGFloat.random(in: -1.5...0.5, using: &rng)
                let y = CGFloat.random(in: CGFloat(clip.y)...CGFloat(clip.maxY), using: &rng)
                shapes.append([CGPoint(x: x, y: y), CGPoint(x: x + 1.3, y: y + 0.2), CGPoint(x: x + 1.1, y: y + 7),
                               CGPoint(x: x - 0.2, y: y + 6)])
            }
            for (k, shape) in shapes.enumerated() {
                let color = InPlaceKernelTests.colors[k % InPlaceKernelTests.colors.count]
                let clip = clips[(c + k) % clips.count]
                for (n, target) in targets.enumerated() {
                    let rasterizer = rasterizers[n]
                    rasterizer.reset(clip: clip)
                    for (i, p) in shape.enumerated() { rasterizer.addLine(p, shape[(i + 1) % shape.count]) }
                    if n < 2 {
                        var painter = Painter(pixels: target, width: width, color: color, fused: n == 0)
                        rasterizer.render(rule: rule, into: &painter)
                    } else {
                        var painter = SeparatePainter(pixels: target, width: width, color: color)
                        rasterizer.render(rule: rule, into: &painter)
                    }
                }
            }
        }
        let general = targets[2]
        for (path, target) in zip(["fused", "coverage"], targets) {
            var differ = 0, first = ""
            for i in 0..<width * height where target[i] != general[i] {
                if differ == 0 { first = "(\(i % width), \(i / width)): \(target[i]) not \(general[i])" }
                differ += 1
            }
            #expect(differ == 0, "\(path) rows: \(differ) pixels differ, first \(first)")
        }
        let changed = (0..<width * height).filter { general[$0] != destination[$0] }.count
        #expect(changed > width * height / 4, "only \(changed) pixels drawn")
    }
}

extension RasterizerCellTargetTests.Painting {
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        for i in 0..<count { blend(x + i, y, coverage[i]) }
    }

    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        for i in 0..<count { blend(x + i, y, coverage) }
    }

    private func blend(_ x: Int, _ y: Int, _ c: UInt8) {
        let p = pixels + (y * width + x)
        p.pointee = CompositePipelineTests.reference(SourceOver.self, color, p.pointee, UInt32(c))
    }
}
