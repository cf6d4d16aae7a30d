import CrispGraphics
import Foundation

// Following references: paint servers (`fill="url(#g)"`) and clip paths (`clip-path="url(#c)"`).
//
// A clip path becomes an SVGClip: its children's shapes mapped into the clipped element's user
// space (the child's own transform, then the bounding-box mapping for
// clipPathUnits="objectBoundingBox", then the clipPath's `transform` — the order resvg and the
// browsers use), each with its own `clip-path` if it has one, and the clipPath's own
// `clip-path` to intersect with. The union of several children is drawn through a mask.
//
// Broken references follow SVG 2: a paint server that is missing, of the wrong kind or part of
// a reference cycle paints the fallback colour given after the url(), else nothing; a gradient
// `href` that cannot be followed is as if absent; invalid attribute values are as if absent.
// Each is a warning with its place.

extension SVGBuilder {
    // MARK: Paint

    /// Resolves a fill or stroke to what gets drawn; nil for no paint.
    ///
    /// `boundingBox` is the shape's object bounding box, `coverBox` a box around everything the
    /// paint covers (larger than `boundingBox` for strokes), both in user space.
    func resolvePaint(_ spec: SVGPaintSpec, opacity: Double, color: SVGColor, boundingBox: CGRect,
                      coverBox: CGRect, depth: Int) throws(SVGError) -> SVGPaintInstance? {
        switch spec {
        case .none:
            return nil
        case .color(let c):
            return SVGPaintInstance(paint: .color(c), opacity: opacity)
        case .currentColor:
            return SVGPaintInstance(paint: .color(color), opacity: opacity)
        case .contextFill, .contextStroke:
            return nil   // (made concrete by the caller: SVGProperties.concrete)
        case .reference(let id, let fallback, let offset):
            /// The fallback after a warning about why the reference cannot be used.
            func fallingBack(_ error: SVGError) throws(SVGError) -> SVGPaintInstance? {
                warn(error)
                guard let fallback else { return nil }
                return try resolvePaint(fallback, opacity: opacity, color: color, boundingBox: boundingBox, coverBox: coverBox, depth: depth)
            }
            guard let target = element(withId: id) else { return try fallingBack(SVGError(.missingReference(id: id), at: location(offset))) }
            switch target.name {
            case "linearGradient", "radialGradient":
                let g = gradient(id, at: offset)
                if g.stops.isEmpty { return nil }
                if g.stops.count == 1 { return SVGPaintInstance(paint: .color(g.stops[0].color), opacity: opacity) }
                if g.units == .objectBoundingBox && (boundingBox.isNull || boundingBox.width <= 0 || boundingBox.height <= 0) {
                    // SVG: an objectBoundingBox gradient on a shape without area paints nothing.
                    return nil
                }
                guard let paint = SVGGradientPlan.paint(for: g, boundingBox: boundingBox, coverBox: coverBox) else { return nil }
                return SVGPaintInstance(paint: paint, opacity: opacity)
            case "pattern":
                if isResolving(id) { return try fallingBack(SVGError(.recursiveReference(id: id), at: location(offset))) }
                guard let p = try pattern(id, at: offset, boundingBox: boundingBox, depth: depth) else { return nil }
                return SVGPaintInstance(paint: .pattern(p), opacity: opacity)
            default:
                return try fallingBack(SVGError(.wrongReferenceType(id: id, expected: "a paint server (gradient or pattern)", found: target.name),
                                            at: location(offset)))
            }
        }
    }

    /// A gradient's own attributes: those of both kinds, since a linear and a radial gradient
    /// inherit from each other through `href`.
    static let gradientAttributes: Set<String> = ["x1", "y1", "x2", "y2", "cx", "cy", "r", "fx", "fy", "fr", "gradientUnits",
                                                  "gradientTransform", "spreadMethod", "href", "xlink:href"]
    static let stopAttributes: Set<String> = ["offset"]

