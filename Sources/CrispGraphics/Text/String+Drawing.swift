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

/// How `String.draw(with:options:…)` and `boundingRect(with:options:…)` lay text out, as
/// UIKit's `NSStringDrawingOptions`.
public struct NSStringDrawingOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Lay the text out in lines within the rectangle's width, the rectangle's origin the top
    /// of the first line (without it, one line on the baseline at the origin, as UIKit).
    public static let usesLineFragmentOrigin = NSStringDrawingOptions(rawValue: 1 << 0)
    /// Measure with the font's leading between lines (Crisp always does; accepted for ports).
    public static let usesFontLeading = NSStringDrawingOptions(rawValue: 1 << 1)
    /// Cut the last line that fits in the rectangle's height with "…".
    public static let truncatesLastVisibleLine = NSStringDrawingOptions(rawValue: 1 << 5)
}

/// Where lines sit across a rectangle, as UIKit's `NSTextAlignment`.
public enum NSTextAlignment: Int, Sendable {
    /// Against the left edge.
    case left = 0
    /// Centred.
    case center = 1
    /// Against the right edge.
    case right = 2
    /// Lines of a left-to-right paragraph on the left, of a right-to-left one on the right.
    case natural = 4
}

extension String {
    /// The layout of the string in `size`: `.usesLineFragmentOrigin` breaks it into lines
    /// `size.width` wide (UAX #14 opportunities; `lineBreakMode` as UIKit's), as many as fit
    /// in `size.height` (unlimited when the height is infinite or zero) and at most
    /// `maximumNumberOfLines` (0: no limit); without it, one line.
    public func layout(with size: CGSize, options: NSStringDrawingOptions = .usesLineFragmentOrigin, font: CTFont,
                       lineBreakMode: NSLineBreakMode = .byWordWrapping, maximumNumberOfLines: Int = 0) -> CTTextLayout {
        let typesetter = CTTypesetter(string: self, font: font)
        guard options.contains(.usesLineFragmentOrigin) else {
            return typesetter.layout(width: .infinity, maximumNumberOfLines: 1, lineBreakMode: .byClipping)
        }
        var limit = max(0, maximumNumberOfLines)
        if size.height.isFinite, size.height > 0 {
            let fitting = max(1, Int((size.height / font.lineHeight).rounded(.down)))
            limit = limit == 0 ? fitting : min(limit, fitting)
        }
        var mode = lineBreakMode
        if options.contains(.truncatesLastVisibleLine), !mode.truncates { mode = .byTruncatingTail }
        let width = size.width > 0 ? size.width : .infinity
        return typesetter.layout(width: width, maximumNumberOfLines: limit, lineBreakMode: mode)
    }

    /// The rectangle the string's lines fill when drawn in `size` (see `layout(with:…)`), its
    /// origin at zero, as UIKit's `boundingRect(with:options:attributes:context:)`: the widest
    /// line's width by the lines' height (not rounded; round up to size a view).
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = .usesLineFragmentOrigin, font: CTFont,
                             lineBreakMode: NSLineBreakMode = .byWordWrapping, maximumNumberOfLines: Int = 0) -> CGRect {
        let layout = layout(with: size, options: options, font: font, lineBreakMode: lineBreakMode,
                            maximumNumberOfLines: maximumNumberOfLines)
        let width = layout.lines.reduce(CGFloat(0)) { max($0, $1.line.width) }
        return CGRect(x: 0, y: 0, width: width, height: CGFloat(layout.lines.count) * layout.lineHeight)
    }

    /// Draws the string in lines inside `rect` (see `layout(with:…)`): the first line's top at
    /// the rectangle's top (in a flipped context; its bottom in a y-up one), each line placed
    /// across by `alignment` (`.natural`: by its paragraph's direction), as UIKit's
    /// `draw(with:options:attributes:context:)`. Returns the layout drawn.
    @discardableResult
    public func draw(with rect: CGRect, options: NSStringDrawingOptions = .usesLineFragmentOrigin, font: CTFont,
                     color: CGColor, alignment: NSTextAlignment = .natural, lineBreakMode: NSLineBreakMode = .byWordWrapping,
                     maximumNumberOfLines: Int = 0, in context: CGContext) -> CTTextLayout {
        let layout = layout(with: rect.size, options: options, font: font, lineBreakMode: lineBreakMode,
                            maximumNumberOfLines: maximumNumberOfLines)
        layout.draw(in: rect, alignment: alignment, color: color, context: context)
        return layout
    }
}

extension CTTextLayout {
    /// Draws the lines in `rect`, top down (in a flipped context; bottom up in a y-up one),
    /// each placed across by `alignment`.
    public func draw(in rect: CGRect, alignment: NSTextAlignment, color: CGColor, context: CGContext) {
        let savedMatrix = context.textMatrix
        context.saveGState()
        context.setFillColor(color)
        let flipped = context.ctm.determinant < 0
        for (i, entry) in lines.enumerated() {
            let line = entry.line
            let x: CGFloat
            switch alignment {
            case .left: x = rect.minX
            case .right: x = rect.maxX - line.width
            case .center: x = rect.midX - line.width / 2
            case .natural: x = entry.direction == .rightToLeft ? rect.maxX - line.width : rect.minX
            }
            if flipped {
                context.textMatrix = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: x,
                                                       ty: rect.minY + CGFloat(i) * lineHeight + ascent)
            } else {
                context.textMatrix = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x,
                                                       ty: rect.maxY - CGFloat(i) * lineHeight - ascent)
            }
            line.draw(in: context)
        }
        context.restoreGState()
        context.textMatrix = savedMatrix
    }
}
