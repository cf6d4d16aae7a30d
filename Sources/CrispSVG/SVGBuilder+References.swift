import CrispGraphics
import Foundation

// Following references: paint servers (`fill="url(#g)"`) and clip paths (`clip-path="url(#c)"`).
//
// A clip path becomes an SVGClip: its children's shapes mapped into the clipped element's user
// space (the child's own transform, then the bounding-box mapping for
// clipPathUnits="objectBoundingBox", then the clipPath's `transform` — the order resvg and the
// browsers use), each with its own `clip-path` if it has one, and the clipPath's own
// `clip-path` to intersect with. The union of several children is drawn through a mask.

extension SVGBuilder {
    // MARK: Paint

    /// Resolves a fill or stroke to what gets drawn; nil for no paint.
    ///
    /// `boundingBox` is the shape's object bounding box, `coverBox` a box around everything the
    /// paint covers (larger than `boundingBox` for strokes), both in user space.
    func resolvePaint(_ spec: SVGPaintSpec, opacity: Double, color: SVGColor, boundingBox: CGRect,
                      coverBox: CGRect) throws(SVGError) -> SVGPaintInstance? {
        switch spec {
        case .none:
            return nil
        case .color(let c):
            return SVGPaintInstance(paint: .color(c), opacity: opacity)
        case .currentColor:
            return SVGPaintInstance(paint: .color(color), opacity: opacity)
        case .reference(let id, let fallback, let offset):
            guard let target = element(withId: id) else {
                if let fallback { return try resolvePaint(fallback, opacity: opacity, color: color, boundingBox: boundingBox, coverBox: coverBox) }
                throw SVGError(.missingReference(id: id), at: location(offset))
            }
            switch target.name {
            case "linearGradient", "radialGradient":
                let g = try gradient(id, at: offset)
                if g.stops.isEmpty { return nil }
                if g.stops.count == 1 { return SVGPaintInstance(paint: .color(g.stops[0].color), opacity: opacity) }
                if g.units == .objectBoundingBox && (boundingBox.isNull || boundingBox.width <= 0 || boundingBox.height <= 0) {
                    // SVG: an objectBoundingBox gradient on a shape without area paints nothing.
                    return nil
                }
                guard let paint = SVGGradientPlan.paint(for: g, boundingBox: boundingBox, coverBox: coverBox) else { return nil }
                return SVGPaintInstance(paint: paint, opacity: opacity)
            case "pattern":
                unsupported("pattern paint", at: offset)
                return nil
            default:
                throw SVGError(.wrongReferenceType(id: id, expected: "a paint server (gradient or pattern)", found: target.name),
                               at: location(offset))
            }
        }
    }