    /// The gradient `id`, with `href` inheritance resolved (cached).
    func gradient(_ id: String, at offset: Int) -> SVGGradient {
        if let g = cachedGradient(id) { return g }
        // The chain of gradients this one inherits from, nearest first (linear and radial
        // gradients inherit from each other: the attributes both kinds have, and the stops). An
        // href that cannot be followed ends the chain, as if it were absent.
        let chain = hrefChain(from: element(withId: id)!, kinds: ["linearGradient", "radialGradient"], expected: "a gradient")
        let first = chain[0]
        let own = chain.map { e in declarations(of: e, allowed: SVGBuilder.gradientAttributes) }
        func attribute(_ name: String) -> SVGDeclaration? {
            for d in own { if let v = d.value(name) { return v } }
            return nil
        }
        /// The value of `name` by `parse`; nil when absent, or invalid (with a warning).
        func parsed<T>(_ name: String, _ parse: (SVGDeclaration) throws(SVGError) -> T) -> T? {
            guard let d = attribute(name) else { return nil }
            do {
                return try parse(d)
            } catch {
                warn(error)
                return nil
            }
        }
        let units = parsed("gradientUnits") { d throws(SVGError) -> SVGGradient.Units in
            switch d.value.trimmingWhiteSpace() {
            case "userSpaceOnUse": return .userSpaceOnUse
            case "objectBoundingBox": return .objectBoundingBox
            default: throw invalid(d, "expected userSpaceOnUse or objectBoundingBox")
            }
        } ?? .objectBoundingBox
        let spread = parsed("spreadMethod") { d throws(SVGError) -> SVGGradient.Spread in
            switch d.value.trimmingWhiteSpace() {
            case "pad": return .pad
            case "reflect": return .reflect
            case "repeat": return .repeating
            default: throw invalid(d, "expected pad, reflect or repeat")
            }
        } ?? .pad
        let transform = parsed("gradientTransform") { d throws(SVGError) in try parseTransform(d) } ?? .identity
        func coordinate(_ name: String, _ axis: Axis, default fallback: CGFloat, nonNegative: Bool = false) -> CGFloat {
            parsed(name) { d throws(SVGError) -> CGFloat in
                var v: CGFloat
                if units == .objectBoundingBox {
                    var scanner = SVGValueScanner(String(d.value))
                    scanner.skipWhiteSpace()
                    guard let n = scanner.number() else { throw invalid(d, "expected a number or percentage") }
                    v = CGFloat(n)
                    if scanner.consume(UInt8(ascii: "%")) { v /= 100 }
                    scanner.skipWhiteSpace()
                    guard scanner.isAtEnd else { throw invalid(d, "expected a number or percentage") }
                } else {
                    v = try length(d, axis: axis)
                }
                if nonNegative && v < 0 { throw invalid(d, "must not be negative") }
                return v
            } ?? fallback
        }
        // Percent defaults: fractions of the bounding box, or of the viewport in user space.
        let w: CGFloat = units == .objectBoundingBox ? 1 : viewport.width
        let h: CGFloat = units == .objectBoundingBox ? 1 : viewport.height
        let diagonal: CGFloat = units == .objectBoundingBox ? 1 : ((w * w + h * h) / 2).squareRoot()
        let kind: SVGGradient.Kind
        if first.name == "linearGradient" {
            kind = .linear(x1: coordinate("x1", .horizontal, default: 0), y1: coordinate("y1", .vertical, default: 0),
                           x2: coordinate("x2", .horizontal, default: w), y2: coordinate("y2", .vertical, default: 0))
        } else {
            let cx = coordinate("cx", .horizontal, default: w / 2), cy = coordinate("cy", .vertical, default: h / 2)
            let r = coordinate("r", .diagonal, default: diagonal / 2, nonNegative: true)
            let fr = coordinate("fr", .diagonal, default: 0, nonNegative: true)
            kind = .radial(cx: cx, cy: cy, r: r, fx: coordinate("fx", .horizontal, default: cx),
                           fy: coordinate("fy", .vertical, default: cy), fr: fr)
        }
        // Stops come from the nearest gradient in the chain that has any.
        var stops: [SVGGradient.Stop] = []
        if let holder = chain.first(where: { $0.children.contains { $0.name == "stop" } }) {
            for child in holder.children {
                guard child.name == "stop" else {
                    warn("<\(child.name)> inside a gradient (ignored)", at: child.offset)
                    continue
                }
                let attributes = declarations(of: child, allowed: SVGBuilder.stopAttributes)
                // currentColor is the stop's own `color`, inherited from where it is written.
                var properties = inheritedProperties(of: child)
                var element = SVGElementProperties()
                apply(attributes.presentation, to: &properties, element: &element)
                var offset: CGFloat = 0
                if let d = attributes.value("offset") {
                    do { offset = CGFloat(try opacity(d)) } catch { warn(error) }
                }
                offset = max(offset, stops.last?.offset ?? 0)
                var color = element.stopColorIsCurrent ? properties.color : element.stopColor
                color.alpha *= element.stopOpacity
                stops.append(SVGGradient.Stop(offset: offset, color: color))
            }
        }
        let g = SVGGradient(kind: kind, units: units, transform: transform, spread: spread, stops: stops, id: id)
        cacheGradient(g)
        return g
    }

