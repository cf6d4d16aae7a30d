import CrispGraphics
import Foundation

// How finely CrispSVG has curves flattened. CGContext turns each curve into chords no further
// than its flatness (0.2 device px by default) from the curve, and chords lie inside a convex
// curve, so at 0.2 px the edge pixels of round shapes come out short: on a circle of radius 22,
// 18 levels of 255 on average and up to 45 against the exact area (resvg, Skia and CairoSVG
// are within about 1–14). At 0.05 px the shortfall is 5 levels on average (at most 12), within
// the peers; the cost is about twice as many chords per curve (counts in docs/performance.md,
// "SVG scenes"). Every context CrispSVG draws into gets it: the caller's (inside a saved state) and
// the bitmaps made for masks, clip unions, shadows under clips and pattern tiles.
//
// Rejected: a finer default in CGContext itself (raster internals, and every UI golden would
// move), and moving the vertices off the curve so each curve's polygon keeps its area (tried,
// docs/performance.md, "SVG scenes" ("Tried and not landed"): half the error against the exact area at 0.2 px, still short of the peers,
// and at 0.05 px further from resvg, whose curved edges also fall inside).

extension SVGDocument {
    /// The largest distance, in device pixels, between a curve and the chords drawn for it.
    static let flatness: CGFloat = 0.05

    /// A transparent bitmap context that flattens curves to `flatness`.
    static func makeContext(width: Int, height: Int) -> CGContext? {
        let context = CGContext(width: width, height: height)
        context?.setFlatness(flatness)
        return context
    }
}
