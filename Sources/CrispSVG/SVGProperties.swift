import CrispGraphics
import Foundation

/// A `fill` or `stroke` value as written, before `currentColor` and references are resolved.
enum SVGPaintSpec: Equatable {
    case none
    case color(SVGColor)
    case currentColor
    /// `url(#id)` with an optional fallback for when the reference cannot be used; `offset`
    /// is where the value was written (for errors).
    indirect case reference(id: String, fallback: SVGPaintSpec?, offset: Int)
    /// `context-fill`, `context-stroke`: the fill or stroke of the context element (the shape a
    /// marker is placed on, the `use` whose content is drawn); none without one.
    case contextFill, contextStroke
}

/// The inherited properties SVG cascades from a group to its children, with the initial values
/// of SVG 1.1 / SVG 2 (note the miter limit: 4 in SVG, where CoreGraphics has 10).
/// What `paint-order` orders.
enum SVGPaintLayer: String, CaseIterable {
    case fill, stroke, markers
}

struct SVGProperties {
    var fill = SVGPaintSpec.color(.black)
    var fillOpacity = 1.0
    var fillRule = CGPathFillRule.winding
    var stroke = SVGPaintSpec.none
    var strokeOpacity = 1.0
    var strokeWidth: CGFloat = 1
    var lineCap = CGLineCap.butt
    var lineJoin = CGLineJoin.miter
    var miterLimit: CGFloat = 4
    var dashes: [CGFloat] = []
    var dashOffset: CGFloat = 0
    var clipRule = CGPathFillRule.winding
    var color = SVGColor.black
    var isVisible = true
    var isAntialiased = true
    /// `image-rendering` (inherited): false for optimizeSpeed, pixelated and crisp-edges
    /// (images sampled at the nearest pixel).
    var imageIsSmoothed = true
    /// `paint-order` (inherited): fill, stroke, markers by default.
    var paintOrder: [SVGPaintLayer] = [.fill, .stroke, .markers]
    /// `font-size` in px (for em-based lengths).
    var fontSize = SVGBuilder.initialFontSize
    /// `font-weight` as a number (400 normal, 700 bold); above 500 draws with the bold face.
    var fontWeight = 400
    /// `font-style` as the slant synthesized, in degrees (0 normal; italic and oblique 14).
    var fontSlant: CGFloat = 0
    /// Whether `font-style` asks for italic or oblique (a real italic face is picked when the
    /// family has one; otherwise `fontSlant` is synthesized).
    var fontItalic = false
    /// `font-feature-settings` (inherited), in CSS syntax (empty for normal).
    var fontFeatureSettings = ""
    /// `font-variant-ligatures`, `-caps`, `-numeric` (inherited) as OpenType features.
    var variantLigatures = "", variantCaps = "", variantNumeric = ""
    /// `font-kerning: none` or `kerning: 0` (inherited): the font's kerning is left out.
    var kerningOff = false
    /// `direction` (inherited): the text's paragraph direction.
    var direction = TextDirection.leftToRight
    /// `writing-mode` (inherited; read on the `text` element only, as SVG 2 says).
    var writingMode = SVGWritingMode.horizontal
    /// `text-orientation` or `glyph-orientation-vertical` (inherited).
    var textOrientation = SVGTextOrientation.mixed
    /// `dominant-baseline` (inherited).
    var dominantBaseline = SVGBaseline.auto
    /// `white-space` (inherited): nil when not set (then `xml:space` decides), true for pre,
    /// pre-wrap and break-spaces (white space kept), false for normal, nowrap, pre-line.
    var whiteSpacePreserves: Bool?
    /// `font-variation-settings` (inherited): coordinates on a variable font's axes.
    var fontVariations: [FontVariation] = []
    /// `font-family`: the families in order (generic names as written; empty: the default).
    var fontFamilies: [String] = []
    /// `text-anchor`.
    var textAnchor = SVGTextAnchor.start
    /// `letter-spacing` and `word-spacing` in user units (0 for `normal`).
    var letterSpacing: CGFloat = 0
    var wordSpacing: CGFloat = 0
    /// `marker-start`, `marker-mid`, `marker-end`: the id and where it was written.
    var markerStart: SVGMarkerReference?
    var markerMid: SVGMarkerReference?
    var markerEnd: SVGMarkerReference?
    /// The context element's fill and stroke, for `context-fill` and `context-stroke` (none
    /// outside markers and `use`), with `currentColor` already its colour.
    var contextFill = SVGPaintSpec.none
    var contextStroke = SVGPaintSpec.none