    /// `first` and the elements its `href` chain leads to, nearest first, each one of `kinds`.
    /// An href that cannot be followed (not `#id`, missing, of another kind, or back into the
    /// chain) ends the chain, as if it were absent, with a warning.
    func hrefChain(from first: XMLElement, kinds: Set<String>, expected: String) -> [XMLElement] {
        var chain = [first]
        while let href = chain.last!.attribute("href") ?? chain.last!.attribute("xlink:href") {
            let at = location(href.valueOffset)
            guard href.value.hasPrefix("#"), href.value.count > 1 else {
                warn(SVGError(.invalidValue(attribute: href.name, value: href.value, reason: "expected #id"), at: at))
                break
            }
            let next = String(href.value.dropFirst())
            guard let e = element(withId: next) else {
                warn(SVGError(.missingReference(id: next), at: at))
                break
            }
            guard kinds.contains(e.name) else {
                warn(SVGError(.wrongReferenceType(id: next, expected: expected, found: e.name), at: at))
                break
            }
            guard !chain.contains(where: { $0 === e }) else {
                warn(SVGError(.recursiveReference(id: next), at: at))
                break
            }
            chain.append(e)
        }
        return chain
    }

    /// A `…Units` attribute: true for objectBoundingBox, false for userSpaceOnUse, `fallback`
    /// when absent or invalid (with a warning).
    func isObjectBoundingBox(_ d: SVGDeclaration?, default fallback: Bool) -> Bool {
        guard let d else { return fallback }
        switch d.value.trimmingWhiteSpace() {
        case "objectBoundingBox": return true
        case "userSpaceOnUse": return false
        default:
            warn(invalid(d, "expected userSpaceOnUse or objectBoundingBox"))
            return fallback
        }
    }

    /// The element `id` names when it is a `kind`; nil with a warning (missing, or of another
    /// kind) otherwise, and the reference is then as if absent.
    func referencedElement(_ id: String, at offset: Int, kind: String) -> XMLElement? {
        guard let e = element(withId: id) else {
            warn(SVGError(.missingReference(id: id), at: location(offset)))
            return nil
        }
        guard e.name == kind else {
            warn(SVGError(.wrongReferenceType(id: id, expected: "a <\(kind)>", found: e.name), at: location(offset)))
            return nil
        }
        return e
    }

    // MARK: Clip paths

    /// The clip path `id` in `node`'s user space; nil (with a warning) when the reference is
    /// missing, not to a clipPath or leads back to itself: the `clip-path` is then as if absent.
    func clip(_ id: String, at offset: Int, for node: SVGRenderNode) throws(SVGError) -> SVGClip? {
        guard let clip = referencedElement(id, at: offset, kind: "clipPath") else { return nil }
        guard resolvingDepth < SVGBuilder.maximumClipNesting else {
            throw SVGError(.limitExceeded("clip paths nested more than \(SVGBuilder.maximumClipNesting) deep"), at: location(offset))
        }
        return try recovering { () throws(SVGError) in try resolvingReference(id, at: offset) { () throws(SVGError) -> SVGClip in
            let attributes = declarations(of: clip, allowed: ["clipPathUnits"])
            var properties = SVGProperties()
            var own = SVGElementProperties()
            apply(attributes.presentation, to: &properties, element: &own)
            var placement = try transform(of: attributes)
            if let d = attributes.value("clipPathUnits") {
                switch d.value.trimmingWhiteSpace() {
                case "userSpaceOnUse": break
                case "objectBoundingBox":
                    let box = node.boundingBox
                    guard !box.isNull, box.width > 0, box.height > 0 else { return .nothing }
                    placement = CGAffineTransform(a: box.width, b: 0, c: 0, d: box.height, tx: box.minX, ty: box.minY)
                        .concatenating(placement)
                default: warn(invalid(d, "expected userSpaceOnUse or objectBoundingBox"))
                }
            }
            var shapes: [SVGClipShape] = []
            for child in clip.children {
                for shape in try clipShapes(of: child, inherited: properties, throughUse: false) {
                    shapes.append(SVGClip(shapes: [shape]).transformed(by: placement).shapes[0])
                }
            }
            var result = SVGClip(shapes: shapes)
            if let nested = own.clipPath, let inner = try self.clip(nested.id, at: nested.offset, for: node) {
                result.intersected = [inner]
            }
            return result
        } }
    }
    static let clipShapeNames: Set<String> = ["path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text"]

