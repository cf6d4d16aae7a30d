import CrispGraphics
import Foundation

// `text` and `tspan` (and `a`, `tref`, `textPath` inside text) laid out as SVG 2's text chunks
// describe and resvg draws them, shaped by the toolkit's text stack (HarfBuzz, FriBidi, font
// fallback; docs/text.md):
//
// 1. The characters: the character data of the text element and its descendants in document
//    order, each tagged with the span (element) it belongs to. White space follows `white-space`
//    or `xml:space`: by default newlines are removed, tabs become spaces, spaces collapse — also
//    across span boundaries — and the leading and trailing ones go; `preserve` (white-space pre,
//    pre-wrap, break-spaces) turns newlines and tabs into spaces and keeps them all.
// 2. Positions: an `x`, `y`, `dx`, `dy` or `rotate` list on an element gives its n-th character
//    the n-th value; the innermost element with a value for a character wins. (`rotate`'s last
//    value also applies to the element's characters beyond the list.) An absolute x or y starts
//    a new text chunk, as does the start of a textPath.
// 3. Shaping, per chunk: the Unicode Bidirectional Algorithm over the chunk's characters (the
//    `direction` of the text element as the paragraph's, `unicode-bidi` on spans as the
//    explicit embeddings, overrides and isolates it stands for), then runs of one level and one
//    face — the span's font (its `font-family` list through the font source, the real italic
//    when the family has one) or, for a character it lacks, the fallback face — each shaped by
//    HarfBuzz in its direction with the span's features (`font-feature-settings`,
//    `font-variant-*`, `font-kerning`), runs in visual order (rule L2).
// 4. Clusters: the glyphs of one cluster (a ligature, a base with its marks, an Arabic letter)
//    move together; a cluster takes the position attributes of its first character (dx, dy and
//    rotate of a ligature's later characters are dropped, as resvg does). `letter-spacing` is
//    added after every cluster but the chunk's last, except in cursive scripts (Arabic, Syriac,
//    N'Ko, Mongolian, Devanagari and the other Brahmic scripts with a head line) where it would
//    break the joins; `word-spacing` after each word separator.
// 5. Layout: the pen starts at (0, 0) and continues from chunk to chunk; a chunk starts at its
//    first character's x/y; clusters in visual order advance the pen, after their dx/dy.
//    `textLength` stretches an element's clusters (spacing or spacingAndGlyphs); each chunk then
//    moves by its advance (`text-anchor` middle: half, end: all; in a right-to-left paragraph
//    start and end are the right and left). Each span's glyphs sit on its baseline: the
//    `dominant-baseline` or `alignment-baseline` (from the font's ascender, descender,
//    x-height and BASE table) plus the `baseline-shift`s of it and its ancestors.
// 6. textPath: each cluster's middle is placed at its distance along the path and turned to the
//    path's direction there; a cluster whose middle is off the path is not drawn.
//    `method="stretch"` is drawn as align (resvg and Chromium do the same).
// 7. Vertical text (`writing-mode` on the text element: vertical-rl, vertical-lr, tb, tb-rl,
//    sideways-rl; sideways-lr runs bottom to top): the pen runs down the column through x.
//    Characters stand by `text-orientation` (or `glyph-orientation-vertical`): for `mixed`,
//    Unicode's Vertical_Orientation (UAX #50) sets CJK upright, shaped top to bottom by HarfBuzz
//    with the font's vertical forms and advances (an ideographic comma in the cell's top right,
//    brackets turned where the font has vertical ones), and turns the rest 90° clockwise, their
//    em box centred on the column; baseline shifts move toward the column's right; text-anchor,
//    textLength and letter-spacing run along the column; decorations run beside it, as resvg
//    draws them. Text on a path stays horizontal.
// 8. Geometry: each span's glyph outlines become one shape with its fill, stroke and their
//    properties; `text-decoration` lines are rectangles under each cluster of the spans they
//    cover, drawn with the paint of the element that declares them (underline and overline
//    before the text, line-through after). The text element is one group, so transforms,
//    clip-path, mask, opacity and filters apply as to any group. An objectBoundingBox paint uses
//    the text element's box.
//
// Rejected: drawing text with CGContext's glyph cache (bitmaps at the context's scale):
// outlines stroke, clip, mask and fill with gradients and patterns like any other shape, and
// resvg and the browsers also paint SVG text as outlines.

extension SVGBuilder {
    static let textAttributes: Set<String> = ["x", "y", "dx", "dy", "rotate", "textLength", "lengthAdjust"]
    static let textPathAttributes: Set<String> = ["href", "xlink:href", "startOffset", "method", "spacing", "side", "path"]

    /// One span (the text element or a tspan) and its cascaded properties.
    struct TextSpan {
        var properties: SVGProperties
        var font: CTFont
        /// The OpenType features asked for, in CSS syntax.
        var features = ""
        /// The slant synthesized (0 when the face is a real italic or none is asked for).
        var slant: CGFloat = 0
        /// How far the glyphs sit below the text's baseline (SVG's y down): baseline shifts
        /// and the dominant or alignment baseline.
        var baselineOffset: CGFloat = 0
        /// The decorations drawn under this span's glyphs: the lines and the index of the span
        /// that declares them (whose paint and font they take).
        var decorations: [(lines: SVGTextDecoration, declaredBy: Int)] = []
        /// This span's own `text-decoration-style` and `-color`, for the lines it declares.
        var decorationStyle = SVGTextDecorationStyle.solid
        var decorationColor: SVGPaintSpec?
        /// The cumulative `baseline-shift` up, for descendants.
        var shiftUp: CGFloat = 0
        /// In vertical text, how far a turned glyph's baseline lies below the column's centre
        /// line: half the ascender plus the (negative) descender, so that the em box is centred.
        var centralOffset: CGFloat = 0
    }

