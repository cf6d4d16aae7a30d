import CrispGraphics
import Foundation

// Attributes, the `style` attribute, and the values of the properties Crisp draws with.

/// An element's attributes sorted by role.
struct ElementDeclarations {
    /// Element-specific attributes (geometry, gradient attributes, …) in source order.
    var own: [SVGDeclaration] = []
    /// Presentation attributes, then `style` declarations (later wins).
    var presentation: [SVGDeclaration] = []
    /// The `transform` attribute.
    var transform: SVGDeclaration?

    func value(_ name: String) -> SVGDeclaration? { own.last { $0.name == name } }
}

extension SVGBuilder {
    // MARK: Attribute sets

    static let svgAttributes: Set<String> = ["x", "y", "width", "height", "viewBox", "preserveAspectRatio", "version",
                                             "baseProfile", "zoomAndPan", "contentScriptType", "contentStyleType"]
    static let linkAttributes: Set<String> = ["href", "xlink:href", "target", "xlink:title", "xlink:show", "xlink:actuate",
                                              "xlink:type", "xlink:role", "xlink:arcrole"]
    static let shapeAttributes: [String: Set<String>] = [
        "path": ["d", "pathLength"], "rect": ["x", "y", "width", "height", "rx", "ry"], "circle": ["cx", "cy", "r"],
        "ellipse": ["cx", "cy", "rx", "ry"], "line": ["x1", "y1", "x2", "y2"], "polyline": ["points"], "polygon": ["points"],
    ]

    /// The presentation properties that change what Crisp draws.
    static let drawnProperties: Set<String> = [
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linejoin", "stroke-linecap",
        "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "opacity", "clip-path",
        "clip-rule", "color", "display", "visibility", "stop-color", "stop-opacity", "shape-rendering", "overflow",
        "transform-origin", "mask", "mask-type", "filter", "font-family", "font-size", "font-weight", "font-variation-settings", "text-anchor",
        "letter-spacing", "word-spacing", "marker", "marker-start", "marker-mid", "marker-end",
        "mix-blend-mode", "isolation", "paint-order", "image-rendering", "font-style", "vector-effect",
        "font-feature-settings", "font-variant", "font-variant-ligatures", "font-variant-caps", "font-variant-numeric",
        "font-kerning", "kerning", "direction", "unicode-bidi", "dominant-baseline", "alignment-baseline", "baseline-shift",
        "text-decoration", "text-decoration-line", "white-space", "writing-mode", "text-orientation",
        "glyph-orientation-vertical",
    ]
    /// Properties that cannot change a picture made of the elements Crisp draws (text and
    /// raster-image properties, interaction, hints).
    static let inertProperties: Set<String> = [
        "font", "font-stretch", "font-size-adjust", "glyph-orientation-horizontal", "text-rendering", "color-rendering", "color-interpolation",
        "color-interpolation-filters", "color-profile", "pointer-events", "cursor", "enable-background", "clip",
        "flood-color", "flood-opacity", "lighting-color", "solid-color", "solid-opacity", "line-height",
        "inline-size", "shape-inside", "shape-padding", "shape-margin", "font-variant-east-asian",
        "text-decoration-style", "text-decoration-color",
        "text-indent", "text-align", "text-transform", "buffered-rendering",
        // CSS on the root element: not drawn, as resvg 0.44 draws none (a background behind the
        // document is the caller's to draw).
        "background-color",
    ]
    /// Properties Crisp does not implement, and the value that means "off".
    static let unimplementedProperties: [String: Set<String>] = [:]
    /// Attributes that never matter for drawing and are not worth a warning.
    static let ignoredAttributes: Set<String> = ["id", "class", "xmlns", "xml:space", "xml:lang", "lang", "tabindex",
                                                 "focusable", "role", "data-name", "xml:base", "externalResourcesRequired",
                                                 "systemLanguage", "requiredExtensions", "requiredFeatures"]

    /// Sorts an element's attributes; unknown ones become warnings.
    func declarations(of e: XMLElement, allowed: Set<String>) -> ElementDeclarations {
        var result = ElementDeclarations()
        var style: XMLAttribute?
        for a in e.attributes {
            let d = SVGDeclaration(name: Substring(a.name), value: Substring(a.value), offset: a.valueOffset)
            if allowed.contains(a.name) {
                result.own.append(d)
            } else if SVGBuilder.drawnProperties.contains(a.name) || SVGBuilder.inertProperties.contains(a.name)
                        || SVGBuilder.unimplementedProperties[a.name] != nil {
                result.presentation.append(d)
            } else if a.name == "style" {
                style = a
            } else if a.name == "transform" {
                result.transform = d
            } else if SVGBuilder.ignoredAttributes.contains(a.name) || a.name.hasPrefix("xmlns:") || a.name.hasPrefix("aria-") {
                continue
            } else if muted == 0 {   // (the message is not even made while muted)
                warn("unknown attribute \(a.name) on <\(e.name)> (ignored)", at: a.nameOffset)
            }
        }
        let sheet = sheetDeclarations.isEmpty ? nil : sheetDeclarations[ObjectIdentifier(e)]
        let inline = style.map { styleDeclarations($0) } ?? []
        for d in (sheet?.normal ?? []) + inline + (sheet?.important ?? []) {
            if SVGBuilder.drawnProperties.contains(String(d.name)) || SVGBuilder.inertProperties.contains(String(d.name))
                || SVGBuilder.unimplementedProperties[String(d.name)] != nil {
                result.presentation.append(d)
            } else if muted == 0 {
                warn("unknown style property \(d.name) (ignored)", at: d.offset)
            }
        }
        return result
    }