    /// What one child of a `<clipPath>` adds to the union, in the clipPath's content space (the
    /// child's own transform applied): a shape, a text's glyph runs, or the shape or text a `use`
    /// references directly (SVG: "use elements must directly reference shape or text elements";
    /// through the use's cascade, x/y, transform and clip-path). Anything else adds nothing.
    func clipShapes(of child: XMLElement, inherited properties: SVGProperties, throughUse: Bool) throws(SVGError) -> [SVGClipShape] {
        switch child.name {
        case "path", "rect", "circle", "ellipse", "line", "polyline", "polygon":
            let childAttributes = declarations(of: child, allowed: SVGBuilder.shapeAttributes[child.name] ?? [])
            var childProperties = properties
            var childOwn = SVGElementProperties()
            apply(childAttributes.presentation, to: &childProperties, element: &childOwn)
            guard childOwn.isDisplayed, childProperties.isVisible else { return [] }
            let t = try transform(of: childAttributes)
            // Children without geometry clip nothing in: they add nothing to the union.
            guard let path = geometry(of: child, childAttributes.own) else { return [] }
            var shape = SVGClipShape(path: path, rule: childProperties.clipRule)
            if let nested = childOwn.clipPath {
                // The child's own clip-path, in the child's user space (its bounding box for
                // objectBoundingBox units), then placed with the child.
                shape.clip = try self.clip(nested.id, at: nested.offset, for: clipBoxNode(path)).map { [$0] } ?? []
            }
            return [SVGClip(shapes: [shape]).transformed(by: t).shapes[0]]
        case "text":
            // Glyph outlines clip like shapes, each span with its clip-rule.
            let childAttributes = declarations(of: child, allowed: SVGBuilder.textAttributes)
            var childProperties = properties
            var childOwn = SVGElementProperties()
            apply(childAttributes.presentation, to: &childProperties, element: &childOwn)
            guard childOwn.isDisplayed, let runs = try layOutText(child, attributes: childAttributes, properties: childProperties, own: childOwn)
            else { return [] }
            let t = try transform(of: childAttributes, childOwn)
            return runs.filter(\.properties.isVisible).map { run in
                // Colour glyphs clip by their outlines, as plain glyphs do.
                let path = run.path
                for g in run.colorGlyphs {
                    if let outline = g.font.path(for: g.glyph, transform: g.transform) { path.addPath(outline) }
                }
                return SVGClip(shapes: [SVGClipShape(path: path, rule: run.properties.clipRule)]).transformed(by: t).shapes[0]
            }
        case "use" where !throughUse:
            let useAttributes = declarations(of: child, allowed: SVGBuilder.useAttributes)
            var useProperties = properties
            var useOwn = SVGElementProperties()
            apply(useAttributes.presentation, to: &useProperties, element: &useOwn)
            guard useOwn.isDisplayed, let href = child.attribute("href") ?? child.attribute("xlink:href") else { return [] }
            guard href.value.hasPrefix("#"), href.value.count > 1 else {
                warn(SVGError(.invalidValue(attribute: href.name, value: href.value, reason: "expected #id (only references within the document)"),
                              at: location(href.valueOffset)))
                return []
            }
            let id = String(href.value.dropFirst())
            guard let target = element(withId: id) else {
                warn(SVGError(.missingReference(id: id), at: location(href.valueOffset)))
                return []
            }
            guard SVGBuilder.clipShapeNames.contains(target.name) else {
                warn(SVGError(.wrongReferenceType(id: id, expected: "a shape or <text> (a <use> inside <clipPath> references one directly; not drawn)",
                                                  found: target.name), at: location(href.valueOffset)))
                return []
            }
            let x = recoveringLength(useAttributes.value("x"), axis: .horizontal) ?? 0
            let y = recoveringLength(useAttributes.value("y"), axis: .vertical) ?? 0
            var inner = try clipShapes(of: target, inherited: useProperties, throughUse: true)
            if let nested = useOwn.clipPath, !inner.isEmpty {
                // The use's own clip-path, in the space of the group the use stands for: its
                // transform then translate(x, y), as SVG 1.1 expands it (and resvg draws), on the
                // box of what it references.
                let box = inner.reduce(CGRect.null) { $0.union($1.path.boundingBoxOfPath) }
                if let useClip = try self.clip(nested.id, at: nested.offset, for: clipBoxNode(CGPath(rect: box, transform: nil))) {
                    for i in inner.indices { inner[i].clip.append(useClip) }
                }
            }
            let t = CGAffineTransform(translationX: x, y: y).concatenating(try transform(of: useAttributes, useOwn))
            return inner.map { SVGClip(shapes: [$0]).transformed(by: t).shapes[0] }
        case "title", "desc", "metadata":
            return []
        default:
            warn("<\(child.name)> inside <clipPath> (not allowed there; ignored)", at: child.offset)
            return []
        }
    }

    /// A node standing for `path` (only its bounding box matters) to resolve a clip-path on.
    private func clipBoxNode(_ path: CGPath) -> SVGRenderNode {
        SVGRenderNode(content: .shape(SVGShape(path: path, fill: nil, fillRule: .winding, stroke: nil,
                                               strokeStyle: SVGStrokeStyle(), isAntialiased: true)),
                      transform: .identity)
    }
}