    /// One character after white-space handling.
    struct TextCharacter {
        var scalar: Unicode.Scalar
        var span: Int
        var x: CGFloat?, y: CGFloat?, dx: CGFloat?, dy: CGFloat?, rotate: CGFloat?
        /// Whether this space came from an element with `xml:space="preserve"` (never stripped).
        var isPreserved = false
        /// The `textPath` the character is set on (an index into the layout's paths).
        var path: Int?
    }

    /// Position lists of one element and the characters they apply to.
    struct TextPositions {
        var start: Int
        var end: Int
        var x: [CGFloat] = [], y: [CGFloat] = [], dx: [CGFloat] = [], dy: [CGFloat] = [], rotate: [CGFloat] = []
        /// `textLength` (positive) and whether `lengthAdjust` is spacingAndGlyphs.
        var textLength: CGFloat?
        var scalesGlyphs = false
        var offset = 0
    }

    /// A laid-out text element: per span run, its glyph outlines, and the properties to paint them.
    struct TextRun {
        var path: CGMutablePath
        var properties: SVGProperties
        /// The run's colour glyphs (not in `path`): each with its font and its transform from
        /// text space.
        var colorGlyphs: [(glyph: CGGlyph, font: CTFont, transform: CGAffineTransform)] = []

        /// The colour glyphs' font boxes in user space.
        var colorGlyphBox: CGRect {
            var box = CGRect.null
            for g in colorGlyphs {
                let b = g.font.face.boundingBox, s = g.font.scale
                let r = CGRect(x: b.minX * s, y: b.minY * s, width: b.width * s, height: b.height * s)
                box = box.including(r.applying(g.transform))
            }
            return box
        }
    }

    /// A `text` element as a group of shapes; nil when it draws nothing.
    func buildText(_ e: XMLElement, inherited: SVGProperties, depth: Int) throws(SVGError) -> SVGRenderNode? {
        let attributes = declarations(of: e, allowed: SVGBuilder.textAttributes)
        var properties = inherited
        var own = SVGElementProperties()
        apply(attributes.presentation, to: &properties, element: &own)
        guard own.isDisplayed, let runs = try layOutText(e, attributes: attributes, properties: properties, own: own) else { return nil }
        var box = CGRect.null
        for run in runs { box = box.including(run.path.boundingBoxOfPath).including(run.colorGlyphBox) }
        var children: [SVGRenderNode] = []
        for run in runs {
            if !run.path.isEmpty {
                let shape = try makeShape(run.path, properties: run.properties, boundingBox: box, isLine: false, depth: depth)
                children.append(SVGRenderNode(content: .shape(shape), transform: .identity))
            }
            // Colour glyphs are painted by the fill: in their own colours, the fill's colour for
            // their text-colour layers (black for a paint server), at the fill's opacity.
            if !run.colorGlyphs.isEmpty, run.properties.fill != .none {
                var foreground = SVGColor.black
                switch run.properties.fill {
                case .color(let c): foreground = c
                case .currentColor: foreground = run.properties.color
                default: break
                }
                let glyphs = SVGColorGlyphs(glyphs: run.colorGlyphs, foreground: foreground,
                                            alpha: run.properties.fillOpacity, box: run.colorGlyphBox)
                children.append(SVGRenderNode(content: .colorGlyphs(glyphs), transform: .identity))
            }
        }
        let node = SVGRenderNode(content: .group(children), transform: try transform(of: attributes, own))
        try finish(node, element: e, own: own, depth: depth)
        return node
    }

