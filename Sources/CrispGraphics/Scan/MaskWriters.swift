// The span consumers that write coverage rather than pixels: clip masks (`MaskWriter`) and the
// alpha a shadow is cast from or an image mask lets through (`AlphaWriter`). Like the
// compositor they are concrete types, and a previous clip mask multiplies their coverage per
// span.

/// Writes coverage × the paint's alpha into an 8-bit mask: the shape a shadow is cast from, or
/// what an image lets through when it becomes a clip.
struct AlphaWriter: SpanBlitter {
    /// The mask written (spans must lie inside its bounds).
    let mask: ClipMask
    /// Whose alpha multiplies the coverage; unpainted pixels count as transparent.
    let paint: Paint
    /// A clip mask multiplying the coverage first, if any.
    let clipMask: ClipMask?
    /// `clipMask`'s rows.
    private let clip: ClipRows?
    /// Scratch row for shaded colours (at least as wide as the mask).
    let shadeBuffer: UnsafeMutablePointer<UInt32>
    /// Scratch row for coverage multiplied by the clip mask (at least as wide as the mask).
    let maskScratch: UnsafeMutablePointer<UInt8>

    init(mask: ClipMask, paint: Paint, clipMask: ClipMask?, shadeBuffer: UnsafeMutablePointer<UInt32>,
         maskScratch: UnsafeMutablePointer<UInt8>) {
        self.mask = mask
        self.paint = paint
        self.clipMask = clipMask
        clip = clipMask?.rows
        self.shadeBuffer = shadeBuffer
        self.maskScratch = maskScratch
    }

    /// A run of one coverage, through the clip mask first when there is one.
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        guard let clip else {
            fill(x: x, y: y, count: count, coverage: coverage)
            return
        }
        clip.span(x: x, y: y, count: count, coverage: coverage, scratch: maskScratch,
                  open: { fill(x: $0, y: y, count: $1, coverage: coverage) },
                  masked: { write(x: $0, y: y, count: $1, coverage: $2) })
    }

    /// A run with a coverage byte per pixel, through the clip mask first when there is one.
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        guard let clip else {
            write(x: x, y: y, count: count, coverage: coverage)
            return
        }
        var x = x, count = count
        if let masked = clip.row(x: &x, y: y, count: &count, coverage: coverage, scratch: maskScratch) {
            write(x: x, y: y, count: count, coverage: masked)
        }
    }

    /// Writes pixels `x..<x+count` of row `y` at one coverage.
    private func fill(x: Int, y: Int, count: Int, coverage: UInt8) {
        let out = mask.row(y) + (x - mask.bounds.x)
        if let color = paint.solidColor {
            out.update(repeating: Pixel.multiply8(UInt32(coverage), color >> 24), count: count)
            return
        }
        paint.shade(x: x, y: y, count: count, into: shadeBuffer)
        for i in 0..<count { out[i] = Pixel.multiply8(UInt32(coverage), alpha(shadeBuffer[i])) }
    }

    /// Writes pixels `x..<x+count` of row `y` with a coverage byte each.
    private func write(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let out = mask.row(y) + (x - mask.bounds.x)
        if let color = paint.solidColor {
            let a = color >> 24
            for i in 0..<count { out[i] = Pixel.multiply8(UInt32(coverage[i]), a) }
            return
        }
        paint.shade(x: x, y: y, count: count, into: shadeBuffer)
        for i in 0..<count { out[i] = Pixel.multiply8(UInt32(coverage[i]), alpha(shadeBuffer[i])) }
    }

    /// The alpha of a shaded pixel, 0 where the paint does not reach.
    @inline(__always)
    private func alpha(_ p: UInt32) -> UInt32 { p == Pixel.unpainted ? 0 : p >> 24 }
}