    /// `spec` with `currentColor` and context paint replaced by what they stand for here.
    func concrete(_ spec: SVGPaintSpec) -> SVGPaintSpec {
        switch spec {
        case .currentColor: return .color(color)
        case .contextFill: return contextFill
        case .contextStroke: return contextStroke
        case .reference(let id, let fallback, let offset): return .reference(id: id, fallback: fallback.map(concrete), offset: offset)
        case .none, .color: return spec
        }
    }

    /// Makes the element these properties belong to the context element of what it draws.
    mutating func becomeContext() {
        let fill = concrete(self.fill), stroke = concrete(self.stroke)
        contextFill = fill
        contextStroke = stroke
    }
}

/// `dominant-baseline` / `alignment-baseline`: the baseline glyphs sit on.
enum SVGBaseline {
    case auto, alphabetic, middle, central, hanging, mathematical, ideographic, textBeforeEdge, textAfterEdge
}

/// `baseline-shift`: sub, super, or a length (percentages already of the font size), y up.
enum SVGBaselineShift {
    case baseline, sub, `super`, length(CGFloat)
}

/// `unicode-bidi`.
enum SVGUnicodeBidi {
    case normal, embed, isolate, bidiOverride, isolateOverride, plaintext
}

/// `text-decoration` lines declared on an element.
struct SVGTextDecoration: OptionSet {
    let rawValue: UInt8
    static let underline = SVGTextDecoration(rawValue: 1)
    static let overline = SVGTextDecoration(rawValue: 2)
    static let lineThrough = SVGTextDecoration(rawValue: 4)
}

/// `text-decoration-style`: how a decoration line is drawn.
enum SVGTextDecorationStyle {
    case solid, double, dotted, dashed, wavy
}

/// `writing-mode` (of the `text` element): which way its lines run.
enum SVGWritingMode {
    /// `horizontal-tb` (and SVG 1.1's `lr`, `lr-tb`, `rl`, `rl-tb`).
    case horizontal
    /// Top to bottom: `vertical-rl`, `vertical-lr` (one line: the same) and SVG 1.1's `tb`,
    /// `tb-rl`; `sideways-rl` is this with every character turned.
    case vertical
    /// `sideways-lr`: bottom to top, every character turned 90° counter-clockwise.
    case sidewaysBottomToTop
}

/// `text-orientation` (or SVG 1.1's `glyph-orientation-vertical`): how characters stand in
/// vertical text.
enum SVGTextOrientation {
    /// By Unicode's Vertical_Orientation: CJK upright, the rest turned.
    case mixed
    /// Every character upright.
    case upright
    /// Every character turned 90° clockwise.
    case sideways
}

/// `text-anchor`: where a text chunk sits relative to its start position.
enum SVGTextAnchor {
    case start, middle, end
}

/// A `marker-*` property's `url(#id)` and where it was written.
struct SVGMarkerReference {
    var id: String
    var offset: Int
}

/// The properties SVG does not inherit, for one element.
struct SVGElementProperties {
    var opacity = 1.0
    /// `clip-path="url(#id)"`: the id and where it was written.
    var clipPath: (id: String, offset: Int)?
    var isDisplayed = true
    var stopColor = SVGColor.black
    var stopColorIsCurrent = false
    var stopOpacity = 1.0
    /// False for `overflow: hidden | scroll` (the initial value): a new viewport clips to itself.
    var overflowIsVisible = false
    /// `mask="url(#id)"`: the id and where it was written.
    var mask: (id: String, offset: Int)?
    /// `filter`: its value (url(#id) references and filter functions) and where it was written.
    var filter: (value: String, offset: Int)?
    /// `mask-type: alpha` (on a <mask>): the mask is its content's alpha, not its luminance.
    var maskIsAlpha = false
    /// `mix-blend-mode` (not inherited).
    var blendMode = CGBlendMode.normal
    /// `isolation: isolate`.
    var isolate = false
    /// `transform-origin`, in user units.
    var transformOrigin: CGPoint?
    /// `vector-effect: non-scaling-stroke`: the stroke's width and dashes in the host (canvas)
    /// coordinate space, not the element's.
    var nonScalingStroke = false
    /// `baseline-shift`, `alignment-baseline`, `unicode-bidi`, `text-decoration` (text only).
    var baselineShift = SVGBaselineShift.baseline
    var alignmentBaseline = SVGBaseline.auto
    var unicodeBidi = SVGUnicodeBidi.normal
    var textDecoration: SVGTextDecoration = []
    /// `text-decoration-style` and `text-decoration-color` (nil: the element's own fill and
    /// stroke, as resvg draws every line), with their shorthand's words.
    var textDecorationStyle = SVGTextDecorationStyle.solid
    var textDecorationColor: SVGPaintSpec?
}

/// One presentation attribute or `style` declaration: name, value, and where the value starts.
struct SVGDeclaration {
    var name: Substring
    var value: Substring
    var offset: Int
}