    /// The gradient `id`, with `href` inheritance resolved (cached).
    func gradient(_ id: String, at offset: Int) throws(SVGError) -> SVGGradient {
        if let g = cachedGradient(id) { return g }
        // The chain of gradients this one inherits from, nearest first.
        var chain: [XMLElement] = []
        var currentId = id
        var referenceOffset = offset
        while true {
            guard let e = element(withId: currentId) else { throw SVGError(.missingReference(id: currentId), at: location(referenceOffset)) }
            guard e.name == "linearGradient" || e.name == "radialGradient" else {
                throw SVGError(.wrongReferenceType(id: currentId, expected: "a gradient", found: e.name), at: location(referenceOffset))
            }
            guard !chain.contains(where: { $0 === e }) else {
                throw SVGError(.recursiveReference(id: currentId), at: location(referenceOffset))
            }
            chain.append(e)
            guard let href = e.attribute("href") ?? e.attribute("xlink:href") else { break }
            guard href.value.hasPrefix("#"), href.value.count > 1 else {
                throw SVGError(.invalidValue(attribute: href.name, value: href.value, reason: "expected #id"), at: location(href.valueOffset))
            }
            currentId = String(href.value.dropFirst())
            referenceOffset = href.valueOffset
        }
        let first = chain[0]
        let allowed: Set<String> = first.name == "linearGradient"
            ? ["x1", "y1", "x2", "y2", "gradientUnits", "gradientTransform", "spreadMethod", "href", "xlink:href"]
            : ["cx", "cy", "r", "fx", "fy", "fr", "gradientUnits", "gradientTransform", "spreadMethod", "href", "xlink:href"]
        let own = chain.map { e in declarations(of: e, allowed: allowed.union(["x1", "y1", "x2", "y2", "cx", "cy", "r", "fx", "fy", "fr"])) }
        func attribute(_ name: String) -> SVGDeclaration? {
            for d in own { if let v = d.value(name) { return v } }
            return nil
        }
        var units = SVGGradient.Units.objectBoundingBox
        if let d = attribute("gradientUnits") {
            switch d.value.trimmingCharacters(in: .whitespaces) {
            case "userSpaceOnUse": units = .userSpaceOnUse
            case "objectBoundingBox": units = .objectBoundingBox
            default: throw invalid(d, "expected userSpaceOnUse or objectBoundingBox")
            }
        }
        var spread = SVGGradient.Spread.pad
        if let d = attribute("spreadMethod") {
            switch d.value.trimmingCharacters(in: .whitespaces) {
            case "pad": spread = .pad
            case "reflect": spread = .reflect
            case "repeat": spread = .repeating
            default: throw invalid(d, "expected pad, reflect or repeat")
            }
        }
        let transform = try attribute("gradientTransform").map { d throws(SVGError) in try parseTransform(d) } ?? .identity
        func coordinate(_ name: String, _ axis: Axis, default fallback: CGFloat) throws(SVGError) -> CGFloat {
            guard let d = attribute(name) else { return fallback }
            if units == .objectBoundingBox {
                var scanner = SVGValueScanner(String(d.value))
                scanner.skipWhiteSpace()
                guard var v = scanner.number() else { throw invalid(d, "expected a number or percentage") }
                if scanner.consume(UInt8(ascii: "%")) { v /= 100 }
                scanner.skipWhiteSpace()
                guard scanner.isAtEnd else { throw invalid(d, "expected a number or percentage") }
                return CGFloat(v)
            }
            return try length(d, axis: axis)
        }
        // Percent defaults: fractions of the bounding box, or of the viewport in user space.
        let w: CGFloat = units == .objectBoundingBox ? 1 : viewport.width
        let h: CGFloat = units == .objectBoundingBox ? 1 : viewport.height
        let diagonal: CGFloat = units == .objectBoundingBox ? 1 : ((w * w + h * h) / 2).squareRoot()
        let kind: SVGGradient.Kind
        if first.name == "linearGradient" {
            kind = .linear(x1: try coordinate("x1", .horizontal, default: 0), y1: try coordinate("y1", .vertical, default: 0),
                           x2: try coordinate("x2", .horizontal, default: w), y2: try coordinate("y2", .vertical, default: 0))
        } else {
            let cx = try coordinate("cx", .horizontal, default: w / 2), cy = try coordinate("cy", .vertical, default: h / 2)
            let r = try coordinate("r", .diagonal, default: diagonal / 2)
            if r < 0, let d = attribute("r") { throw invalid(d, "must not be negative") }
            let fr = try coordinate("fr", .diagonal, default: 0)
            if fr < 0, let d = attribute("fr") { throw invalid(d, "must not be negative") }
            kind = .radial(cx: cx, cy: cy, r: r, fx: try coordinate("fx", .horizontal, default: cx),
                           fy: try coordinate("fy", .vertical, default: cy), fr: fr)
        }
        // Stops come from the nearest gradient in the chain that has any.
        var stops: [SVGGradient.Stop] = []
        if let holder = chain.first(where: { $0.children.contains { $0.name == "stop" } }) {
            for child in holder.children {
                guard child.name == "stop" else {
                    warn("<\(child.name)> inside a gradient (ignored)", at: child.offset)
                    continue
                }
                let attributes = declarations(of: child, allowed: ["offset"])
                var properties = SVGProperties()
                var element = SVGElementProperties()
                try apply(attributes.presentation, to: &properties, element: &element)
                var offset: CGFloat = 0
                if let d = attributes.value("offset") { offset = CGFloat(try opacity(d)) }
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

    // MARK: Clip paths

    /// The clip path `id` in `node`'s user space.
    func clip(_ id: String, at offset: Int, for node: SVGRenderNode) throws(SVGError) -> SVGClip {
        guard let clip = element(withId: id) else { throw SVGError(.missingReference(id: id), at: location(offset)) }
        guard clip.name == "clipPath" else {
            throw SVGError(.wrongReferenceType(id: id, expected: "a <clipPath>", found: clip.name), at: location(offset))
        }
        guard resolvingDepth < SVGBuilder.maximumClipNesting else {
            throw SVGError(.limitExceeded("clip paths nested more than \(SVGBuilder.maximumClipNesting) deep"), at: location(offset))
        }
        return try resolvingReference(id, at: offset) { () throws(SVGError) -> SVGClip in
            let attributes = declarations(of: clip, allowed: ["clipPathUnits"])
            var properties = SVGProperties()
            var own = SVGElementProperties()
            try apply(attributes.presentation, to: &properties, element: &own)
            var placement = try attributes.transform.map { d throws(SVGError) in try parseTransform(d) } ?? .identity
            if let d = attributes.value("clipPathUnits") {
                switch d.value.trimmingCharacters(in: .whitespaces) {
                case "userSpaceOnUse": break
                case "objectBoundingBox":
                    let box = node.boundingBox
                    guard !box.isNull, box.width > 0, box.height > 0 else { return .nothing }
                    placement = CGAffineTransform(a: box.width, b: 0, c: 0, d: box.height, tx: box.minX, ty: box.minY)
                        .concatenating(placement)
                default: throw invalid(d, "expected userSpaceOnUse or objectBoundingBox")
                }
            }
            var shapes: [SVGClipShape] = []
            for child in clip.children {
                switch child.name {
                case "path", "rect", "circle", "ellipse", "line", "polyline", "polygon":
                    let childAttributes = declarations(of: child, allowed: SVGBuilder.shapeAttributes[child.name] ?? [])
                    var childProperties = properties
                    var childOwn = SVGElementProperties()
                    try apply(childAttributes.presentation, to: &childProperties, element: &childOwn)
                    guard childOwn.isDisplayed, childProperties.isVisible else { continue }
                    let t = try childAttributes.transform.map { d throws(SVGError) in try parseTransform(d) } ?? .identity
                    // Children without geometry clip nothing in: they add nothing to the union.
                    guard let path = try geometry(of: child, childAttributes.own) else { continue }
                    var shape = SVGClipShape(path: path, rule: childProperties.clipRule)
                    if let nested = childOwn.clipPath {
                        // The child's own clip-path, in the child's user space (its bounding box for
                        // objectBoundingBox units), then placed with the child.
                        let shapeNode = SVGRenderNode(content: .shape(SVGShape(path: path, fill: nil, fillRule: .winding, stroke: nil,
                                                                                strokeStyle: SVGStrokeStyle(), isAntialiased: true)),
                                                      transform: .identity)
                        shape.clip = [try self.clip(nested.id, at: nested.offset, for: shapeNode)]
                    }
                    shapes.append(SVGClip(shapes: [shape]).transformed(by: t.concatenating(placement)).shapes[0])
                case "text", "use":
                    unsupported("<\(child.name)> inside <clipPath>", at: child.offset)
                case "title", "desc", "metadata":
                    continue
                default:
                    warn("<\(child.name)> inside <clipPath> (not allowed there; ignored)", at: child.offset)
                }
            }
            var result = SVGClip(shapes: shapes)
            if let nested = own.clipPath {
                result.intersected = [try self.clip(nested.id, at: nested.offset, for: node)]
            }
            return result
        }
    }
}