    /// Splits a `style` attribute into declarations (`name: value; …`), dropping CSS comments
    /// and `!important`.
    func styleDeclarations(_ a: XMLAttribute) -> [SVGDeclaration] {
        var result: [SVGDeclaration] = []
        let s = a.value
        var start = s.startIndex
        var i = s.startIndex
        var inParentheses = 0
        func emit(_ end: String.Index) {
            let text = s[start..<end]
            if let colon = text.firstIndex(of: ":") {
                let name = text[..<colon].trimmingWhiteSpaceAndNewlines()
                var value = Substring(text[text.index(after: colon)...].trimmingWhiteSpaceAndNewlines())
                if value.hasSuffix("!important") {
                    value = Substring(value.dropLast(10).trimmingWhiteSpace())
                }
                let offset = a.valueOffset + s.utf8.distance(from: s.startIndex, to: colon) + 1
                if !name.isEmpty { result.append(SVGDeclaration(name: Substring(name), value: value, offset: offset)) }
            } else if !text.allSatisfy(\.isWhitespace) {
                warn("style declaration without ':' (ignored)", at: a.valueOffset + s.utf8.distance(from: s.startIndex, to: start))
            }
        }
        var cleaned = s
        // CSS comments: removed up front (rare in style attributes; offsets after one shift).
        while let open = cleaned.range(of: "/*") {
            guard let close = cleaned.range(of: "*/", range: open.upperBound..<cleaned.endIndex) else {
                cleaned.removeSubrange(open.lowerBound...)
                break
            }
            cleaned.removeSubrange(open.lowerBound..<close.upperBound)
        }
        if cleaned != s {
            return styleDeclarations(XMLAttribute(name: a.name, value: cleaned, nameOffset: a.nameOffset, valueOffset: a.valueOffset))
        }
        while i < s.endIndex {
            let c = s[i]
            if c == "(" { inParentheses += 1 } else if c == ")" { inParentheses = max(0, inParentheses - 1) } else if c == ";" && inParentheses == 0 {
                emit(i)
                start = s.index(after: i)
            }
            i = s.index(after: i)
        }
        emit(s.endIndex)
        return result
    }

    // MARK: Applying properties

    /// Applies declarations in order; an invalid one is as if it were absent (a warning).
    /// `font-size` goes first: the element's other lengths in em are of its own font size.
    func apply(_ declarations: [SVGDeclaration], to p: inout SVGProperties, element own: inout SVGElementProperties) {
        fontSize = p.fontSize
        for d in declarations where d.name == "font-size" {
            do throws(SVGError) {
                p.fontSize = try parseFontSize(d)
            } catch {
                warn(error)
            }
        }
        fontSize = p.fontSize
        for d in declarations where d.name != "font-size" {
            do {
                try apply(d, to: &p, element: &own)
            } catch {
                warn(error)
            }
        }
    }

