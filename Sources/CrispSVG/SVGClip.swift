import CrispGraphics
import Foundation

// A `<clipPath>` resolved for one clipped element: the shapes of its children, each already in
// the element's user space (child transform, then the objectBoundingBox mapping, then the
// clipPath's own transform). What it lets through is the union of the shapes — each cut down by
// its own `clip-path`, if it has one — intersected with the clipPath's own `clip-path`.
//
// A union cannot be expressed as an intersection of path clips, and two shapes with different
// clip rules, or overlapping ones, cannot be merged into one path either: SVGDocument+Clipping
// draws such a union into a coverage mask instead.

/// One child of a clip path: its interior under `rule`, cut down by `clip` (the child's own
/// `clip-path`) when that is not empty.
struct SVGClipShape {
    var path: CGPath
    var rule: CGPathFillRule
    /// Clips to intersect with this shape (zero or one).
    var clip: [SVGClip] = []
}

/// A clip path in the clipped element's user space.
struct SVGClip {
    /// The union of these is let through; nothing when there are none.
    var shapes: [SVGClipShape]
    /// Clips the union is intersected with (the clipPath's own `clip-path`; zero or one).
    var intersected: [SVGClip] = []

    /// A clip that lets nothing through.
    static var nothing: SVGClip { SVGClip(shapes: []) }

    /// A box around everything the clip lets through; `CGRect.null` when it lets nothing through.
    var boundingBox: CGRect {
        var box = CGRect.null
        for s in shapes {
            var b = s.path.boundingBoxOfPath
            for c in s.clip { b = SVGClip.intersection(b, c.boundingBox) }
            box = box.including(b)
        }
        for c in intersected { box = SVGClip.intersection(box, c.boundingBox) }
        return box
    }

    /// The same clip mapped by `t` (from this clip's space to the new one).
    func transformed(by t: CGAffineTransform) -> SVGClip {
        if t.isIdentity { return self }
        return SVGClip(shapes: shapes.map { s in
                           SVGClipShape(path: SVGClip.transformed(s.path, t), rule: s.rule, clip: s.clip.map { $0.transformed(by: t) })
                       },
                       intersected: intersected.map { $0.transformed(by: t) })
    }

    static func transformed(_ path: CGPath, _ t: CGAffineTransform) -> CGPath {
        if t.isIdentity { return path }
        let copy = CGMutablePath()
        copy.addPath(path, transform: t)
        return copy
    }

    private static func intersection(_ a: CGRect, _ b: CGRect) -> CGRect {
        a.isNull || b.isNull ? .null : a.intersection(b)
    }
}
