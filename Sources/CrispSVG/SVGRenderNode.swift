import CrispGraphics
import Foundation

// The render tree SVGDocument keeps after reading: groups and shapes with everything resolved
// (properties cascaded, lengths in user units, references followed, opacity folded into paint
// where that is exact, clip paths turned into shapes in the clipped element's user space).
// Drawing it is a plain walk with no look-ups, so a document parsed once draws many times cheaply.

/// What a fill or stroke paints: a solid colour or a gradient ready to draw.
enum SVGResolvedPaint {
    case color(SVGColor)
    case gradient(SVGGradientPlan)
    case pattern(SVGPattern)
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
    /// `vector-effect="non-scaling-stroke"`: width and dashes in the canvas's space.
    var isNonScaling = false
}

/// A shape ready to draw.
@_spi(Testing) public struct SVGShape {
    var path: CGPath
    var fill: SVGPaintInstance?
    var fillRule: CGPathFillRule
    var stroke: SVGPaintInstance?
    var strokeStyle: SVGStrokeStyle
    /// False for `shape-rendering: crispEdges | optimizeSpeed` (drawn without anti-aliasing).
    var isAntialiased: Bool
    /// `paint-order` putting the stroke under the fill.
    var strokeFirst = false
}

/// A raster image placed in user space (already fitted by `preserveAspectRatio`).
@_spi(Testing) public struct SVGImage {
    var image: CGImage
    var rect: CGRect
    /// False for `image-rendering: optimizeSpeed` (and CSS's pixelated, crisp-edges): sampled
    /// at the nearest pixel instead of interpolated.
    var isSmoothed = true
}

/// Colour glyphs of a text run ('COLR' layers and paints, 'CBDT'/'sbix' bitmaps), each drawn
/// in its own colours through CrispGraphics' colour glyph path; layers in the text colour take
/// `foreground`.
@_spi(Testing) public struct SVGColorGlyphs {
    /// Each glyph with its font and the transform from its text space (y up, the font's size)
    /// to the node's user space.
    var glyphs: [(glyph: CGGlyph, font: CTFont, transform: CGAffineTransform)]
    /// The text colour (the run's fill, if a colour; else black).
    var foreground: SVGColor
    /// The fill's opacity, applied to the glyphs as one layer.
    var alpha: Double
    /// The glyphs' font boxes in user space.
    var box: CGRect
}

/// A node of the render tree.
@_spi(Testing) public final class SVGRenderNode {
    /// What the node draws.
    @_spi(Testing) public enum Content {
        case group([SVGRenderNode])
        case shape(SVGShape)
        case image(SVGImage)
        case colorGlyphs(SVGColorGlyphs)
    }

    /// What the node draws.
    @_spi(Testing) public internal(set) var content: Content
    /// The element's `transform`: its user space in its parent's.
    var transform: CGAffineTransform
    /// The clip path, in this node's user space (after `transform`); nil for none.
    var clip: SVGClip?
    /// The mask, in this node's user space; nil for none.
    var mask: SVGMask?
    /// The drop shadow of a `filter`, in this node's user space; nil for none.
    @_spi(Testing) public internal(set) var shadow: SVGShadow?
    /// `mix-blend-mode`: how the node, as a whole, is composited onto what is below.
    var blendMode = CGBlendMode.normal
    /// `isolation: isolate`: the children blend with a transparent backdrop (a layer).
    var isolated = false
    /// Whether the node is drawn into a transparency layer for blending or isolation.
    var needsBlendLayer: Bool { blendMode != .normal || isolated }
    /// The filters of `filter` (applied in order), in this node's user space; nil for none.
    @_spi(Testing) public internal(set) var filters: [SVGFilter]?
    /// The element's `opacity` when it could not be folded into paint: the node is drawn into a
    /// transparency layer composited with this alpha. 1 for no layer.
    private(set) var layerOpacity = 1.0
    /// Where the layer's content can paint, in this node's user space: the layer is no bigger.
    private(set) var layerBounds = CGRect.null
    /// The most transparency layers open at once while drawing this node (0 without any).
    private(set) var layerNesting = 0

