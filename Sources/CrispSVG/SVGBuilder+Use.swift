import CrispGraphics
import Foundation

// `use`, `symbol`, nested `svg` and `switch`.
//
// A `use` is built as a group standing for the element: its own transform followed by
// translate(x, y) (SVG 2 §5.6.2; its clip-path, mask and filter are in that space), its
// presentation attributes cascading into the referenced content, then the referenced element built afresh as if it were the group's child. A `symbol` (or a nested
// `svg`) referenced that way — or a nested `svg` met in the walk — establishes a new viewport:
// width × height (from the `use`, else its own, else 100 %), its viewBox and preserveAspectRatio
// mapped into it, and a clip to the viewport unless `overflow` is visible.
//
// Each `use` builds a fresh copy of what it references, so nested uses multiply: ten uses of a
// group of ten uses of … (the "billion laughs") grow exponentially with the document. Two
// guards keep the work bounded: a `use` whose target is one of its own ancestors (in the
// document or through the uses being expanded) is a cycle, skipped with a warning; and every
// element built through a `use` counts against `maximumUseInstances`, past which reading stops
// with `limitExceeded`, so time and memory stay proportional to the limit, not to the
// expansion. Rejected: sharing one built subtree between uses (a render node holds its
// clip-paths and objectBoundingBox paints resolved for its own geometry and cascade, which a
// `use` may change).

extension SVGBuilder {
    /// Most elements built through `use` references in one document.
    static let maximumUseInstances = 100_000
    /// Most `use` references expanded one inside the other.
    static let maximumUseNesting = 64

    static let useAttributes: Set<String> = ["x", "y", "width", "height", "href", "xlink:href"]
    static let viewportAttributes: Set<String> = ["x", "y", "width", "height", "viewBox", "preserveAspectRatio", "refX", "refY",
                                                  "version", "baseProfile", "zoomAndPan", "contentScriptType", "contentStyleType"]

    /// The languages `systemLanguage` matches (the user's; Crisp assumes English, as resvg does).
    static let userLanguages = ["en"]

    /// Whether an element's conditional processing attributes let it render (SVG 2 §5.8):
    /// `systemLanguage` must name a user language (or a language whose prefix it is), and
    /// `requiredExtensions` must be empty (Crisp supports no extensions).
    func passesConditions(_ e: XMLElement) -> Bool {
        if let extensions = e.attribute("requiredExtensions") {
            return extensions.value.allSatisfy(\.isWhitespace)
        }
        if let languages = e.attribute("systemLanguage") {
            let tags = languages.value.split(separator: ",").map { $0.trimmingWhiteSpace().lowercased() }
            return tags.contains { tag in
                SVGBuilder.userLanguages.contains { tag == $0 || tag.hasPrefix($0 + "-") }
            }
        }
        return true
    }

    /// `switch`: the first direct child whose conditions pass is drawn, the rest are not.
    func buildSwitch(_ e: XMLElement, inherited: SVGProperties, depth: Int) throws(SVGError) -> SVGRenderNode? {
        let attributes = declarations(of: e, allowed: [])
        var properties = inherited
        var own = SVGElementProperties()
        apply(attributes.presentation, to: &properties, element: &own)
        guard own.isDisplayed else { return nil }
        var children: [SVGRenderNode] = []
        if let chosen = e.children.first(where: { passesConditions($0) && SVGBuilder.isRenderable($0.name) }),
           let node = try buildNode(chosen, inherited: properties, depth: depth + 1) {
            children.append(node)
        }
        let node = SVGRenderNode(content: .group(children), transform: try transform(of: attributes, own))
        try finish(node, element: e, own: own, depth: depth)
        return node
    }

    static func isRenderable(_ name: String) -> Bool {
        ["g", "a", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "use", "svg", "switch", "text", "image",
         "foreignObject"].contains(name)
    }

    /// A `use` element: nil when it draws nothing (no target, a cycle, display none).
    func buildUse(_ e: XMLElement, inherited: SVGProperties, depth: Int) throws(SVGError) -> SVGRenderNode? {
        let attributes = declarations(of: e, allowed: SVGBuilder.useAttributes)
        guard let href = e.attribute("href") ?? e.attribute("xlink:href") else { return nil }
        guard href.value.hasPrefix("#"), href.value.count > 1 else {
            warn(SVGError(.invalidValue(attribute: href.name, value: href.value, reason: "expected #id (only references within the document)"),
                          at: location(href.valueOffset)))
            return nil
        }
        let id = String(href.value.dropFirst())
        guard let target = element(withId: id) else {
            warn(SVGError(.missingReference(id: id), at: location(href.valueOffset)))
            return nil
        }
        let key = ObjectIdentifier(target)
        guard !openElements.contains(key), target !== e else {
            warn(SVGError(.recursiveReference(id: id), at: location(href.valueOffset)))
            return nil
        }
        // The limits skip this element (with a warning), not the document (issue 31): the rest
        // of the file still draws, and the work stays bounded.
        guard useNesting < SVGBuilder.maximumUseNesting else {
            warn(SVGError(.limitExceeded("use references nested more than \(SVGBuilder.maximumUseNesting) deep (the use is not drawn)"),
                          at: location(e.offset)))
            return nil
        }
        var properties = inherited
        var own = SVGElementProperties()
        apply(attributes.presentation, to: &properties, element: &own)
        guard own.isDisplayed else { return nil }
        // The use is the context element of its content (context-fill, context-stroke).
        properties.becomeContext()
        func length(_ name: String, _ axis: Axis) -> CGFloat? { recoveringLength(attributes.value(name), axis: axis) }
        let x = length("x", .horizontal) ?? 0, y = length("y", .vertical) ?? 0
        let size = (width: length("width", .horizontal), height: length("height", .vertical))

        let outermost = useNesting == 0
        useNesting += 1
        defer { useNesting -= 1 }
        var content: SVGRenderNode?
        do throws(SVGError) {
            switch target.name {
            case "symbol", "svg":
                content = try buildViewport(target, inherited: properties, depth: depth + 1, origin: .zero, size: size)
            default:
                guard SVGBuilder.isRenderable(target.name) else {
                    warn(SVGError(.wrongReferenceType(id: id, expected: "a graphics element, <symbol> or <svg>", found: target.name),
                                  at: location(href.valueOffset)))
                    return nil
                }
                content = try buildNode(target, inherited: properties, depth: depth + 1)
            }
        } catch {
            // Past the expansion limit the outermost use is skipped with a warning; every later
            // use is over the limit at its first element, so skipping stays cheap.
            guard outermost, case .limitExceeded(let message) = error.kind else { throw error }
            warn(SVGError(.limitExceeded(message + " (the use is not drawn)"), at: error.location))
            return nil
        }
        guard let content else { return nil }
        // translate(x, y) is appended to the use's transform (SVG 2 §5.6.2), so its clip-path,
        // mask and filter are in the translated space, as resvg draws them.
        let node = SVGRenderNode(content: .group([content]),
                                 transform: CGAffineTransform(translationX: x, y: y).concatenating(try transform(of: attributes, own)))
        try finish(node, element: e, own: own, depth: depth)
        return node
    }

