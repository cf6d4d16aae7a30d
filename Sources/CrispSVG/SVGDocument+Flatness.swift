import CrispGraphics
import Foundation

// How finely CrispSVG has curves flattened. CGContext turns each curve into chords no further
// than its flatness (0.2 device px by default) from the curve, and chords lie inside a convex
// curve, so at 0.2 px the edge pixels of round shapes come out short: on a circle of radius 22,
// 18 levels of 255 on average and up to 45 against the exact area (resvg, Skia and CairoSVG
// are within about 1–14). With plain chords at 0.05 px the shortfall was 5 levels on average (at most 12), within
// the peers; the cost is about twice as many chords per curve (counts in the README's SVG
// section). Every context CrispSVG draws into gets it: the caller's (inside a saved state) and
// the bitmaps made for masks, clip unions, shadows under clips and pattern tiles.
//
// CGContext now moves each chord so its piece keeps the curve's area (issue 32, docs/curves.md):
// at 0.05 px the worst edge pixel is 7–9 levels off the exact area, with no bias; 2 levels needs
// 0.01 px. Rejected: a finer default in CGContext itself (raster internals, and every UI golden
// would move).

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