    /// How many nodes drawing this one visits, a subtree shared by several parents (a marker's
    /// content) counted each time; saturates at `Int.max / 2`. Made on first use, so call it
    /// only once the subtree is final.
    private(set) lazy var weight: Int = {
        guard case .group(let children) = content else { return 1 }
        return children.reduce(1) { min($0 + $1.weight, Int.max / 2) }
    }()

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
    @_spi(Testing) public var boundingBox: CGRect {
        switch content {
        case .shape(let s): return s.path.boundingBoxOfPath
        case .image(let i): return i.rect
        case .colorGlyphs(let g): return g.box
        case .group(let children):
            var box = CGRect.null
            for c in children {
                let b = c.boundingBoxInParent
                if !b.isNull { box = box.isNull ? b : box.union(b) }
            }
            return box
        }
    }

    /// A box around everything the node paints, in its parent's user space (`CGRect.null` when
    /// it paints nothing): fills, strokes out to their furthest reach, cut to the clip's box.
    var paintBoundsInParent: CGRect {
        let own = paintBounds
        return own.isNull ? own : own.applying(transform)
    }

    /// A box around everything the node paints, in its own user space.
    var paintBounds: CGRect { paintBounds(clipped: true) }

    /// A box around everything the node paints, in its own user space, without its own clip
    /// when `clipped` is false.
    func paintBounds(clipped: Bool) -> CGRect {
        var box = CGRect.null
        switch content {
        case .shape(let s):
            let outline = s.path.boundingBoxOfPath
            if s.fill != nil { box = outline }
            if s.stroke != nil {
                // A stroke reaches half its width beyond the outline, times the miter limit at a
                // miter join and √2 at a square cap.
                let style = s.strokeStyle
                let factor = max(style.join == .miter ? style.miterLimit : 1, style.cap == .square ? 2.squareRoot() : 1)
                let reach = style.width / 2 * factor
                box = box.including(outline.insetBy(dx: -reach, dy: -reach))
            }
        case .image(let i): box = i.rect
        case .colorGlyphs(let g): box = g.box
        case .group(let children):
            for c in children { box = box.including(c.paintBoundsInParent) }
        }
        if let shadow, !box.isNull {
            // The shadow: the box moved, grown by the Gaussian's visible reach (3σ).
            box = box.union(box.offsetBy(dx: shadow.dx, dy: shadow.dy).insetBy(dx: -3 * shadow.sigma, dy: -3 * shadow.sigma))
        }
        if let last = filters?.last {
            box = last.region   // what the last filter outputs: nothing beyond its region
        }
        if clipped, let clip, !box.isNull {
            let clipBox = clip.boundingBox
            box = clipBox.isNull ? .null : box.intersection(clipBox)
        }
        return box
    }

    /// Applies the element's `opacity`: folded into paint where that is exact, else through a
    /// transparency layer as big as what the node paints. Call once the content, clip and
    /// children are final.
    func applyOpacity(_ opacity: Double) {
        if opacity < 1 && !foldOpacity(opacity) {
            layerOpacity = opacity
            layerBounds = paintBounds
        }
        var nesting = 0
        if case .group(let children) = content { nesting = children.map(\.layerNesting).max() ?? 0 }
        layerNesting = nesting + (layerOpacity < 1 || needsBlendLayer ? 1 : 0)
    }

    /// Multiplies the node's paint by `opacity` without a transparency layer: possible when
    /// the result is the same, i.e. when exactly one paint is drawn (a shape with only a fill
    /// or only a stroke, or a group whose single child can), or when the node already has a
    /// layer (a layer holding only another layer: the alphas multiply). False when it is not
    /// possible; nothing is changed then.
    ///
    /// Exact because a single paint of coverage c and alpha a composited through a layer of
    /// alpha o gives o·(c·a), the same as painting c with alpha o·a; two paints that overlap
    /// (a fill under its stroke, overlapping children) would show each other through instead.
    func foldOpacity(_ opacity: Double) -> Bool {
        if layerOpacity < 1 {
            layerOpacity *= opacity
            return true
        }
        // A shadow is cast by the opaque element: opacity applies after it, to both.
        if shadow != nil || filters != nil { return false }
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
        case .image: return false
        case .colorGlyphs(var g):
            // One layer already holds the glyphs (their alpha): the alphas multiply.
            g.alpha *= opacity
            content = .colorGlyphs(g)
            return true
        case .group(let children):
            if children.isEmpty { return true }
            return children.count == 1 && children[0].foldOpacity(opacity)
        }
    }
}

extension CGRect {
    /// The union of two boxes, either of which may be `CGRect.null` (nothing).
    func including(_ other: CGRect) -> CGRect {
        if isNull { return other }
        return other.isNull ? self : union(other)
    }
}