    /// The glyph outlines of a text element by span run (nil when there are none, or the
    /// bundled font cannot be read: then unsupported).
    func layOutText(_ e: XMLElement, attributes: ElementDeclarations, properties: SVGProperties,
                    own rootOwn: SVGElementProperties = SVGElementProperties()) throws(SVGError) -> [TextRun]? {
        do {
            _ = try CTFont.bundledFace(.system)
            _ = try CTFont.bundledFace(.emphasizedSystem)
        } catch {
            unsupported("<text> (the bundled font cannot be read: \(error))", at: e.offset)
            return nil
        }
        var spans: [TextSpan] = []
        var characters: [TextCharacter] = []
        var positions: [TextPositions] = []
        // Bidi controls standing for `unicode-bidi`: opened before and closed before a character.
        var bidiOpen: [Int: [Unicode.Scalar]] = [:]
        var bidiClose: [Int: [Unicode.Scalar]] = [:]

        /// The span for an element with these properties inside `parent`.
        func makeSpan(_ p: SVGProperties, _ own: SVGElementProperties, parent: Int?) -> TextSpan {
            // The first family of the list the font source has, at the nearest weight and the
            // style asked for; a family without an italic face gets a synthesized slant. A size
            // of 0 (CTFont would take it as 12) or beyond any float draws nothing.
            let face = fontSource.match(families: p.fontFamilies, weight: p.fontWeight, italic: p.fontItalic).face
            let font = CTFont(face: face.instance(variations: p.fontVariations),
                              size: p.fontSize > 0 && p.fontSize.isFinite ? p.fontSize : 1)
            var span = TextSpan(properties: p, font: font)
            span.slant = face.isItalic ? 0 : p.fontSlant
            var features = [p.variantLigatures, p.variantCaps, p.variantNumeric, p.fontFeatureSettings].filter { !$0.isEmpty }
            if p.kerningOff { features.append("\"kern\" 0") }
            span.features = features.joined(separator: ", ")
            let metrics = font.lineMetrics
            var up = parent.map { spans[$0].shiftUp } ?? 0
            switch own.baselineShift {
            case .baseline: break
            case .sub: up -= metrics.subscriptOffset
            case .super: up += metrics.superscriptOffset
            case .length(let l): up += l
            }
            span.shiftUp = up
            span.centralOffset = (metrics.ascender + metrics.descender) / 2
            let baseline = own.alignmentBaseline != .auto ? own.alignmentBaseline : p.dominantBaseline
            let down: CGFloat
            switch baseline {
            case .auto, .alphabetic: down = 0
            case .textBeforeEdge: down = metrics.ascender
            case .middle: down = metrics.xHeight / 2
            case .central: down = (metrics.ascender + metrics.descender) / 2
            case .hanging: down = metrics.hangingBaseline ?? metrics.ascender * 0.8
            case .mathematical: down = metrics.ascender / 2
            case .ideographic: down = metrics.ideographicBaseline ?? metrics.descender
            case .textAfterEdge: down = metrics.descender
            }
            span.baselineOffset = down - up
            span.decorations = parent.map { spans[$0].decorations } ?? []
            if !own.textDecoration.isEmpty { span.decorations.append((own.textDecoration, spans.count)) }
            span.decorationStyle = own.textDecorationStyle
            span.decorationColor = own.textDecorationColor
            return span
        }
        func isDrawn(_ span: TextSpan) -> Bool { span.properties.fontSize > 0 && span.properties.fontSize.isFinite }

        /// Collects `element`'s characters (recursively) as span `spans.count`.
        func collect(_ element: XMLElement, _ attributes: ElementDeclarations, _ properties: SVGProperties,
                     _ own: SVGElementProperties, parent: Int?, preserve inherited: Bool, depth: Int) throws(SVGError) {
            guard depth <= SVGBuilder.maximumBuildDepth else {
                throw SVGError(.limitExceeded("elements nested more than \(SVGBuilder.maximumBuildDepth) deep"), at: location(element.offset))
            }
            var preserve = properties.whiteSpacePreserves ?? inherited
            if let space = element.attribute("xml:space")?.value { preserve = space == "preserve" }
            let span = spans.count
            spans.append(makeSpan(properties, own, parent: parent))
            // unicode-bidi on a span: the explicit controls it stands for around its characters
            // (the text element's own direction is the paragraph's).
            let rtl = properties.direction == .rightToLeft
            var controls: ([Unicode.Scalar], [Unicode.Scalar]) = ([], [])
            if parent != nil { controls = switch own.unicodeBidi {
            case .normal: ([], [])
            case .embed: ([rtl ? "\u{202B}" : "\u{202A}"], ["\u{202C}"])
            case .bidiOverride: ([rtl ? "\u{202E}" : "\u{202D}"], ["\u{202C}"])
            case .isolate: ([rtl ? "\u{2067}" : "\u{2066}"], ["\u{2069}"])
            case .isolateOverride: ([rtl ? "\u{2067}" : "\u{2066}", rtl ? "\u{202E}" : "\u{202D}"], ["\u{202C}", "\u{2069}"])
            case .plaintext: (["\u{2068}"], ["\u{2069}"])
            } }
            let firstCharacter = characters.count
            var lists = TextPositions(start: characters.count, end: characters.count)
            for (name, axis) in [("x", Axis.horizontal), ("y", .vertical), ("dx", .horizontal), ("dy", .vertical)] {
                guard let d = attributes.value(name) else { continue }
                let values = lengthList(d, axis: axis)
                switch name {
                case "x": lists.x = values
                case "y": lists.y = values
                case "dx": lists.dx = values
                default: lists.dy = values
                }
            }
            if let d = attributes.value("rotate") { lists.rotate = numberList(d) }
            if let d = attributes.value("textLength"), let length = recoveringLength(d, axis: .horizontal) {
                if length >= 0 { lists.textLength = length } else { warn(invalid(d, "a negative textLength")) }
                lists.offset = d.offset
            }
            if let d = attributes.value("lengthAdjust") {
                switch d.value.trimmingWhiteSpace() {
                case "spacing": break
                case "spacingAndGlyphs": lists.scalesGlyphs = true
                default: warn(invalid(d, "expected spacing or spacingAndGlyphs"))
                }
            }
            let positionIndex = positions.count
            positions.append(lists)
            var runs = element.textRuns[...]
            for k in 0...element.children.count {
                while let run = runs.first, run.childIndex == k {
                    runs.removeFirst()
                    append(run.text, span: span, preserve: preserve)
                }
                guard k < element.children.count else { break }
                let child = element.children[k]
                guard passesConditions(child) else { continue }
                switch child.name {
                case "tspan", "a":
                    let childAttributes = declarations(of: child, allowed: SVGBuilder.textAttributes.union(child.name == "a" ? SVGBuilder.linkAttributes : []))
                    var childProperties = properties
                    var childOwn = SVGElementProperties()
                    apply(childAttributes.presentation, to: &childProperties, element: &childOwn)
                    guard childOwn.isDisplayed else { continue }
                    // An opacity on a span multiplies its paints (it cannot have a layer of its own here).
                    childProperties.fillOpacity *= childOwn.opacity
                    childProperties.strokeOpacity *= childOwn.opacity
                    try collect(child, childAttributes, childProperties, childOwn, parent: span, preserve: preserve, depth: depth + 1)
                case "title", "desc", "metadata":
                    continue
                case "textPath":
                    try collectTextPath(child, properties, parent: span, preserve: preserve, depth: depth)
                case "tref":
                    try collectTref(child, properties, parent: span, preserve: preserve, depth: depth)
                default:
                    warn("<\(child.name)> inside <\(element.name)> (not allowed there; ignored)", at: child.offset)
                }
            }
            positions[positionIndex].end = characters.count
            if !controls.0.isEmpty, characters.count > firstCharacter {
                // Inner spans are done first: outer openers go before theirs, closers after.
                bidiOpen[firstCharacter, default: []] = controls.0 + bidiOpen[firstCharacter, default: []]
                bidiClose[characters.count, default: []] += controls.1
            }
        }

        /// A `tref` (SVG 1.1; removed from SVG 2, drawn by resvg and browsers of its time): a
        /// span, with its own positions and presentation attributes, whose characters are all
        /// the character data of the element it references (descendants included), white space
        /// handled where the tref is. A missing reference draws nothing (a warning).
        func collectTref(_ child: XMLElement, _ properties: SVGProperties, parent: Int, preserve: Bool, depth: Int) throws(SVGError) {
            let childAttributes = declarations(of: child, allowed: SVGBuilder.textAttributes.union(["href", "xlink:href"]))
            var childProperties = properties
            var childOwn = SVGElementProperties()
            apply(childAttributes.presentation, to: &childProperties, element: &childOwn)
            guard childOwn.isDisplayed else { return }
            childProperties.fillOpacity *= childOwn.opacity
            childProperties.strokeOpacity *= childOwn.opacity
            guard let href = childAttributes.value("href") ?? childAttributes.value("xlink:href") else {
                warn("<tref> without href (not drawn)", at: child.offset)
                return
            }
            let value = href.value.trimmingWhiteSpace()
            guard value.hasPrefix("#"), let target = element(withId: String(value.dropFirst())) else {
                warn(SVGError(.missingReference(id: String(value.dropFirst(value.hasPrefix("#") ? 1 : 0))), at: location(href.offset)))
                return
            }
            let span = XMLElement(name: "tref", attributes: child.attributes, offset: child.offset)
            span.textRuns = [XMLTextRun(text: SVGBuilder.characterData(of: target), childIndex: 0, offset: child.offset)]
            try collect(span, childAttributes, childProperties, childOwn, parent: parent, preserve: preserve, depth: depth + 1)
        }

        /// A `textPath`: its characters as a span set on the path it names (a `path` or a basic
        /// shape, through the element's own transform), from `startOffset`; `side="right"`
        /// walks the path backwards. A textPath without a usable path draws nothing (a warning).
        var textPaths: [SVGTextPath] = []
        func collectTextPath(_ child: XMLElement, _ properties: SVGProperties, parent: Int, preserve: Bool, depth: Int) throws(SVGError) {
            let childAttributes = declarations(of: child, allowed: SVGBuilder.textAttributes.union(SVGBuilder.textPathAttributes))
            var childProperties = properties
            var childOwn = SVGElementProperties()
            apply(childAttributes.presentation, to: &childProperties, element: &childOwn)
            guard childOwn.isDisplayed else { return }
            childProperties.fillOpacity *= childOwn.opacity
            childProperties.strokeOpacity *= childOwn.opacity
            guard let href = childAttributes.value("href") ?? childAttributes.value("xlink:href") else {
                warn("<textPath> without href (not drawn)", at: child.offset)
                return
            }
            let id = String(href.value.trimmingWhiteSpace().dropFirst(href.value.trimmingWhiteSpace().hasPrefix("#") ? 1 : 0))
            guard let target = element(withId: id) else {
                warn(SVGError(.missingReference(id: id), at: location(href.offset)))
                return
            }
            let targetAttributes = declarations(of: target, allowed: SVGBuilder.shapeAttributes[target.name] ?? [])
            guard SVGBuilder.shapeAttributes[target.name] != nil, var path = silently({ geometry(of: target, targetAttributes.own) }) else {
                warn(SVGError(.wrongReferenceType(id: id, expected: "a path or basic shape", found: target.name), at: location(href.offset)))
                return
            }
            if let t = targetAttributes.transform, var m = try recovering({ () throws(SVGError) in try parseTransform(t) }) {
                path = path.copy(using: &m) ?? path
            }
            var side = false
            if let d = childAttributes.value("side") {
                switch d.value.trimmingWhiteSpace() {
                case "left": break
                case "right": side = true
                default: warn(invalid(d, "expected left or right"))
                }
            }
            if let d = childAttributes.value("method"), d.value.trimmingWhiteSpace() == "stretch" {
                warn("method=\"stretch\" on <textPath> is drawn as align (glyphs are not bent)", at: d.offset)
            }
            var measured = SVGTextPath(path, reversed: side)
            if let d = childAttributes.value("startOffset") {
                let v = d.value.trimmingWhiteSpace()
                if v.hasSuffix("%"), let percent = Double(v.dropLast()) {
                    measured.startOffset = measured.length * CGFloat(percent) / 100
                } else if let length = recoveringLength(d, axis: .horizontal) {
                    measured.startOffset = length
                }
            }
            let first = characters.count
            let index = textPaths.count
            textPaths.append(measured)
            try collect(child, childAttributes, childProperties, childOwn, parent: parent, preserve: preserve, depth: depth + 1)
            for i in first..<characters.count { characters[i].path = index }
        }

        /// Appends text with SVG 1.1's `xml:space` rules.
        func append(_ text: String, span: Int, preserve: Bool) {
            for scalar in text.unicodeScalars {
                var s = scalar
                if s == "\n" || s == "\r" {
                    if !preserve { continue }
                    s = " "
                }
                if s == "\t" { s = " " }
                if s == " " && !preserve {
                    // Collapsed into the space before it; none at the start.
                    guard let last = characters.last, last.scalar != " " || last.isPreserved else { continue }
                }
                characters.append(TextCharacter(scalar: s, span: span, isPreserved: preserve))
            }
        }

        try collect(e, attributes, properties, rootOwn, parent: nil, preserve: false, depth: 0)
        while let last = characters.last, last.scalar == " ", !last.isPreserved { characters.removeLast() }
        guard !characters.isEmpty else { return nil }

        // Vertical text (the text element's `writing-mode`): the pen runs down (or, sideways-lr,
        // up) the column. On a textPath the glyphs follow the path instead.
        var writingMode = properties.writingMode
        if writingMode != .horizontal, characters.contains(where: { $0.path != nil }) {
            warn("writing-mode on a <text> with a <textPath> is drawn horizontally", at: e.offset)
            writingMode = .horizontal
        }
        let vertical = writingMode != .horizontal
        let inlineSign: CGFloat = writingMode == .sidewaysBottomToTop ? -1 : 1
        /// The distance along the line (x, or y down a column, up a sideways-lr one).
        func inline(_ p: CGPoint) -> CGFloat { vertical ? p.y * inlineSign : p.x }
        func moveInline(_ p: inout CGPoint, by d: CGFloat) { if vertical { p.y += d * inlineSign } else { p.x += d } }

        // Outer elements first, so that inner ones override.
        for p in positions {
            let count = min(p.end, characters.count) - p.start
            guard count > 0 else { continue }
            for k in 0..<count {
                let i = p.start + k
                if k < p.x.count { characters[i].x = p.x[k] }
                if k < p.y.count { characters[i].y = p.y[k] }
                if k < p.dx.count { characters[i].dx = p.dx[k] }
                if k < p.dy.count { characters[i].dy = p.dy[k] }
                if let last = p.rotate.last { characters[i].rotate = k < p.rotate.count ? p.rotate[k] : last }
            }
        }

        // A textPath starts a chunk at the path's start (its x along the path, its y across it).
        for i in characters.indices where characters[i].path != nil && (i == 0 || characters[i - 1].path != characters[i].path) {
            if characters[i].x == nil { characters[i].x = 0 }
            if characters[i].y == nil { characters[i].y = 0 }
        }

        // Chunks, each shaped into clusters in visual order.
        var chunkRanges: [Range<Int>] = []
        var chunkStart = 0
        for i in characters.indices where i > 0 && (characters[i].x != nil || characters[i].y != nil) {
            chunkRanges.append(chunkStart..<i)
            chunkStart = i
        }
        chunkRanges.append(chunkStart..<characters.count)
        let paragraphRTL = properties.direction == .rightToLeft
        var clusters: [TextCluster] = []
        var chunks: [(range: Range<Int>, width: CGFloat)] = []      // ranges into clusters
        var pen = CGPoint.zero
        for range in chunkRanges {
            let first = clusters.count
            clusters += shapeChunk(range, characters: characters, spans: spans, open: bidiOpen, close: bidiClose,
                                   direction: properties.direction, writingMode: writingMode)
            let chunkClusters = first..<clusters.count
            // letter-spacing after every cluster but the last (except in cursive scripts),
            // word-spacing after word separators, as resvg.
            for k in chunkClusters {
                let c = characters[clusters[k].character]
                let span = spans[c.span]
                guard isDrawn(span) else { clusters[k].advance = 0; continue }
                if span.properties.letterSpacing != 0, k != chunkClusters.upperBound - 1, !SVGBuilder.isCursive(c.scalar) {
                    clusters[k].advance = max(0, clusters[k].advance + span.properties.letterSpacing)
                }
                if span.properties.wordSpacing != 0, SVGBuilder.isWordSeparator(c.scalar) {
                    clusters[k].advance += span.properties.wordSpacing
                }
            }
            let head = characters[range.lowerBound]
            if let x = head.x { pen.x = x }
            if let y = head.y { pen.y = y }
            let start = inline(pen)
            for k in chunkClusters {
                let c = characters[clusters[k].character]
                pen.x += c.dx ?? 0
                pen.y += c.dy ?? 0
                clusters[k].origin = pen
                clusters[k].chunk = chunks.count
                moveInline(&pen, by: clusters[k].advance)
            }
            chunks.append((chunkClusters, inline(pen) - start))
        }

        // textLength: an element's clusters stretched or squeezed to the length, by spacing
        // (the difference spread between the clusters) or, with spacingAndGlyphs, by scaling
        // the advances and the glyphs horizontally; the rest of its chunk moves with its end.
        for p in positions {
            guard let length = p.textLength else { continue }
            let inside = clusters.indices.filter { (p.start..<min(p.end, characters.count)).contains(clusters[$0].character) }
            guard let firstCluster = inside.first, let lastCluster = inside.last else { continue }
            let chunk = clusters[firstCluster].chunk
            guard inside.allSatisfy({ clusters[$0].chunk == chunk }) else {
                warn("textLength over several text chunks (absolute x or y inside) is ignored", at: p.offset)
                continue
            }
            let start = inline(clusters[firstCluster].origin)
            let natural = inline(clusters[lastCluster].origin) + clusters[lastCluster].advance - start
            let delta = length - natural
            guard delta != 0, natural > 0 else { continue }
            if p.scalesGlyphs {
                let factor = length / natural
                for i in firstCluster...lastCluster {
                    moveInline(&clusters[i].origin, by: (inline(clusters[i].origin) - start) * (factor - 1))
                    clusters[i].scale *= factor
                }
            } else if lastCluster > firstCluster {
                let step = delta / CGFloat(lastCluster - firstCluster)
                for (k, i) in (firstCluster...lastCluster).enumerated() {
                    moveInline(&clusters[i].origin, by: step * CGFloat(k))
                    if i < lastCluster { clusters[i].spacing += step }
                }
            } else {
                continue
            }
            for i in (lastCluster + 1)..<chunks[chunk].range.upperBound { moveInline(&clusters[i].origin, by: delta) }
            chunks[chunk].width += delta
        }
        for chunk in chunks where !chunk.range.isEmpty {
            let firstCharacter = clusters[chunk.range].map(\.character).min() ?? 0
            var anchor = spans[characters[firstCharacter].span].properties.textAnchor
            if paragraphRTL, !vertical { anchor = anchor == .start ? .end : anchor == .end ? .start : anchor }
            let shift: CGFloat
            switch anchor {
            case .start: shift = 0
            case .middle: shift = -chunk.width / 2
            case .end: shift = -chunk.width
            }
            if shift != 0 { for i in chunk.range { moveInline(&clusters[i].origin, by: shift) } }
        }

        // Outlines by span; decorations by declaring span.
        var spanPaths: [Int: CGMutablePath] = [:]
        var spanColorGlyphs: [Int: [(glyph: CGGlyph, font: CTFont, transform: CGAffineTransform)]] = [:]
        var spanOrder: [Int] = []
        var decorationPaths: [Int: (under: CGMutablePath, through: CGMutablePath)] = [:]
        for cluster in clusters {
            let c = characters[cluster.character]
            let span = spans[c.span]
            guard isDrawn(span) else { continue }
            // The cluster's frame: its origin on the span's baseline, its rotation, and on a
            // path the placement of its middle.
            var frame = CGAffineTransform.identity
            if let r = c.rotate, r != 0 { frame = CGAffineTransform(rotationAngle: r * .pi / 180) }
            if let k = c.path {
                let half = cluster.advance / 2
                guard let place = textPaths[k].place(at: textPaths[k].startOffset + cluster.origin.x + half) else { continue }
                frame = frame.concatenating(CGAffineTransform(translationX: -half, y: cluster.origin.y + span.baselineOffset))
                    .concatenating(CGAffineTransform(rotationAngle: place.angle))
                    .concatenating(CGAffineTransform(translationX: place.point.x, y: place.point.y))
            } else if vertical {
                // The column's centre line runs through the origin. An upright cluster hangs
                // from it as HarfBuzz placed it (its offsets are from the top of its box); a
                // turned one sits with its em box centred on the line; baseline shifts move
                // either toward the line's top side (right of a top-to-bottom column).
                // `dominant-baseline` is not used in vertical text (nor by resvg).
                let place = CGAffineTransform(translationX: cluster.origin.x, y: cluster.origin.y)
                if cluster.upright {
                    frame = frame.concatenating(CGAffineTransform(translationX: span.shiftUp, y: 0)).concatenating(place)
                } else {
                    frame = frame.concatenating(CGAffineTransform(translationX: 0, y: span.centralOffset - span.shiftUp))
                        .concatenating(CGAffineTransform(rotationAngle: inlineSign * .pi / 2)).concatenating(place)
                }
            } else {
                frame = frame.concatenating(CGAffineTransform(translationX: cluster.origin.x, y: cluster.origin.y + span.baselineOffset))
            }
            if spanPaths[c.span] == nil {
                spanPaths[c.span] = CGMutablePath()
                spanOrder.append(c.span)
            }
            for g in cluster.glyphs {
                // An upright cluster's inline axis is y: textLength's scale stretches it down.
                let (sx, sy) = cluster.upright ? (1, cluster.scale) : (cluster.scale, 1)
                var t = CGAffineTransform(scaleX: sx, y: -sy)
                if span.slant != 0 {
                    // Synthesized oblique: the outline sheared right about the baseline (y up in
                    // glyph space), then flipped.
                    t = CGAffineTransform(a: 1, b: 0, c: tan(span.slant * .pi / 180), d: 1, tx: 0, ty: 0).concatenating(t)
                }
                t = t.concatenating(CGAffineTransform(translationX: g.position.x * sx, y: -g.position.y * sy)).concatenating(frame)
                if g.font.face.isColorGlyph(g.glyph) {
                    spanColorGlyphs[c.span, default: []].append((g.glyph, g.font, t))
                } else if let outline = g.font.path(for: g.glyph, transform: t) {
                    spanPaths[c.span]!.addPath(outline)
                }
            }
            // In vertical text the lines run along the column, in a frame turned with it whose
            // baseline is the centre line: the underline half the font's height to the left
            // (below, turned), the overline as far to the right, the line-through on the
            // centre, as resvg draws them.
            var lineFrame = frame
            if vertical, c.path == nil {
                lineFrame = CGAffineTransform(translationX: 0, y: -span.shiftUp)
                    .concatenating(CGAffineTransform(rotationAngle: inlineSign * .pi / 2))
                    .concatenating(CGAffineTransform(translationX: cluster.origin.x, y: cluster.origin.y))
                if let r = c.rotate, r != 0 { lineFrame = CGAffineTransform(rotationAngle: r * .pi / 180).concatenating(lineFrame) }
            }
            for (lines, declaredBy) in span.decorations {
                let declaring = spans[declaredBy]
                let metrics = declaring.font.lineMetrics
                let paths = decorationPaths[declaredBy] ?? (CGMutablePath(), CGMutablePath())
                decorationPaths[declaredBy] = paths
                let piece = DecorationPiece(width: max(cluster.advance * cluster.scale + cluster.spacing, 0), phase: inline(cluster.origin), frame: lineFrame,
                                            style: declaring.decorationStyle)
                let half = (metrics.ascender - metrics.descender) / 2
                if lines.contains(.underline) {
                    let t = metrics.underlineThickness
                    piece.line(top: vertical ? -half + t / 2 : metrics.underlineOffset, thickness: t, away: -1, into: paths.under)
                }
                if lines.contains(.overline) {
                    let t = metrics.underlineThickness
                    piece.line(top: vertical ? half + t / 2 : metrics.ascender, thickness: t, away: 1, into: paths.under)
                }
                if lines.contains(.lineThrough) {
                    let t = metrics.strikeoutThickness
                    piece.line(top: vertical ? t / 2 : metrics.strikeoutOffset, thickness: t, away: -1, into: paths.through)
                }
            }
        }
        var runs: [TextRun] = []
        let decorated = decorationPaths.keys.sorted()
        /// A decoration's paint: the declaring element's fill and stroke (as resvg draws every
        /// line), or its `text-decoration-color` alone; non-zero, since a wavy line's outline
        /// overlaps itself.
        func decorationProperties(_ k: Int) -> SVGProperties {
            var p = spans[k].properties
            p.fillRule = .winding
            if let color = spans[k].decorationColor {
                p.fill = color
                p.fillOpacity = 1
                p.stroke = .none
            }
            return p
        }
        for k in decorated where !decorationPaths[k]!.under.isEmpty {
            runs.append(TextRun(path: decorationPaths[k]!.under, properties: decorationProperties(k)))
        }
        for k in spanOrder {
            runs.append(TextRun(path: spanPaths[k]!, properties: spans[k].properties, colorGlyphs: spanColorGlyphs[k] ?? []))
        }
        for k in decorated where !decorationPaths[k]!.through.isEmpty {
            runs.append(TextRun(path: decorationPaths[k]!.through, properties: decorationProperties(k)))
        }
        runs.removeAll { $0.path.isEmpty && $0.colorGlyphs.isEmpty }
        return runs.isEmpty ? nil : runs
    }

