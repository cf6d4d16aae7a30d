import Foundation

// UIKit-style string drawing for view code: measure a label, then draw it with its box's origin
// at a point — in a flipped view context (y down) the box hangs below the point, as with
// UIKit's -drawAtPoint:withFont:; in a y-up context it sits above it, as with AppKit's. Either
// way the glyphs stand upright in the user space in force, so the seed code
//
//     let size = label.size(withFont: font)
//     ctx.translateBy(x: x, y: y + size.width)
//     ctx.rotate(by: -.pi / 2)
//     label.draw(at: .zero, font: font, color: color, in: ctx)
//
// draws a label reading upwards. The text matrix is set for the call and then restored; the
// context's fill colour is left as it was.
//
// Characters the font lacks are drawn from `FontSource.drawingFallback` (the bundled fonts, DejaVu
// Sans, then whatever fontconfig finds covering them), as a platform's labels do; a line its font
// covers costs one table lookup for that (CTLine.covers).
//
// There is no current context in CrispGraphics, so the context is a parameter; CrispUI wraps
// these with its current-context stack.

extension String {
    /// The size of the string's line box in `font` (characters it lacks measured in the faces
    /// `FontSource.drawingFallback` finds): its typographic width and the font's line
    /// height, both rounded up to whole units, as UIKit's `-sizeWithFont:`.
    public func size(withFont font: CTFont) -> CGSize {
        let line = CTLine(string: self, font: font, fallback: FontSource.drawingFallback)
        return CGSize(width: line.width.rounded(.up), height: font.lineHeight.rounded(.up))
    }

    /// Draws the string in one line with its box's origin at `point`, and returns the box's
    /// size (as `size(withFont:)`).
    ///
    /// In a flipped context (the CTM's determinant is negative, as in a view) `point` is the
    /// box's top-left corner and the baseline is `font.ascent` below it; in a y-up context
    /// `point` is the bottom-left corner. The CTM — including rotations — applies as usual.
    @discardableResult
    public func draw(at point: CGPoint, font: CTFont, color: CGColor, in context: CGContext) -> CGSize {
        let line = CTLine(string: self, font: font, fallback: FontSource.drawingFallback)
        let savedMatrix = context.textMatrix
        context.saveGState()
        context.setFillColor(color)
        if context.ctm.determinant < 0 {
            context.textMatrix = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: point.x, ty: point.y + font.ascent)
        } else {
            context.textMatrix = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: point.x,
                                                   ty: point.y + font.descent + font.leading)
        }
        line.draw(in: context)
        context.restoreGState()
        context.textMatrix = savedMatrix
        return CGSize(width: line.width.rounded(.up), height: font.lineHeight.rounded(.up))
    }
}
