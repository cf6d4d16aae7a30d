import Foundation

// The contract between the Scan stage (coverage producers: the rasterizer, rectangles, glyph
// and shadow masks) and the Composite stage (CompositeBlitter, the clip-mask writers).
//
// A producer hands coverage to a `SpanBlitter`, row by row, left to right, only for pixels
// inside the clip box it was given: `blitSpan` for a run of one coverage (1…255), `blitMask`
// for a run with a coverage byte per pixel (0 allowed). Each pixel is handed at most once per
// fill. Two properties let the consumer shape what it gets: `joinedGap` (how long a gap of
// untouched cells may be to be handed inside one coverage row rather than as its own span) and
// `cellTarget` (a solid colour under source-over into native pixels: then the rasterizer
// composites the rows' touched cells itself, with the AVX2 kernels, and hands only the
// constant spans between them to `blitSpan`). Nothing flows back from the blitter to the
// producer.

/// Receives the rasterizer's coverage, row by row, left to right, for pixels inside the clip box.
protocol SpanBlitter {
    /// Pixels `x..<x+count` of row `y` with per-pixel coverage (0…255).
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>)
    /// Pixels `x..<x+count` of row `y`, all with the same coverage (1…255).
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8)
    /// The longest gap of untouched cells between two runs of a row that may come as part of
    /// one `blitMask` rather than as its own `blitSpan` (0: none).
    var joinedGap: Int { get }
    /// Where rows may go from the rasterizer's cells straight into pixels (a solid colour under
    /// source-over into native pixels, with the AVX2 kernels), or nil. With a target, the
    /// rasterizer composites a row's runs of touched cells itself (`Rasterizer.resolveRowsOver`)
    /// and sends only the constant spans between them through `blitSpan`.
    var cellTarget: CellTarget? { get }
}

extension SpanBlitter {
    var joinedGap: Int { Rasterizer.mergedGap }
    var cellTarget: CellTarget? { nil }
}

/// A solid colour that the rasterizer composites under source-over straight from its cells
/// (CCrispKernels/CellsOverAVX2.c) into premultiplied native pixels.
struct CellTarget {
    /// The destination's first pixel (raster row 0, column 0).
    var pixels: UnsafeMutablePointer<UInt32>
    /// Pixels from one row to the next.
    var rowStride: Int
    /// The premultiplied colour (not `Pixel.unpainted`).
    var color: UInt32
}

/// A rectangle of whole device pixels, `x..<maxX`, `y..<maxY`, rows counted from the top.
@_spi(Testing) public struct PixelRect: Equatable, Sendable {
    @_spi(Testing) public internal(set) var x: Int, y: Int, maxX: Int, maxY: Int
    @_spi(Testing) public var width: Int { maxX - x }
    @_spi(Testing) public var height: Int { maxY - y }
    var isEmpty: Bool { maxX <= x || maxY <= y }

    static let empty = PixelRect(x: 0, y: 0, maxX: 0, maxY: 0)

    func intersection(_ o: PixelRect) -> PixelRect {
        let r = PixelRect(x: max(x, o.x), y: max(y, o.y), maxX: min(maxX, o.maxX), maxY: min(maxY, o.maxY))
        return r.isEmpty ? .empty : r
    }

    /// The smallest pixel rectangle containing `r` (raster coordinates), clamped to `limit`.
    init(enclosing r: CGRect, limit: PixelRect) {
        guard !r.isNull, r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else {
            self = .empty; return
        }
        let x0 = max(CGFloat(limit.x), r.minX.rounded(.down)), y0 = max(CGFloat(limit.y), r.minY.rounded(.down))
        let x1 = min(CGFloat(limit.maxX), r.maxX.rounded(.up)), y1 = min(CGFloat(limit.maxY), r.maxY.rounded(.up))
        if x1 <= x0 || y1 <= y0 { self = .empty; return }
        self.init(x: Int(x0), y: Int(y0), maxX: Int(x1), maxY: Int(y1))
    }

    init(x: Int, y: Int, maxX: Int, maxY: Int) {
        self.x = x; self.y = y; self.maxX = maxX; self.maxY = maxY
    }
}

/// How accumulated winding-weighted coverage becomes alpha.
enum CoverageRule {
    case nonZero, evenOdd, nonZeroAliased, evenOddAliased

    init(_ rule: CGPathFillRule, antialias: Bool) {
        switch (rule, antialias) {
        case (.winding, true): self = .nonZero
        case (.evenOdd, true): self = .evenOdd
        case (.winding, false): self = .nonZeroAliased
        case (.evenOdd, false): self = .evenOddAliased
        }
    }
}

/// A line segment in 24.8 fixed point (1/256 px), absolute raster coordinates (not relative to
/// the clip), with `y0 < y1`.
struct Edge {
    var x0: Int32
    var y0: Int32
    var x1: Int32
    var y1: Int32
    /// +1 for an edge that goes down in raster space, −1 for one that goes up.
    var direction: Int32
}

/// Turns outlines into coverage spans. One per context; buffers are reused between paths.