    private func apply(_ d: SVGDeclaration, to p: inout SVGProperties, element own: inout SVGElementProperties) throws(SVGError) {
        let value = d.value.trimmingWhiteSpaceAndNewlines()
        if value == "inherit" { return }
        switch d.name {
        case "fill": p.fill = try paint(d)
        case "stroke": p.stroke = try paint(d)
        case "fill-opacity": p.fillOpacity = try opacity(d)
        case "stroke-opacity": p.strokeOpacity = try opacity(d)
        case "opacity": own.opacity = try opacity(d)
        case "stop-opacity": own.stopOpacity = try opacity(d)
        case "fill-rule": p.fillRule = try rule(d)
        case "clip-rule": p.clipRule = try rule(d)
        case "stroke-width":
            let w = try length(d, axis: .diagonal)
            guard w >= 0 else { throw invalid(d, "must not be negative") }
            p.strokeWidth = w
        case "stroke-linecap":
            switch value {
            case "butt": p.lineCap = .butt
            case "round": p.lineCap = .round
            case "square": p.lineCap = .square
            default: throw invalid(d, "expected butt, round or square")
            }
        case "stroke-linejoin":
            switch value {
            case "miter", "miter-clip", "arcs": p.lineJoin = .miter   // SVG 2: arcs and miter-clip fall back to miter
            case "round": p.lineJoin = .round
            case "bevel": p.lineJoin = .bevel
            default: throw invalid(d, "expected miter, round or bevel")
            }
        case "stroke-miterlimit":
            let m = try number(d)
            guard m >= 1 else { throw invalid(d, "must be at least 1") }
            p.miterLimit = m
        case "stroke-dasharray": p.dashes = try dashArray(d)
        case "stroke-dashoffset": p.dashOffset = try length(d, axis: .diagonal)
        case "color":
            guard let c = SVGColor(parsing: value) else { throw invalid(d, "not a colour") }
            p.color = c
        case "stop-color":
            if value == "currentColor" {
                own.stopColorIsCurrent = true
            } else {
                guard let c = SVGColor(parsing: value) else { throw invalid(d, "not a colour") }
                own.stopColor = c
                own.stopColorIsCurrent = false
            }
        case "display": own.isDisplayed = value != "none"
        case "overflow":
            guard ["visible", "hidden", "scroll", "auto"].contains(value) else { throw invalid(d, "expected visible, hidden, scroll or auto") }
            own.overflowIsVisible = value == "visible" || value == "auto"
        case "transform-origin": own.transformOrigin = try transformOrigin(d)
        case "filter":
            own.filter = value == "none" ? nil : (String(value), d.offset)
        case "mix-blend-mode":
            let modes: [String: CGBlendMode] = [
                "normal": .normal, "multiply": .multiply, "screen": .screen, "overlay": .overlay, "darken": .darken,
                "lighten": .lighten, "color-dodge": .colorDodge, "color-burn": .colorBurn, "hard-light": .hardLight,
                "soft-light": .softLight, "difference": .difference, "exclusion": .exclusion, "hue": .hue,
                "saturation": .saturation, "color": .color, "luminosity": .luminosity,
            ]
            guard let mode = modes[String(value)] else { throw invalid(d, "expected a CSS blend mode") }
            own.blendMode = mode
        case "isolation":
            guard value == "auto" || value == "isolate" else { throw invalid(d, "expected auto or isolate") }
            own.isolate = value == "isolate"
        case "mask-type":
            guard value == "luminance" || value == "alpha" else { throw invalid(d, "expected luminance or alpha") }
            own.maskIsAlpha = value == "alpha"
        case "mask":
            if value == "none" {
                own.mask = nil
            } else {
                guard let id = urlReference(value) else { throw invalid(d, "expected none or url(#id)") }
                own.mask = (id, d.offset)
            }
        case "visibility":
            guard ["visible", "hidden", "collapse"].contains(value) else { throw invalid(d, "expected visible, hidden or collapse") }
            p.isVisible = value == "visible"
        case "paint-order":
            // fill, stroke and markers in the order given, the missing ones after in that order.
            var order: [SVGPaintLayer] = []
            if value != "normal" {
                for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
                    guard let layer = SVGPaintLayer(rawValue: String(word)), !order.contains(layer) else {
                        throw invalid(d, "expected normal or fill, stroke and markers in some order")
                    }
                    order.append(layer)
                }
            }
            for layer in SVGPaintLayer.allCases where !order.contains(layer) { order.append(layer) }
            p.paintOrder = order
        case "shape-rendering":
            guard ["auto", "optimizeSpeed", "crispEdges", "geometricPrecision"].contains(value) else {
                throw invalid(d, "expected auto, optimizeSpeed, crispEdges or geometricPrecision")
            }
            p.isAntialiased = value == "auto" || value == "geometricPrecision"
        case "image-rendering":
            // SVG 1.1's keywords and CSS Images 3's: optimizeSpeed, pixelated and crisp-edges
            // sample the nearest pixel (resvg 0.44 knows only SVG 1.1's).
            switch value {
            case "auto", "optimizeQuality", "smooth", "high-quality": p.imageIsSmoothed = true
            case "optimizeSpeed", "pixelated", "crisp-edges": p.imageIsSmoothed = false
            default: throw invalid(d, "expected auto, optimizeQuality, optimizeSpeed, smooth, high-quality, pixelated or crisp-edges")
            }
        case "font-family":
            p.fontFamilies = SVGBuilder.fontFamilies(String(d.value))
            checkFontFamily(d, p.fontFamilies)
        case "font-weight": p.fontWeight = try fontWeight(d, inherited: p.fontWeight)
        case "font-style":
            // The bundled faces have no italic: italic and oblique are synthesized by slanting
            // the upright glyphs (CSS Fonts 4: oblique's default angle is 14°, at most 90°).
            let words = value.split(separator: " ", omittingEmptySubsequences: true)
            switch words.first {
            case "normal" where words.count == 1: p.fontSlant = 0; p.fontItalic = false
            case "italic" where words.count == 1: p.fontSlant = 14; p.fontItalic = true
            case "oblique":
                p.fontItalic = true
                if words.count == 1 {
                    p.fontSlant = 14
                } else if words.count == 2, words[1].hasSuffix("deg"), let a = Double(words[1].dropLast(3)), abs(a) <= 90 {
                    p.fontSlant = CGFloat(a)
                } else {
                    throw invalid(d, "expected oblique or oblique followed by an angle in deg up to 90")
                }
            default: throw invalid(d, "expected normal, italic or oblique")
            }
        case "font-variation-settings":
            // CSS: `normal` or a list of "tag" number; a variable font draws at those coordinates.
            let variations = FontVariation.parse(String(value))
            guard value == "normal" || !variations.isEmpty else {
                throw invalid(d, "expected normal or a list of \"tag\" number")
            }
            p.fontVariations = variations
        case "text-anchor":
            switch value {
            case "start": p.textAnchor = .start
            case "middle": p.textAnchor = .middle
            case "end": p.textAnchor = .end
            default: throw invalid(d, "expected start, middle or end")
            }
        case "font-feature-settings":
            guard value == "normal" || CTFont.parsesFeatureSettings(String(value)) else {
                throw invalid(d, "expected normal or a list of \"tag\" with an optional value")
            }
            p.fontFeatureSettings = value == "normal" ? "" : String(value)
        case "font-variant", "font-variant-ligatures", "font-variant-caps", "font-variant-numeric":
            try applyFontVariant(d, String(value), to: &p)
        case "font-kerning":
            switch value {
            case "auto", "normal": p.kerningOff = false
            case "none": p.kerningOff = true
            default: throw invalid(d, "expected auto, normal or none")
            }
        case "kerning":
            // SVG 1.1: auto, or a length (0 turns kerning off; other lengths are drawn as auto).
            if value == "auto" { p.kerningOff = false } else { p.kerningOff = try length(d, axis: .horizontal) == 0 }
        case "direction":
            switch value {
            case "ltr": p.direction = .leftToRight
            case "rtl": p.direction = .rightToLeft
            default: throw invalid(d, "expected ltr or rtl")
            }
        case "unicode-bidi":
            switch value {
            case "normal": own.unicodeBidi = .normal
            case "embed": own.unicodeBidi = .embed
            case "isolate": own.unicodeBidi = .isolate
            case "bidi-override": own.unicodeBidi = .bidiOverride
            case "isolate-override": own.unicodeBidi = .isolateOverride
            case "plaintext": own.unicodeBidi = .plaintext
            default: throw invalid(d, "expected normal, embed, isolate, bidi-override, isolate-override or plaintext")
            }
        case "dominant-baseline": p.dominantBaseline = try baseline(d, String(value))
        case "alignment-baseline": own.alignmentBaseline = try baseline(d, String(value))
        case "baseline-shift":
            switch value {
            case "baseline": own.baselineShift = .baseline
            case "sub": own.baselineShift = .sub
            case "super": own.baselineShift = .super
            default:
                if value.hasSuffix("%"), let percent = Double(value.dropLast()) {
                    own.baselineShift = .length(CGFloat(percent) / 100 * p.fontSize)
                } else {
                    own.baselineShift = .length(try length(d, axis: .vertical))
                }
            }
        case "text-decoration", "text-decoration-line":
            // The shorthand also takes a style and a colour (CSS Text Decoration 3); the longhand
            // only lines. Words split outside parentheses (rgb(1, 2, 3) is one).
            var lines: SVGTextDecoration = []
            var style: SVGTextDecorationStyle?
            var color: SVGPaintSpec?
            for word in SVGBuilder.cssWords(value) {
                switch word {
                case "none": lines = []
                case "underline": lines.insert(.underline)
                case "overline": lines.insert(.overline)
                case "line-through": lines.insert(.lineThrough)
                case "blink": break   // CSS: may be ignored
                default:
                    if d.name == "text-decoration", let s = SVGBuilder.decorationStyle(word) {
                        style = s
                    } else if d.name == "text-decoration", let c = SVGBuilder.decorationColor(word) {
                        color = c
                    } else {
                        throw invalid(d, d.name == "text-decoration"
                            ? "expected none, underline, overline, line-through, a style (solid, double, dotted, dashed, wavy) or a colour"
                            : "expected none, underline, overline or line-through")
                    }
                }
            }
            own.textDecoration = lines
            if d.name == "text-decoration" {
                // A shorthand resets the longhands it leaves out.
                own.textDecorationStyle = style ?? .solid
                own.textDecorationColor = color
            }
        case "text-decoration-style":
            guard let s = SVGBuilder.decorationStyle(value) else {
                throw invalid(d, "expected solid, double, dotted, dashed or wavy")
            }
            own.textDecorationStyle = s
        case "text-decoration-color":
            guard let c = SVGBuilder.decorationColor(value) else { throw invalid(d, "not a colour") }
            own.textDecorationColor = c
        case "writing-mode":
            switch value {
            case "horizontal-tb", "lr", "lr-tb", "rl", "rl-tb": p.writingMode = .horizontal
            case "vertical-rl", "vertical-lr", "tb", "tb-rl": p.writingMode = .vertical
            case "sideways-rl":
                p.writingMode = .vertical
                p.textOrientation = .sideways
            case "sideways-lr": p.writingMode = .sidewaysBottomToTop
            default: throw invalid(d, "expected horizontal-tb, vertical-rl, vertical-lr, sideways-rl, sideways-lr, lr, lr-tb, rl, rl-tb, tb or tb-rl")
            }
        case "text-orientation":
            switch value {
            case "mixed": p.textOrientation = .mixed
            case "upright": p.textOrientation = .upright
            case "sideways", "sideways-right": p.textOrientation = .sideways
            default: throw invalid(d, "expected mixed, upright or sideways")
            }
        case "glyph-orientation-vertical":
            // SVG 1.1: auto, or an angle of 0 (upright) or 90 (turned); 180 and 270 are not
            // drawn (CSS Writing Modes maps only these to text-orientation).
            switch value {
            case "auto": p.textOrientation = .mixed
            case "0", "0deg": p.textOrientation = .upright
            case "90", "90deg": p.textOrientation = .sideways
            default: throw invalid(d, "expected auto, 0 or 90")
            }
        case "white-space":
            switch value {
            case "pre", "pre-wrap", "break-spaces": p.whiteSpacePreserves = true
            case "normal", "nowrap", "pre-line": p.whiteSpacePreserves = false
            default: throw invalid(d, "expected normal, pre, nowrap, pre-wrap, break-spaces or pre-line")
            }
        case "letter-spacing": p.letterSpacing = value == "normal" ? 0 : try length(d, axis: .horizontal)
        case "word-spacing": p.wordSpacing = value == "normal" ? 0 : try length(d, axis: .horizontal)
        case "marker-start": p.markerStart = try marker(d)
        case "marker-mid": p.markerMid = try marker(d)
        case "marker-end": p.markerEnd = try marker(d)
        case "marker":
            // The shorthand: all three.
            let m = try marker(d)
            p.markerStart = m
            p.markerMid = m
            p.markerEnd = m
        case "vector-effect":
            switch value {
            case "none": own.nonScalingStroke = false
            case "non-scaling-stroke": own.nonScalingStroke = true
            case "non-scaling-size", "non-rotation", "fixed-position":
                // SVG 2's other effects (at risk in the specification; resvg 0.44 draws none).
                own.nonScalingStroke = false
                warn("vector-effect=\"\(value)\" is not implemented (drawn as none)", at: d.offset)
            default: throw invalid(d, "expected none or non-scaling-stroke")
            }
        case "clip-path":
            if value == "none" {
                own.clipPath = nil
            } else {
                guard let id = urlReference(value) else { throw invalid(d, "expected none or url(#id)") }
                own.clipPath = (id, d.offset)
            }
        default:
            if let off = SVGBuilder.unimplementedProperties[String(d.name)], !off.contains(value) {
                unsupported("\(d.name)=\"\(value)\"", at: d.offset)
            }
        }
    }

    // MARK: Values

    enum Axis { case horizontal, vertical, diagonal }

    /// Absolute units in px (CSS: 96 px to the inch).
    static let unitFactors: [String: CGFloat] = ["": 1, "px": 1, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "Q": 96 / 101.6,
                                                 "pt": 4.0 / 3, "pc": 16]
    /// Font-relative units in ems of the element's font size, from the bundled face text is
    /// drawn with (Roboto: x-height, the OS/2 `sxHeight`, 1082/2048; the advance of "0"
    /// 1151/2048; cap height 1456/2048; ascent + descent + gap 2400/2048); `ic` is an em (CSS's
    /// fallback without a CJK face). `rem` and `rlh` use the root's 16 px.
    static let fontUnits: [String: CGFloat] = ["em": 1, "ex": 1082.0 / 2048, "ch": 1151.0 / 2048, "cap": 1456.0 / 2048, "ic": 1,
                                               "lh": 2400.0 / 2048]
    /// The initial font size, in px.
    static let initialFontSize: CGFloat = 16

    /// A length in user units; percentages are of the viewport's width, height or normalized diagonal.
    func length(_ d: SVGDeclaration, axis: Axis) throws(SVGError) -> CGFloat {
        var scanner = SVGValueScanner(String(d.value))
        scanner.skipWhiteSpace()
        guard let v = scanner.number() else { throw invalid(d, "expected a length") }
        let value = try lengthUnit(&scanner, CGFloat(v), axis: axis, d)
        scanner.skipWhiteSpace()
        guard scanner.isAtEnd else { throw invalid(d, "unexpected text after the length", at: d.offset + scanner.i) }
        return value
    }

    private func lengthUnit(_ scanner: inout SVGValueScanner, _ v: CGFloat, axis: Axis, _ d: SVGDeclaration) throws(SVGError) -> CGFloat {
        if scanner.consume(UInt8(ascii: "%")) {
            switch axis {
            case .horizontal: return v / 100 * viewport.width
            case .vertical: return v / 100 * viewport.height
            case .diagonal:
                let w = viewport.width, h = viewport.height
                return v / 100 * ((w * w + h * h) / 2).squareRoot()
            }
        }
        if scanner.isAtEnd { return v }   // no unit: user units (what unitFactors[""] gives, without a look-up)
        let unitStart = scanner.i
        let unit = scanner.letters()
        if let factor = SVGBuilder.unitFactors[unit] { return v * factor }
        if let ems = SVGBuilder.fontUnits[unit] { return v * ems * fontSize }
        switch unit {
        case "rem": return v * SVGBuilder.initialFontSize
        case "rlh": return v * SVGBuilder.initialFontSize * SVGBuilder.fontUnits["lh"]!
        case "vw": return v / 100 * rootViewport.width
        case "vh": return v / 100 * rootViewport.height
        case "vmin": return v / 100 * min(rootViewport.width, rootViewport.height)
        case "vmax": return v / 100 * max(rootViewport.width, rootViewport.height)
        default: throw invalid(d, "unknown unit \"\(unit)\"", at: d.offset + unitStart)
        }
    }

    /// A `transform-origin`: one or two of left/center/right/top/bottom or lengths (x first; a
    /// missing one is the centre), percentages of the viewport; a third value (z) is ignored.
    func transformOrigin(_ d: SVGDeclaration) throws(SVGError) -> CGPoint {
        let words = d.value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard (1...3).contains(words.count) else { throw invalid(d, "expected one to three positions") }
        var x: CGFloat?, y: CGFloat?
        for (k, w) in words.prefix(2).enumerated() {
            switch w {
            case "left": x = 0
            case "right": x = viewport.width
            case "top": y = 0
            case "bottom": y = viewport.height
            case "center": if k == 0 && x == nil { x = viewport.width / 2 } else { y = viewport.height / 2 }
            default:
                let part = SVGDeclaration(name: d.name, value: w, offset: d.offset)
                if k == 0 { x = try length(part, axis: .horizontal) } else { y = try length(part, axis: .vertical) }
            }
        }
        return CGPoint(x: x ?? viewport.width / 2, y: y ?? viewport.height / 2)
    }

    /// A `font-size`: a length (em and % of the parent's size) or a keyword, not negative.
    func parseFontSize(_ d: SVGDeclaration) throws(SVGError) -> CGFloat {
        let value = d.value.trimmingWhiteSpaceAndNewlines()
        let keywords: [String: CGFloat] = ["xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18, "x-large": 24,
                                           "xx-large": 32, "xxx-large": 48]
        if let k = keywords[value] { return k }
        if value == "larger" { return fontSize * 1.2 }
        if value == "smaller" { return fontSize / 1.2 }
        if value.hasSuffix("%") {
            let percent = try number(SVGDeclaration(name: d.name, value: Substring(value.dropLast()), offset: d.offset))
            return try nonNegative(percent / 100 * fontSize, d)
        }
        return try nonNegative(length(d, axis: .diagonal), d)
    }

    /// A `marker-start`/`-mid`/`-end` (or `marker`) value: `none` or `url(#id)`.
    private func marker(_ d: SVGDeclaration) throws(SVGError) -> SVGMarkerReference? {
        let value = d.value.trimmingWhiteSpaceAndNewlines()
        if value == "none" { return nil }
        guard let id = urlReference(value) else { throw invalid(d, "expected none or url(#id)") }
        return SVGMarkerReference(id: id, offset: d.offset)
    }

    /// A `font-weight`: a keyword or a number from 1 to 1000; `bolder`/`lighter` relative to
    /// the inherited weight (CSS Fonts' table).
    func fontWeight(_ d: SVGDeclaration, inherited: Int) throws(SVGError) -> Int {
        switch d.value.trimmingWhiteSpaceAndNewlines() {
        case "normal": return 400
        case "bold": return 700
        case "bolder": return inherited < 350 ? 400 : inherited < 550 ? 700 : 900
        case "lighter": return inherited < 550 ? 100 : inherited < 750 ? 400 : 700
        default:
            let w = try number(d)
            guard w >= 1, w <= 1000 else { throw invalid(d, "expected normal, bold, bolder, lighter or 1 to 1000") }
            return Int(w)
        }
    }

    /// `font-variant` and its `-ligatures`, `-caps`, `-numeric` longhands as OpenType features
    /// (CSS Fonts 3 §6); the shorthand resets the three.
    private func applyFontVariant(_ d: SVGDeclaration, _ value: String, to p: inout SVGProperties) throws(SVGError) {
        let ligatures: [String: String] = [
            "common-ligatures": "\"liga\" 1, \"clig\" 1", "no-common-ligatures": "\"liga\" 0, \"clig\" 0",
            "discretionary-ligatures": "\"dlig\" 1", "no-discretionary-ligatures": "\"dlig\" 0",
            "historical-ligatures": "\"hlig\" 1", "no-historical-ligatures": "\"hlig\" 0",
            "contextual": "\"calt\" 1", "no-contextual": "\"calt\" 0",
        ]
        let caps: [String: String] = [
            "small-caps": "\"smcp\"", "all-small-caps": "\"smcp\", \"c2sc\"", "petite-caps": "\"pcap\"",
            "all-petite-caps": "\"pcap\", \"c2pc\"", "unicase": "\"unic\"", "titling-caps": "\"titl\"",
        ]
        let numeric: [String: String] = [
            "lining-nums": "\"lnum\"", "oldstyle-nums": "\"onum\"", "proportional-nums": "\"pnum\"",
            "tabular-nums": "\"tnum\"", "diagonal-fractions": "\"frac\"", "stacked-fractions": "\"afrc\"",
            "ordinal": "\"ordn\"", "slashed-zero": "\"zero\"",
        ]
        let name = String(d.name)
        let isShorthand = name == "font-variant"
        var l: [String] = [], c: [String] = [], n: [String] = []
        for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init) {
            if word == "normal" { continue }
            if word == "none", isShorthand || name == "font-variant-ligatures" {
                l = ["\"liga\" 0, \"clig\" 0, \"dlig\" 0, \"hlig\" 0, \"calt\" 0"]
            } else if let f = ligatures[word], isShorthand || name == "font-variant-ligatures" {
                l.append(f)
            } else if let f = caps[word], isShorthand || name == "font-variant-caps" {
                c.append(f)
            } else if let f = numeric[word], isShorthand || name == "font-variant-numeric" {
                n.append(f)
            } else if isShorthand {
                continue      // font-variant-east-asian, position, alternates: not drawn
            } else {
                throw invalid(d, "unexpected \(word)")
            }
        }
        if isShorthand || name == "font-variant-ligatures" { p.variantLigatures = l.joined(separator: ", ") }
        if isShorthand || name == "font-variant-caps" { p.variantCaps = c.joined(separator: ", ") }
        if isShorthand || name == "font-variant-numeric" { p.variantNumeric = n.joined(separator: ", ") }
    }

    /// A `dominant-baseline` or `alignment-baseline` keyword.
    private func baseline(_ d: SVGDeclaration, _ value: String) throws(SVGError) -> SVGBaseline {
        switch value {
        case "auto", "baseline", "use-script", "no-change", "reset-size": return .auto
        case "alphabetic": return .alphabetic
        case "middle": return .middle
        case "central": return .central
        case "hanging": return .hanging
        case "mathematical": return .mathematical
        case "ideographic": return .ideographic
        case "text-before-edge", "before-edge", "text-top": return .textBeforeEdge
        case "text-after-edge", "after-edge", "text-bottom": return .textAfterEdge
        default: throw invalid(d, "expected a baseline keyword (auto, middle, central, hanging, …)")
        }
    }

    /// A CSS value's words: split at white space outside parentheses (`rgb(1, 2, 3)` is one).
    static func cssWords(_ value: String) -> [String] {
        var words: [String] = [], current = "", depth = 0
        for ch in value {
            if ch == "(" { depth += 1 } else if ch == ")" { depth = max(depth - 1, 0) }
            if depth == 0 && (ch == " " || ch == "\t" || ch == "\n" || ch == "\r") {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// A `text-decoration-style` keyword.
    static func decorationStyle(_ word: String) -> SVGTextDecorationStyle? {
        switch word {
        case "solid": .solid
        case "double": .double
        case "dotted": .dotted
        case "dashed": .dashed
        case "wavy": .wavy
        default: nil
        }
    }

    /// A `text-decoration-color`: a colour, or `currentColor` (the declaring element's `color`,
    /// resolved where the line is drawn).
    static func decorationColor(_ word: String) -> SVGPaintSpec? {
        if word == "currentColor" { return .currentColor }
        return SVGColor(parsing: word).map { .color($0) }
    }

    /// A `font-family` list: names separated by commas, quoted or not.
    static func fontFamilies(_ value: String) -> [String] {
        value.split(separator: ",").map {
            $0.trimmingWhiteSpaceAndNewlines().trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }.filter { !$0.isEmpty }
    }

    /// Warns once per document when a `font-family` names no family the document's font source
    /// has (the bundled fonts, the user's, the system's): the text is drawn with the default
    /// family, and the warning lists what was tried.
    private func checkFontFamily(_ d: SVGDeclaration, _ families: [String]) {
        // Without the bundled fonts there is no text (layOutText says so) and nothing to match.
        guard !warnedFontFamily, muted == 0, (try? CTFont.bundledFace(.system)) != nil,
              let warning = fontSource.match(families: families).warning else { return }
        warnedFontFamily = true
        warn("font-family \"\(d.value)\": \(warning) (this warning is given once)", at: d.offset)
    }

    private func nonNegative(_ v: CGFloat, _ d: SVGDeclaration) throws(SVGError) -> CGFloat {
        guard v >= 0 else { throw invalid(d, "must not be negative") }
        return v
    }

    /// A plain number (no unit).
    func number(_ d: SVGDeclaration) throws(SVGError) -> CGFloat {
        var scanner = SVGValueScanner(String(d.value))
        scanner.skipWhiteSpace()
        guard let v = scanner.number() else { throw invalid(d, "expected a number") }
        scanner.skipWhiteSpace()
        guard scanner.isAtEnd else { throw invalid(d, "unexpected text after the number", at: d.offset + scanner.i) }
        return CGFloat(v)
    }

    /// An opacity: a number or percentage, clamped to 0…1.
    func opacity(_ d: SVGDeclaration) throws(SVGError) -> Double {
        var scanner = SVGValueScanner(String(d.value))
        scanner.skipWhiteSpace()
        guard var v = scanner.number() else { throw invalid(d, "expected a number") }
        if scanner.consume(UInt8(ascii: "%")) { v /= 100 }
        scanner.skipWhiteSpace()
        guard scanner.isAtEnd else { throw invalid(d, "unexpected text after the number", at: d.offset + scanner.i) }
        return min(max(v, 0), 1)
    }

    func rule(_ d: SVGDeclaration) throws(SVGError) -> CGPathFillRule {
        switch d.value.trimmingWhiteSpaceAndNewlines() {
        case "nonzero": return .winding
        case "evenodd": return .evenOdd
        default: throw invalid(d, "expected nonzero or evenodd")
        }
    }

    /// `none`, or lengths separated by commas and/or white space. All zeros means solid.
    func dashArray(_ d: SVGDeclaration) throws(SVGError) -> [CGFloat] {
        if d.value.trimmingWhiteSpaceAndNewlines() == "none" { return [] }
        var scanner = SVGValueScanner(String(d.value))
        var result: [CGFloat] = []
        scanner.skipWhiteSpace()
        while !scanner.isAtEnd {
            guard let v = scanner.number() else { throw invalid(d, "expected a length", at: d.offset + scanner.i) }
            let l = try lengthUnit(&scanner, CGFloat(v), axis: .diagonal, d)
            guard l >= 0 else { throw invalid(d, "dash lengths must not be negative") }
            result.append(l)
            scanner.skipSeparator()
        }
        return result.allSatisfy({ $0 == 0 }) ? [] : result
    }

    /// The id in `url(#id)` (quotes allowed), or nil.
    func urlReference(_ value: String) -> String? {
        guard value.hasPrefix("url("), let close = value.firstIndex(of: ")") else { return nil }
        var inner = value[value.index(value.startIndex, offsetBy: 4)..<close].trimmingWhiteSpace()
        if inner.count >= 2, let q = inner.first, q == "\"" || q == "'", inner.last == q {
            inner = String(inner.dropFirst().dropLast())
        }
        guard inner.hasPrefix("#"), inner.count > 1 else { return nil }
        return String(inner.dropFirst())
    }

    /// A `fill` or `stroke` value.
    func paint(_ d: SVGDeclaration) throws(SVGError) -> SVGPaintSpec {
        let value = d.value.trimmingWhiteSpaceAndNewlines()
        switch value {
        case "none": return .none
        case "currentColor": return .currentColor
        default: break
        }
        if value.hasPrefix("url(") {
            guard let id = urlReference(value), let close = value.firstIndex(of: ")") else {
                throw invalid(d, "expected url(#id); only references within the document are supported")
            }
            let rest = value[value.index(after: close)...].trimmingWhiteSpaceAndNewlines()
            var fallback: SVGPaintSpec?
            if !rest.isEmpty {
                if rest == "none" {
                    fallback = SVGPaintSpec.none
                } else if rest == "currentColor" {
                    fallback = .currentColor
                } else if let c = SVGColor(parsing: rest) {
                    fallback = .color(c)
                } else {
                    throw invalid(d, "the fallback after url() is not a colour")
                }
            }
            return .reference(id: id, fallback: fallback, offset: d.offset)
        }
        if value == "context-fill" { return .contextFill }
        if value == "context-stroke" { return .contextStroke }
        guard let c = SVGColor(parsing: value) else { throw invalid(d, "not a colour, none, currentColor or url(#id)") }
        return .color(c)
    }

    /// A `transform` or `gradientTransform` attribute.
    func parseTransform(_ d: SVGDeclaration) throws(SVGError) -> CGAffineTransform {
        do {
            return try SVGTransformParser.transform(from: String(d.value))
        } catch {
            throw invalid(d, error.message, at: d.offset + error.offset)
        }
    }
}