    /// A length, or nil when absent, or after a warning when it is invalid or negative.
    func recoveringLength(_ declaration: SVGDeclaration?, axis: Axis) -> CGFloat? {
        guard let d = declaration else { return nil }
        do throws(SVGError) {
            let v = try length(d, axis: axis)
            guard v >= 0 || !["width", "height"].contains(d.name) else { throw invalid(d, "must not be negative") }
            return v
        } catch {
            warn(error)
            return nil
        }
    }

    /// Counts one element built through a `use`; past `maximumUseInstances`, a limit error.
    func countInstance(_ e: XMLElement) throws(SVGError) {
        guard useNesting > 0 else { return }
        try countInstances(1, at: e.offset)
    }

    /// Counts `count` elements built or placed through a reference (`use`, pattern or marker
    /// content); past `maximumUseInstances`, a limit error.
    func countInstances(_ count: Int, at offset: Int) throws(SVGError) {
        useInstances = min(useInstances + count, Int.max / 2)
        guard useInstances <= SVGBuilder.maximumUseInstances else {
            throw SVGError(.limitExceeded("use, pattern and marker references expand to more than \(SVGBuilder.maximumUseInstances) elements"),
                           at: location(offset))
        }
    }

    /// A new viewport: a nested `svg` (at its x, y) or a `symbol` (at the origin of the `use`);
    /// `size` overrides the element's own width and height when given (by a `use`).
    func buildViewport(_ e: XMLElement, inherited: SVGProperties, depth: Int, origin: CGPoint,
                       size override: (width: CGFloat?, height: CGFloat?)) throws(SVGError) -> SVGRenderNode? {
        let attributes = declarations(of: e, allowed: SVGBuilder.viewportAttributes)
        var properties = inherited
        var own = SVGElementProperties()
        apply(attributes.presentation, to: &properties, element: &own)
        guard own.isDisplayed else { return nil }
        // The use is the context element of its content (context-fill, context-stroke).
        properties.becomeContext()
        func length(_ name: String, _ axis: Axis) -> CGFloat? { recoveringLength(attributes.value(name), axis: axis) }
        var viewBox: CGRect?
        var align = "xMidYMid", slice = false
        if let d = attributes.value("viewBox") { viewBox = try recovering { () throws(SVGError) in try parseViewBox(d) } }
        if let d = attributes.value("preserveAspectRatio"),
           let a = try recovering({ () throws(SVGError) in try parseAspectRatio(d) }) {
            (align, slice) = a
        }
        let x = origin.x + (length("x", .horizontal) ?? 0), y = origin.y + (length("y", .vertical) ?? 0)
        let width = override.width ?? length("width", .horizontal) ?? viewport.width
        let height = override.height ?? length("height", .vertical) ?? viewport.height
        guard width > 0, height > 0 else { return nil }

        let outer = viewport
        viewport = viewBox?.size ?? CGSize(width: width, height: height)
        defer { viewport = outer }
        openElements.insert(ObjectIdentifier(e))
        defer { openElements.remove(ObjectIdentifier(e)) }
        var children: [SVGRenderNode] = []
        for child in e.children {
            if let node = try buildNode(child, inherited: properties, depth: depth + 1) { children.append(node) }
        }
        let inner = SVGRenderNode(content: .group(children), transform: viewBox.map {
            SVGBuilder.viewBoxTransform($0, size: CGSize(width: width, height: height), align: align, slice: slice)
        } ?? .identity)
        let node = SVGRenderNode(content: .group([inner]), transform: CGAffineTransform(translationX: x, y: y))
        if !own.overflowIsVisible {
            let box = SVGBuilder.roundedRect(x: 0, y: 0, width: width, height: height, rx: 0, ry: 0)
            node.clip = SVGClip(shapes: [SVGClipShape(path: box, rule: .winding)])
        }
        // The element's own transform (SVG 2 allows one on a nested svg), clip-path and opacity.
        let outerNode = SVGRenderNode(content: .group([node]), transform: try transform(of: attributes, own))
        try finish(outerNode, element: e, own: own, depth: depth)
        return outerNode
    }
}
