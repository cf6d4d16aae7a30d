import CrispGraphics
import Foundation

// `marker-start`, `marker-mid`, `marker-end` (and the `marker` shorthand) on path, line,
// polyline and polygon (SVG 2 §11.6). Each marker is built once per shape — its children as a
// group, properties cascading from the <marker> and its ancestors, not from the shape — and placed at every vertex
// it applies to (SVGPathSegment) by a transform of its own: the content through the viewBox onto
// markerWidth × markerHeight (preserveAspectRatio), moved so that (refX, refY) of the content
// lies on the vertex, scaled by the shape's stroke-width for markerUnits="strokeWidth" (the
// default), and turned by `orient` (an angle, `auto`: the path's direction there,
// `auto-start-reverse`: the same but reversed at the start). Unless `overflow` is visible the
// content is clipped to the viewBox (or the viewport without one), as resvg and the browsers do.
// The markers are drawn after the shape's fill and stroke: start markers, then mid, then end.
//
// A marker reached again while its own content is built is a cycle, skipped with a warning.
// Every placement counts its content's nodes against the `use` expansion budget: the content is
// shared between vertices, so markers whose content carries markers would otherwise multiply
// the drawing work without bound while the document stays small.

extension SVGBuilder {
    static let markerAttributes: Set<String> = ["refX", "refY", "markerWidth", "markerHeight", "markerUnits", "orient", "viewBox",
                                                "preserveAspectRatio"]

    /// A marker resolved for one shape: its content placed in the viewport, and how to orient it.
    private struct PlacedMarker {
        enum Orientation {
            case angle(CGFloat)
            case auto(reverseAtStart: Bool)
        }

        /// The content through the viewBox, clipped unless overflow is visible.
        var content: SVGRenderNode
        /// The reference point in viewport coordinates.
        var reference: CGPoint
        var scale: CGFloat
        var orientation: Orientation
    }

    /// The marker instances of a markable shape, in its user space (empty without markers).
    func markerNodes(for e: XMLElement, path: CGPath, attributes: [SVGDeclaration], properties p: SVGProperties,
                     depth: Int) throws(SVGError) -> [SVGRenderNode] {
        guard p.markerStart != nil || p.markerMid != nil || p.markerEnd != nil,
              ["path", "line", "polyline", "polygon"].contains(e.name) else { return [] }
        let segments: [SVGPathSegment]
        if e.name == "path" {
            guard let d = attributes.last(where: { $0.name == "d" }) else { return [] }
            segments = SVGPathParser.segmentsUpToError(from: String(d.value))
        } else {
            var list: [SVGPathSegment] = []
            var current = CGPoint.zero, start = CGPoint.zero
            for element in path.elements {
                switch element {
                case .moveTo(let q):
                    list.append(SVGPathSegment(kind: .move, start: q, end: q))
                    current = q
                    start = q
                case .lineTo(let q):
                    list.append(SVGPathSegment(kind: .draw, start: current, end: q))
                    current = q
                case .closeSubpath:
                    list.append(SVGPathSegment(kind: .close, start: current, end: start))
                    current = start
                case .quadCurveTo, .curveTo:
                    break   // not made by line, polyline or polygon
                }
            }
            segments = list
        }
        let vertices = SVGPathSegment.vertices(segments)
        guard !vertices.isEmpty else { return [] }
        var nodes: [SVGRenderNode] = []
        var resolved: [String: PlacedMarker?] = [:]
        func place(_ reference: SVGMarkerReference?, at indices: some Sequence<Int>, isStart: Bool) throws(SVGError) {
            guard let reference else { return }
            if resolved[reference.id] == nil {
                resolved[reference.id] = .some(try marker(reference, for: p, depth: depth))
            }
            guard let marker = resolved[reference.id]!, !marker.content.isEmptyGroup else { return }
            for k in indices {
                // Each placement draws the shared content again: it counts as that many elements.
                try countInstances(marker.content.weight, at: reference.offset)
                let v = vertices[k]
                let angle: CGFloat
                switch marker.orientation {
                case .angle(let a): angle = a
                case .auto(let reverse): angle = reverse && isStart ? v.angle + 180 : v.angle
                }
                let t = CGAffineTransform(translationX: -marker.reference.x, y: -marker.reference.y)
                    .concatenating(CGAffineTransform(scaleX: marker.scale, y: marker.scale))
                    .concatenating(CGAffineTransform(rotationAngle: angle * .pi / 180))
                    .concatenating(CGAffineTransform(translationX: v.point.x, y: v.point.y))
                nodes.append(SVGRenderNode(content: .group([marker.content]), transform: t))
            }
        }
        try place(p.markerStart, at: [0], isStart: true)
        try place(p.markerMid, at: vertices.indices.dropFirst().dropLast(), isStart: false)
        try place(p.markerEnd, at: [vertices.count - 1], isStart: false)
        return nodes
    }