/// Writes coverage into an 8-bit mask (used to build clip masks), multiplied by the previous
/// clip mask when there is one, and records the mask's row runs as it goes.
///
/// The runs come from the spans themselves, not from a pass over the finished mask: a row's
/// extent is that of what was written into it (a coverage row may end in zero bytes, which only
/// costs a consumer a few pixels of zero coverage), and its open run is its longest span written
/// at full coverage (let through unmasked), which `ClipMask.finishRowRuns()` then widens over
/// the full bytes beside it. A few instructions a span and a few bytes a row instead of
/// `summarizeRows()`'s read of every byte: callgrind, transforms_clip (14 clip masks a render)
/// 1.17 M instructions of summaries become 0.40 M (docs/performance.md, "After branch `clip2`").
struct MaskWriter: SpanBlitter {
    /// Full spans come as spans, so the open runs are recorded.
    var joinedGap: Int { 0 }

    /// The mask written (spans must lie inside its bounds).
    let mask: ClipMask
    /// The clip mask in force before, multiplying the coverage, if any.
    let clipMask: ClipMask?
    /// `clipMask`'s rows.
    private let clip: ClipRows?
    /// Scratch row for coverage multiplied by the clip mask (at least as wide as the mask).
    let maskScratch: UnsafeMutablePointer<UInt8>
    /// The mask's bytes, its row runs (recorded here) and its bounds' origin and width.
    private let data: UnsafeMutablePointer<UInt8>, runs: UnsafeMutablePointer<ClipMask.RowRuns>
    private let originX: Int, originY: Int, width: Int

    init(mask: ClipMask, clipMask: ClipMask?, maskScratch: UnsafeMutablePointer<UInt8>) {
        self.mask = mask
        self.clipMask = clipMask
        clip = clipMask?.rows
        self.maskScratch = maskScratch
        data = mask.data
        runs = mask.recordRowRuns()
        (originX, originY, width) = (mask.bounds.x, mask.bounds.y, mask.bounds.width)
    }

    /// A run of one coverage, through the clip mask first when there is one (the mask starts
    /// zeroed, so what the clip hides is left as it is).
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        let out = row(y)
        guard let clip else {
            (out + x).update(repeating: coverage, count: count)
            note(x: x, y: y, count: count, open: coverage == 255)
            return
        }
        clip.span(x: x, y: y, count: count, coverage: coverage, scratch: maskScratch,
                  open: {
                      (out + $0).update(repeating: coverage, count: $1)
                      note(x: $0, y: y, count: $1, open: coverage == 255)
                  },
                  masked: {
                      (out + $0).update(from: $2, count: $1)
                      note(x: $0, y: y, count: $1, open: false)
                  })
    }

    /// A run with a coverage byte per pixel, through the clip mask first when there is one.
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let out = row(y)
        guard let clip else {
            (out + x).update(from: coverage, count: count)
            note(x: x, y: y, count: count, open: false)
            return
        }
        var x = x, count = count
        if let masked = clip.row(x: &x, y: y, count: &count, coverage: coverage, scratch: maskScratch) {
            (out + x).update(from: masked, count: count)
            note(x: x, y: y, count: count, open: false)
        }
    }

    /// Row `y` of the mask, indexed by raster column.
    @inline(__always)
    private func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { data + ((y &- originY) &* width &- originX) }

    /// Widens row `y`'s runs by pixels `x..<x+count`, just written; `open` when they were written
    /// at full coverage.
    @inline(__always)
    private func note(x: Int, y: Int, count: Int, open: Bool) {
        let r = runs + (y &- originY)
        let x0 = Int32(truncatingIfNeeded: x), x1 = Int32(truncatingIfNeeded: x &+ count)
        r.pointee.start = min(r.pointee.start, x0)
        r.pointee.end = max(r.pointee.end, x1)
        if open && x1 &- x0 > r.pointee.fullEnd &- r.pointee.fullStart {
            r.pointee.fullStart = x0
            r.pointee.fullEnd = x1
        }
    }
}
