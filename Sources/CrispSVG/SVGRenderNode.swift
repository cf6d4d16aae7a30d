import CrispGraphics
import Foundation

// The render tree SVGDocument keeps after reading: groups and shapes with everything resolved
// (properties cascaded, lengths in user units, references followed, opacity folded into paint,
// clip paths turned into paths in the clipped element's user space). Drawing it is a plain walk
// with no look-ups, so a document parsed once draws many times cheaply.

/// What a fill or stroke paints: a solid colour or a gradient ready to draw.
enum SVGResolvedPaint {
    case color(SVGColor)
    case gradient(SVGGradientPlan)
}

/// A fill or stroke: its paint and the opacity multiplying it (fill-/stroke-opacity, and any
/// element opacity folded in).
struct SVGPaintInstance {
    var paint: SVGResolvedPaint
    var opacity: Double
    /// The solid colour as drawn, opacity applied (nil for gradients); made once.
    var cgColor: CGColor?

    init(paint: SVGResolvedPaint, opacity: Double) {
        self.paint = paint
        self.opacity = opacity
        updateColor()
    }

    mutating func multiplyOpacity(by factor: Double) {
        opacity *= factor
        updateColor()
    }

    private mutating func updateColor() {
        if case .color(let c) = paint {
            cgColor = CGColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * min(max(opacity, 0), 1))
        } else {
            cgColor = nil
        }
    }
}

/// Stroke geometry in user units.
struct SVGStrokeStyle {
    var width: CGFloat = 1
    var cap: CGLineCap = .butt
    var join: CGLineJoin = .miter
    var miterLimit: CGFloat = 4
    var dashes: [CGFloat] = []
    var dashOffset: CGFloat = 0
}

/// A shape ready to draw.
struct SVGShape {
    var path: CGPath
    var fill: SVGPaintInstance?
    var fillRule: CGPathFillRule
    var stroke: SVGPaintInstance?
    var strokeStyle: SVGStrokeStyle
    /// False for `shape-rendering: crispEdges | optimizeSpeed` (drawn without anti-aliasing).
    var isAntialiased: Bool
}

/// One path of a clip: everything outside it (under `rule`) is clipped away. In the clipped
/// element's user space.
struct SVGClipPart {
    var path: CGPath
    var rule: CGPathFillRule
}

/// A node of the render tree.
final class SVGRenderNode {
    enum Content {
        case group([SVGRenderNode])
        case shape(SVGShape)
    }

    var content: Content
    /// The element's `transform`: its user space in its parent's.
    var transform: CGAffineTransform
    /// Clip paths to intersect, in this node's user space (after `transform`); empty for none.
    var clip: [SVGClipPart] = []

    init(content: Content, transform: CGAffineTransform) {
        self.content = content
        self.transform = transform
    }

    /// The bounding box of the fill geometry in the parent's user space (SVG's object bounding
    /// box, before clipping); `CGRect.null` when there is no geometry.
    var boundingBoxInParent: CGRect {
        let own = boundingBox
        return own.isNull ? own : own.applying(transform)
    }

    /// The bounding box of the fill geometry in this node's user space.
    var boundingBox: CGRect {
        switch content {
        case .shape(let s): return s.path.boundingBoxOfPath
        case .group(let children):
            var box = CGRect.null
            for c in children {
                let b = c.boundingBoxInParent
                if !b.isNull { box = box.isNull ? b : box.union(b) }
            }
            return box
        }
    }

    /// Multiplies the node's paint by `opacity` without a transparency layer: possible when
    /// the result is the same, i.e. when exactly one paint is drawn (a shape with only a fill
    /// or only a stroke, or a group whose single child can). False when it is not possible.
    func foldOpacity(_ opacity: Double) -> Bool {
        switch content {
        case .shape(var s):
            switch (s.fill, s.stroke) {
            case (nil, nil): return true
            case (.some, .some): return false
            case (.some, nil): s.fill!.multiplyOpacity(by: opacity)
            case (nil, .some): s.stroke!.multiplyOpacity(by: opacity)
            }
            content = .shape(s)
            return true
        case .group(let children):
            if children.isEmpty { return true }
            return children.count == 1 && children[0].foldOpacity(opacity)
        }
    }
}
