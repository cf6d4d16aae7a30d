import CrispGraphics
import Foundation

// `text` and `tspan` (and `a` inside text) laid out with the bundled face, as SVG 1.1 §10 and
// SVG 2's text chunks describe, without complex shaping (one glyph per Unicode scalar, GPOS pair
// kerning, no ligatures or bidi):
//
// 1. The characters: the character data of the text element and its descendants in document
//    order, each tagged with the span (element) it belongs to. White space follows `xml:space`:
//    by default newlines are removed, tabs become spaces, spaces collapse — also across span
//    boundaries — and the leading and trailing ones go; `preserve` turns newlines and tabs into
//    spaces and keeps them all.
// 2. Positions: an `x`, `y`, `dx`, `dy` or `rotate` list on an element gives its n-th character
//    the n-th value; the innermost element with a value for a character wins. (`rotate`'s last
//    value also applies to the element's characters beyond the list.)
// 3. Layout: the pen starts at (0, 0); an absolute x or y moves it there and starts a new text
//    chunk; dx/dy shift it; each glyph advances it by its advance plus `letter-spacing` (and
//    `word-spacing` after a space), with pair kerning between neighbours in one chunk and face.
//    Each chunk then moves by its width (`text-anchor` middle: half, end: all), the anchor
//    being that of the chunk's first character.
// 4. Geometry: each run of characters of one span becomes one shape whose path is its glyph
//    outlines, with the span's fill, stroke and their properties; the whole text element is
//    one group, so transforms, clip-path, mask, opacity and filters apply as to any group. An
//    objectBoundingBox paint uses the text element's box (the union of its glyph outlines).
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
    }

    /// A `text` element as a group of shapes; nil when it draws nothing.
    func buildText(_ e: XMLElement, inherited: SVGProperties, depth: Int) throws(SVGError) -> SVGRenderNode? {
        let attributes = declarations(of: e, allowed: SVGBuilder.textAttributes)
        var properties = inherited
        var own = SVGElementProperties()
        apply(attributes.presentation, to: &properties, element: &own)
        guard own.isDisplayed, let runs = try layOutText(e, attributes: attributes, properties: properties) else { return nil }
        var box = CGRect.null
        for run in runs { box = box.including(run.path.boundingBoxOfPath) }
        var children: [SVGRenderNode] = []
        for run in runs {
            let shape = try makeShape(run.path, properties: run.properties, boundingBox: box, isLine: false, depth: depth)
            children.append(SVGRenderNode(content: .shape(shape), transform: .identity))
        }
        let node = SVGRenderNode(content: .group(children), transform: try transform(of: attributes, own))
        try finish(node, element: e, own: own, depth: depth)
        return node
    }

    /// The glyph outlines of a text element by span run (nil when there are none, or the
    /// bundled font cannot be read: then unsupported).
    func layOutText(_ e: XMLElement, attributes: ElementDeclarations, properties: SVGProperties) throws(SVGError) -> [TextRun]? {
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
        // A size of 0 (CTFont would take it as 12) or beyond any float draws nothing.
        func font(_ p: SVGProperties) -> CTFont {
            // The first family of the list the font source has, at the nearest weight (the
            // bundled Roboto: regular up to 500, bold above); else the default family.
            CTFont(face: fontSource.match(families: p.fontFamilies, weight: p.fontWeight).face.instance(variations: p.fontVariations),
                   size: p.fontSize > 0 && p.fontSize.isFinite ? p.fontSize : 1)
        }
        func isDrawn(_ span: TextSpan) -> Bool { span.properties.fontSize > 0 && span.properties.fontSize.isFinite }

        /// Collects `element`'s characters (recursively) as span `spans.count`.
        func collect(_ element: XMLElement, _ attributes: ElementDeclarations, _ properties: SVGProperties, preserve: Bool,
                     depth: Int) throws(SVGError) {
            guard depth <= SVGBuilder.maximumBuildDepth else {
                throw SVGError(.limitExceeded("elements nested more than \(SVGBuilder.maximumBuildDepth) deep"), at: location(element.offset))
            }
            let span = spans.count
            spans.append(TextSpan(properties: properties, font: font(properties)))
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
                    let space = child.attribute("xml:space")?.value
                    try collect(child, childAttributes, childProperties, preserve: space.map { $0 == "preserve" } ?? preserve, depth: depth + 1)
                case "title", "desc", "metadata":
                    continue
                case "textPath":
                    try collectTextPath(child, properties, preserve: preserve, depth: depth)
                case "tref":
                    try collectTref(child, properties, preserve: preserve, depth: depth)
                default:
                    warn("<\(child.name)> inside <\(element.name)> (not allowed there; ignored)", at: child.offset)
                }
            }
            positions[positionIndex].end = characters.count
        }

        /// A `tref` (SVG 1.1; removed from SVG 2, drawn by resvg and browsers of its time): a
        /// span, with its own positions and presentation attributes, whose characters are all
        /// the character data of the element it references (descendants included), white space
        /// handled where the tref is. A missing reference draws nothing (a warning).
        func collectTref(_ child: XMLElement, _ properties: SVGProperties, preserve: Bool, depth: Int) throws(SVGError) {
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
            let space = child.attribute("xml:space")?.value
            try collect(span, childAttributes, childProperties, preserve: space.map { $0 == "preserve" } ?? preserve, depth: depth + 1)
        }

        /// A `textPath`: its characters as a span set on the path it names (a `path` or a basic
        /// shape, through the element's own transform), from `startOffset`; `side="right"`
        /// walks the path backwards. A textPath without a usable path draws nothing (a warning).
        var textPaths: [SVGTextPath] = []
        func collectTextPath(_ child: XMLElement, _ properties: SVGProperties, preserve: Bool, depth: Int) throws(SVGError) {
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
            let space = child.attribute("xml:space")?.value
            try collect(child, childAttributes, childProperties, preserve: space.map { $0 == "preserve" } ?? preserve, depth: depth + 1)
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

        let space = e.attribute("xml:space")?.value
        try collect(e, attributes, properties, preserve: space == "preserve", depth: 0)
        while let last = characters.last, last.scalar == " ", !last.isPreserved { characters.removeLast() }
        guard !characters.isEmpty else { return nil }

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

        // Pen positions and chunks.
        var origins: [CGPoint] = []
        var glyphs: [CGGlyph] = []
        origins.reserveCapacity(characters.count)
        var pen = CGPoint.zero
        var chunkStart = 0
        var chunks: [(range: Range<Int>, width: CGFloat, startX: CGFloat)] = []
        var chunkStartX: CGFloat = 0
        var advances: [CGFloat] = []
        var chunkOf: [Int] = []
        for (i, c) in characters.enumerated() {
            let span = spans[c.span]
            let glyph = span.font.face.glyph(for: c.scalar)
            if i > 0 && (c.x != nil || c.y != nil) {
                chunks.append((chunkStart..<i, pen.x - chunkStartX, chunkStartX))
                chunkStart = i
            }
            if let x = c.x { pen.x = x }
            if let y = c.y { pen.y = y }
            if i == chunkStart {
                chunkStartX = pen.x
            } else if isDrawn(span), spans[characters[i - 1].span].font.face === span.font.face,
                      spans[characters[i - 1].span].font.size == span.font.size {
                pen.x += span.font.kerning(between: glyphs[i - 1], and: glyph)
            }
            pen.x += c.dx ?? 0
            pen.y += c.dy ?? 0
            origins.append(pen)
            glyphs.append(glyph)
            chunkOf.append(chunks.count)
            guard isDrawn(span) else { advances.append(0); continue }
            let advance = span.font.advance(for: glyph) + span.properties.letterSpacing + (c.scalar == " " ? span.properties.wordSpacing : 0)
            advances.append(advance)
            pen.x += advance
        }
        chunks.append((chunkStart..<characters.count, pen.x - chunkStartX, chunkStartX))
        // textLength: an element's characters stretched or squeezed to the length, by spacing
        // (the difference spread between the characters) or, with spacingAndGlyphs, by scaling
        // the advances and the glyphs horizontally; the rest of its chunk moves with its end.
        var glyphScale = [CGFloat](repeating: 1, count: characters.count)
        for p in positions {
            guard let length = p.textLength, p.start < min(p.end, characters.count) else { continue }
            let range = p.start..<min(p.end, characters.count)
            let chunk = chunkOf[range.lowerBound]
            guard chunkOf[range.upperBound - 1] == chunk else {
                warn("textLength over several text chunks (absolute x or y inside) is ignored", at: p.offset)
                continue
            }
            let startX = origins[range.lowerBound].x
            let natural = origins[range.upperBound - 1].x + advances[range.upperBound - 1] - startX
            let delta = length - natural
            guard delta != 0, natural > 0 else { continue }
            if p.scalesGlyphs {
                let factor = length / natural
                for i in range {
                    origins[i].x = startX + (origins[i].x - startX) * factor
                    glyphScale[i] *= factor
                }
            } else if range.count > 1 {
                let step = delta / CGFloat(range.count - 1)
                for (k, i) in range.enumerated() { origins[i].x += step * CGFloat(k) }
            } else {
                continue
            }
            for i in range.upperBound..<chunks[chunk].range.upperBound { origins[i].x += delta }
            chunks[chunk].width += delta
        }
        for chunk in chunks {
            let shift: CGFloat
            switch spans[characters[chunk.range.lowerBound].span].properties.textAnchor {
            case .start: shift = 0
            case .middle: shift = -chunk.width / 2
            case .end: shift = -chunk.width
            }
            if shift != 0 { for i in chunk.range { origins[i].x += shift } }
        }

        // Outlines by span run.
        var runs: [TextRun] = []
        var current = -1
        for (i, c) in characters.enumerated() {
            if c.span != current {
                runs.append(TextRun(path: CGMutablePath(), properties: spans[c.span].properties))
                current = c.span
            }
            var t = CGAffineTransform(scaleX: glyphScale[i], y: -1)
            let slant = spans[c.span].properties.fontSlant
            if slant != 0 {
                // Synthesized oblique: the outline sheared right about the baseline (y up in
                // glyph space), then flipped.
                t = CGAffineTransform(a: 1, b: 0, c: tan(slant * .pi / 180), d: 1, tx: 0, ty: 0).concatenating(t)
            }
            if let r = c.rotate, r != 0 { t = t.concatenating(CGAffineTransform(rotationAngle: r * .pi / 180)) }
            if let k = c.path {
                // On a path: the glyph's middle (half its advance) at its distance along the
                // path, turned to the path's direction there, its y across it; a glyph whose
                // middle is off the path is not drawn.
                let half = advances[i] / 2
                guard let place = textPaths[k].place(at: textPaths[k].startOffset + origins[i].x + half) else { continue }
                t = t.concatenating(CGAffineTransform(translationX: -half, y: origins[i].y))
                    .concatenating(CGAffineTransform(rotationAngle: place.angle))
                    .concatenating(CGAffineTransform(translationX: place.point.x, y: place.point.y))
            } else {
                t = t.concatenating(CGAffineTransform(translationX: origins[i].x, y: origins[i].y))
            }
            if isDrawn(spans[c.span]), let outline = spans[c.span].font.path(for: glyphs[i], transform: t) {
                runs[runs.count - 1].path.addPath(outline)
            }
        }
        runs.removeAll { $0.path.isEmpty }
        return runs.isEmpty ? nil : runs
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
