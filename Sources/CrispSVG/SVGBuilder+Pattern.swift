import CrispGraphics
import Foundation

// `fill="url(#p)"` on a `<pattern>`: the pattern's attributes and children, inherited through its
// `href` chain (each attribute from the nearest pattern that has it, the children from the nearest
// that has any), resolved for the painted shape's bounding box (SVG 2 §14.3):
// - the tile: x, y, width, height, fractions of the box for patternUnits="objectBoundingBox"
//   (the default), user-space lengths for userSpaceOnUse; a zero or negative width or height
//   paints nothing (a missing one is 0: the same, with a warning);
// - the content: in tile space with its origin at the tile's top-left corner, through the
//   viewBox and preserveAspectRatio onto the tile when there is a viewBox, else scaled by the
//   box for patternContentUnits="objectBoundingBox";
// - patternTransform maps the whole tiling into user space.
// The content's properties cascade from the pattern element that holds it (and its ancestors),
// not from the shape it paints.
// A pattern reached again while its own content is built (directly or through other patterns)
// is a cycle: that paint is `none` with a warning. Pattern content counts against the same
// expansion budget as `use`, so nested patterns cannot multiply without bound.

extension SVGBuilder {
    static let patternAttributes: Set<String> = ["x", "y", "width", "height", "patternUnits", "patternContentUnits",
                                                 "patternTransform", "viewBox", "preserveAspectRatio", "href", "xlink:href"]

    /// The pattern `id` for a shape whose object bounding box is `box`; nil when it paints
    /// nothing (with a warning when that is an error).
    func pattern(_ id: String, at offset: Int, boundingBox box: CGRect, depth: Int) throws(SVGError) -> SVGPattern? {
        let chain = hrefChain(from: element(withId: id)!, kinds: ["pattern"], expected: "a <pattern>")
        let own = chain.map { declarations(of: $0, allowed: SVGBuilder.patternAttributes) }
        func attribute(_ name: String) -> SVGDeclaration? {
            for d in own { if let v = d.value(name) { return v } }
            return nil
        }
        let tileInBox = isObjectBoundingBox(attribute("patternUnits"), default: true)
        let contentInBox = isObjectBoundingBox(attribute("patternContentUnits"), default: false)
        let hasBox = !box.isNull && box.width > 0 && box.height > 0
        func value(_ name: String, _ axis: Axis) -> CGFloat? {
            guard let d = attribute(name) else { return nil }
            do throws(SVGError) {
                if tileInBox {
                    var scanner = SVGValueScanner(String(d.value))
                    scanner.skipWhiteSpace()
                    guard let n = scanner.number() else { throw invalid(d, "expected a number or percentage") }
                    let v = scanner.consume(UInt8(ascii: "%")) ? CGFloat(n) / 100 : CGFloat(n)
                    scanner.skipWhiteSpace()
                    guard scanner.isAtEnd else { throw invalid(d, "expected a number or percentage") }
                    return v
                }
                return try length(d, axis: axis)
            } catch {
                warn(error)
                return nil
            }
        }
        guard let width = value("width", .horizontal), let height = value("height", .vertical) else {
            warn("pattern \"\(id)\" has no width or height (it paints nothing)", at: chain[0].offset)
            return nil
        }
        guard width > 0, height > 0 else {
            if width < 0 || height < 0 {
                warn("pattern \"\(id)\" has a negative width or height (it paints nothing)", at: chain[0].offset)
            }
            return nil
        }
        var tile = CGRect(x: value("x", .horizontal) ?? 0, y: value("y", .vertical) ?? 0, width: width, height: height)
        if tileInBox {
            guard hasBox else { return nil }   // no box to size the tile: nothing painted
            tile = CGRect(x: box.minX + tile.minX * box.width, y: box.minY + tile.minY * box.height,
                          width: tile.width * box.width, height: tile.height * box.height)
        }
        var viewBox: CGRect?
        var align = "xMidYMid", slice = false
        if let d = attribute("viewBox") { viewBox = try recovering { () throws(SVGError) in try parseViewBox(d) } }
        if let d = attribute("preserveAspectRatio"), let a = try recovering({ () throws(SVGError) in try parseAspectRatio(d) }) {
            (align, slice) = a
        }
        var contentTransform = CGAffineTransform.identity
        if let vb = viewBox {
            contentTransform = SVGBuilder.viewBoxTransform(vb, size: tile.size, align: align, slice: slice)
        } else if contentInBox {
            guard hasBox else { return nil }
            contentTransform = CGAffineTransform(scaleX: box.width, y: box.height)
        }
        var toUser = CGAffineTransform.identity
        if let d = attribute("patternTransform") { toUser = try recovering { () throws(SVGError) in try parseTransform(d) } ?? .identity }
        guard toUser.determinant != 0, toUser.determinant.isFinite else { return nil }

        guard resolvingDepth < SVGBuilder.maximumClipNesting else {
            throw SVGError(.limitExceeded("clip paths, masks and patterns nested more than \(SVGBuilder.maximumClipNesting) deep"),
                           at: location(offset))
        }
        // The content, from the nearest pattern in the chain with children.
        let holder = chain.first { $0.children.contains { SVGBuilder.isRenderable($0.name) } } ?? chain[0]
        let children = try recovering { () throws(SVGError) in try resolvingReference(id, at: offset) { () throws(SVGError) -> [SVGRenderNode] in
            var properties = inheritedProperties(of: holder)
            var elementOwn = SVGElementProperties()
            apply(own[chain.firstIndex { $0 === holder }!].presentation, to: &properties, element: &elementOwn)
            let outer = viewport
            viewport = viewBox?.size ?? (contentInBox ? CGSize(width: 1, height: 1) : viewport)
            defer { viewport = outer }
            useNesting += 1
            defer { useNesting -= 1 }
            var nodes: [SVGRenderNode] = []
            for child in holder.children {
                if let node = try buildNode(child, inherited: properties, depth: depth + 1) { nodes.append(node) }
            }
            return nodes
        } }
        guard let children, !children.isEmpty else { return nil }
        return SVGPattern(tile: tile, toUser: toUser, content: SVGRenderNode(content: .group(children), transform: contentTransform))
    }
}