    /// The marker a reference names, resolved for a shape of `strokeWidth`; nil when it draws
    /// nothing (with a warning when that is an error).
    /// `shape` is the marked shape's properties: its stroke width, and its fill and stroke for
    /// `context-fill` and `context-stroke` in the marker's content.
    private func marker(_ reference: SVGMarkerReference, for shape: SVGProperties, depth: Int) throws(SVGError) -> PlacedMarker? {
        let strokeWidth = shape.strokeWidth
        guard let e = referencedElement(reference.id, at: reference.offset, kind: "marker") else { return nil }
        guard resolvingDepth < SVGBuilder.maximumClipNesting else {
            throw SVGError(.limitExceeded("clip paths, masks, patterns and markers nested more than \(SVGBuilder.maximumClipNesting) deep"),
                           at: location(reference.offset))
        }
        return try recovering { () throws(SVGError) in try resolvingReference(reference.id, at: reference.offset) { () throws(SVGError) -> PlacedMarker? in
            let attributes = declarations(of: e, allowed: SVGBuilder.markerAttributes)
            var properties = inheritedProperties(of: e)
            properties.contextFill = shape.concrete(shape.fill)
            properties.contextStroke = shape.concrete(shape.stroke)
            var own = SVGElementProperties()
            apply(attributes.presentation, to: &properties, element: &own)
            func length(_ name: String, _ axis: Axis, default fallback: CGFloat) -> CGFloat {
                recoveringLength(attributes.value(name), axis: axis) ?? fallback
            }
            let width = length("markerWidth", .horizontal, default: 3), height = length("markerHeight", .vertical, default: 3)
            guard width > 0, height > 0 else { return nil }
            var scale: CGFloat = strokeWidth
            if let d = attributes.value("markerUnits") {
                switch d.value.trimmingWhiteSpace() {
                case "strokeWidth": break
                case "userSpaceOnUse": scale = 1
                default: warn(invalid(d, "expected strokeWidth or userSpaceOnUse"))
                }
            }
            var orientation = PlacedMarker.Orientation.angle(0)
            if let d = attributes.value("orient"), let o = try recovering({ () throws(SVGError) in try orient(d) }) { orientation = o }
            var viewBox: CGRect?
            var align = "xMidYMid", slice = false
            if let d = attributes.value("viewBox") { viewBox = try recovering { () throws(SVGError) in try parseViewBox(d) } }
            if let d = attributes.value("preserveAspectRatio"), let a = try recovering({ () throws(SVGError) in try parseAspectRatio(d) }) {
                (align, slice) = a
            }
            let toViewport = viewBox.map { SVGBuilder.viewBoxTransform($0, size: CGSize(width: width, height: height), align: align, slice: slice) }
                ?? .identity
            let reference = CGPoint(x: length("refX", .horizontal, default: 0), y: length("refY", .vertical, default: 0)).applying(toViewport)

            let outer = viewport
            viewport = viewBox?.size ?? CGSize(width: width, height: height)
            defer { viewport = outer }
            useNesting += 1
            defer { useNesting -= 1 }
            var children: [SVGRenderNode] = []
            for child in e.children {
                if let node = try buildNode(child, inherited: properties, depth: depth + 1) { children.append(node) }
            }
            let content = SVGRenderNode(content: .group(children), transform: toViewport)
            if !own.overflowIsVisible {
                let box = viewBox ?? CGRect(x: 0, y: 0, width: width, height: height)
                content.clip = SVGClip(shapes: [SVGClipShape(path: SVGBuilder.roundedRect(x: box.minX, y: box.minY, width: box.width,
                                                                                            height: box.height, rx: 0, ry: 0), rule: .winding)])
            }
            content.applyOpacity(own.opacity)
            return PlacedMarker(content: content, reference: reference, scale: scale, orientation: orientation)
        } } ?? nil
    }

    /// An `orient`: `auto`, `auto-start-reverse` or an angle (deg, rad, grad, turn; no unit: degrees).
    private func orient(_ d: SVGDeclaration) throws(SVGError) -> PlacedMarker.Orientation {
        let value = d.value.trimmingWhiteSpaceAndNewlines()
        if value == "auto" { return .auto(reverseAtStart: false) }
        if value == "auto-start-reverse" { return .auto(reverseAtStart: true) }
        var scanner = SVGValueScanner(value)
        guard let n = scanner.number() else { throw invalid(d, "expected auto, auto-start-reverse or an angle") }
        let factors: [String: CGFloat] = ["": 1, "deg": 1, "rad": 180 / .pi, "grad": 0.9, "turn": 360]
        guard let factor = factors[scanner.letters()], scanner.isAtEnd else { throw invalid(d, "expected auto, auto-start-reverse or an angle") }
        return .angle(CGFloat(n) * factor)
    }
}

extension SVGRenderNode {
    /// Whether the node is a group with nothing in it.
    var isEmptyGroup: Bool {
        if case .group(let children) = content { return children.allSatisfy(\.isEmptyGroup) }
        return false
    }
}