    /// A shaped cluster: glyphs that move together, with the character whose position
    /// attributes it takes.
    struct TextCluster {
        /// Its first character (the smallest index among those it covers).
        var character: Int
        var glyphs: [(glyph: CGGlyph, font: CTFont, position: CGPoint)] = []
        var advance: CGFloat = 0
        var origin = CGPoint.zero
        var scale: CGFloat = 1
        var chunk = 0
        /// Set upright in vertical text (shaped top to bottom: glyph positions run down, y up).
        var upright = false
        /// The space `textLength` (spacing) added after the cluster, which its decorations span
        /// as they span letter-spacing.
        var spacing: CGFloat = 0
    }

    /// One chunk's characters shaped: bidi levels (the `unicode-bidi` controls around spans
    /// inserted), runs of one level and one face (fallback faces for what a span's font lacks),
    /// each shaped in its direction, the runs in visual order, glyphs grouped into clusters.
    /// In vertical text, runs also split between upright characters (shaped top to bottom, with
    /// the font's vertical forms) and turned ones (shaped as horizontal text).
    func shapeChunk(_ range: Range<Int>, characters: [TextCharacter], spans: [TextSpan], open: [Int: [Unicode.Scalar]],
                    close: [Int: [Unicode.Scalar]], direction: TextDirection,
                    writingMode: SVGWritingMode = .horizontal) -> [TextCluster] {
        var scalars: [Unicode.Scalar] = []
        var owner: [Int] = []       // the character of each scalar, -1 for a control
        for i in range {
            if i != range.lowerBound { for s in close[i] ?? [] { scalars.append(s); owner.append(-1) } }
            for s in open[i] ?? [] { scalars.append(s); owner.append(-1) }
            scalars.append(characters[i].scalar)
            owner.append(i)
        }
        for s in close[range.upperBound] ?? [] { scalars.append(s); owner.append(-1) }
        // Levels of the chunk's characters (index i - range.lowerBound).
        var levels = [UInt8](repeating: direction == .rightToLeft ? 1 : 0, count: range.count)
        var hasBidi = false
        if let bidi = BidiResolution.levels(scalars, direction: direction) {
            hasBidi = true
            for (k, i) in owner.enumerated() where i >= 0 { levels[i - range.lowerBound] = bidi.levels[k] }
        } else if direction == .rightToLeft {
            hasBidi = true
        }
        // Runs: one level, one span font (size, features), one face.
        struct Run { var level: UInt8; var span: Int; var face: TrueTypeFont; var characters: [Int]; var upright = false }
        var runs: [Run] = []
        var fallbackFaces: [UInt32: TrueTypeFont] = [:]
        for i in range {
            let c = characters[i]
            let span = spans[c.span]
            var face = span.font.face
            let category = c.scalar.properties.generalCategory
            // A space after an emoji goes back to the span's font (a colour font's space is as
            // wide as its emoji, 1.25 em in Noto Color Emoji; browsers take the first font
            // that has the character).
            let spaceStays = c.scalar == " " && !(runs.last?.face.hasColorGlyphs ?? false)
            let attaches = category == .nonspacingMark || category == .enclosingMark || category == .spacingMark
                || category == .format || c.scalar.properties.isVariationSelector || spaceStays
            var upright = false
            // Marks, joiners, variation selectors and spaces stay in their neighbour's face
            // (and, but for spaces, stand as it does).
            if attaches, let last = runs.last, last.span == c.span {
                face = last.face
                if c.scalar != " " { upright = last.upright }
            } else if face.glyph(for: c.scalar) == 0, c.scalar.value >= 0x20 {
                if let f = fallbackFaces[c.scalar.value] {
                    face = f
                } else {
                    let f = fontSource.fallbackFace(for: c.scalar, weight: face.weight, italic: face.isItalic) ?? face
                    fallbackFaces[c.scalar.value] = f
                    face = f
                }
            }
            // Upright in vertical text: by the span's text-orientation, and for mixed by the
            // character's Vertical_Orientation (Tr characters upright where the face has a
            // vertical form for them, as browsers set brackets).
            if writingMode == .vertical, !(attaches && runs.last?.span == c.span) {
                switch span.properties.textOrientation {
                case .upright: upright = true
                case .sideways: upright = false
                case .mixed:
                    switch c.scalar.verticalOrientation {
                    case .upright, .transformedOrUpright: upright = true
                    case .transformedOrRotated: upright = CTFont(face: face, size: 16).hasVerticalForm(c.scalar)
                    case .rotated: upright = false
                    }
                }
            }
            let level = levels[i - range.lowerBound]
            if let last = runs.last, last.level == level, last.face === face, last.upright == upright,
               spans[last.span].font.size == span.font.size, spans[last.span].features == span.features,
               last.characters.last == i - 1 {
                runs[runs.count - 1].characters.append(i)
            } else {
                runs.append(Run(level: level, span: c.span, face: face, characters: [i], upright: upright))
            }
        }
        let order = hasBidi ? BidiResolution.visualOrder(runs.map(\.level)) : Array(runs.indices)
        var clusters: [TextCluster] = []
        for index in order {
            let run = runs[index]
            let span = spans[run.span]
            let font = run.face === span.font.face ? span.font : CTFont(face: run.face, size: span.font.size)
            let scalars = run.characters.map { characters[$0].scalar }
            let glyphs = run.upright ? font.shapedGlyphsVertically(scalars, features: span.features)
                : font.shapedGlyphs(scalars, features: span.features, direction: run.level & 1 == 1 ? .rightToLeft : .leftToRight)
            var previous = -1
            for g in glyphs {
                if g.cluster != previous || clusters.isEmpty {
                    clusters.append(TextCluster(character: run.characters[g.cluster], upright: run.upright))
                    previous = g.cluster
                }
                let k = clusters.count - 1
                let position = run.upright ? CGPoint(x: g.offset.x, y: g.offset.y - clusters[k].advance)
                    : CGPoint(x: clusters[k].advance + g.offset.x, y: g.offset.y)
                clusters[k].glyphs.append((g.glyph, font, position))
                clusters[k].advance += g.advance
            }
        }
        return clusters
    }

    /// Scripts where letter-spacing would break the joins (CSS Text 3 §8.2 cursive scripts, as
    /// resvg lists them): Arabic, Syriac, N'Ko, Mandaic, Mongolian, Phags-pa, Ogham, Devanagari,
    /// Bengali, Gurmukhi and their extensions.
    static func isCursive(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0600...0x06FF, 0x0700...0x074F, 0x0750...0x077F, 0x07C0...0x07FF, 0x0840...0x085F, 0x0860...0x08FF,
             0x0900...0x0A7F, 0x1680...0x169F, 0x1800...0x18AF, 0xA840...0xA87F, 0xA8E0...0xA8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF:
            return true
        default:
            return false
        }
    }

    /// CSS Text 3's word-separator characters (word-spacing applies after them).
    static func isWordSeparator(_ s: Unicode.Scalar) -> Bool {
        [0x0020, 0x00A0, 0x1361, 0x10100, 0x10101, 0x1039F, 0x1091F].contains(s.value)
    }

    /// A list of lengths (`x="10 20 30"`); an invalid entry ends the list (with a warning).
    func lengthList(_ d: SVGDeclaration, axis: Axis) -> [CGFloat] {
        var result: [CGFloat] = []
        for (part, offset) in listItems(d) {
            do throws(SVGError) {
                result.append(try length(SVGDeclaration(name: d.name, value: part, offset: offset), axis: axis))
            } catch {
                warn(error)
                break
            }
        }
        return result
    }

    /// A list of numbers (`rotate`); an invalid entry ends the list (with a warning).
    func numberList(_ d: SVGDeclaration) -> [CGFloat] {
        var result: [CGFloat] = []
        for (part, offset) in listItems(d) {
            do throws(SVGError) {
                result.append(try number(SVGDeclaration(name: d.name, value: part, offset: offset)))
            } catch {
                warn(error)
                break
            }
        }
        return result
    }

    /// The items of a list separated by white space and/or commas, with their offsets.
    private func listItems(_ d: SVGDeclaration) -> [(Substring, Int)] {
        var items: [(Substring, Int)] = []
        var start: Substring.Index?
        var i = d.value.startIndex
        func close(_ end: Substring.Index) {
            if let s = start { items.append((d.value[s..<end], d.offset + d.value.utf8.distance(from: d.value.startIndex, to: s))) }
            start = nil
        }
        while i < d.value.endIndex {
            let c = d.value[i]
            if c == "," || c.isWhitespace { close(i) } else if start == nil { start = i }
            i = d.value.index(after: i)
        }
        close(d.value.endIndex)
        return items
    }

    /// All the character data inside `e`, in document order (for `tref`).
    static func characterData(of e: XMLElement) -> String {
        guard !e.textRuns.isEmpty else { return e.text + e.children.map { characterData(of: $0) }.joined() }
        var out = ""
        var runs = e.textRuns[...]
        for k in 0...e.children.count {
            while let run = runs.first, run.childIndex == k {
                runs.removeFirst()
                out += run.text
            }
            if k < e.children.count { out += characterData(of: e.children[k]) }
        }
        return out
    }
}
