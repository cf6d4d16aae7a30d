import CrispGraphics
import Foundation

// Turns the XML tree into SVGDocument's render tree in one walk. Ids are collected first, so
// references may point forwards. Properties cascade down the walk (presentation attributes,
// then the `style` attribute, which wins). Clip paths and gradients are resolved where they
// are used, with a stack of the ids being resolved so that a reference cycle is an error
// rather than endless recursion.
//
// What the walk meets falls in four groups: drawn (svg root, g, a, the basic shapes, path),
// definitions that draw only when referenced (defs, clipPath, gradients, …), things that have
// no effect on the picture (title, desc, metadata, editor attributes with no effect), and things
// that would change the picture but are not implemented (foreignObject, …). The
// last group is reported as unsupported, so that a caller who needs a faithful picture can
// refuse the document instead of drawing a wrong one; unknown elements and attributes become
// warnings.

/// Reads an XML tree into a render tree.
final class SVGBuilder {
    /// Largest intrinsic width or height accepted, in px.
    static let maximumSize: CGFloat = 16_777_216

    let lines: LineTable
    private var ids: [String: XMLElement] = [:]
    private var warningIndex: [String: Int] = [:]
    private(set) var warnings: [SVGWarning] = []
    private var unsupportedIndex: Set<String> = []
    private(set) var unsupported: [SVGUnsupportedFeature] = []
    /// The viewport size in user units (the viewBox's size, else width × height), for percentages.
    var viewport = CGSize(width: 100, height: 100)
    /// The outermost viewport's size in px (for vw, vh, vmin, vmax).
    var rootViewport = CGSize(width: 100, height: 100)
    /// The font size of the element being read, in px (for em-based lengths).
    var fontSize = SVGBuilder.initialFontSize
    /// Ids of clip paths being resolved (cycle detection).
    private var resolving: [String] = []
    /// How many clip paths are being resolved, one inside the other.
    var resolvingDepth: Int { resolving.count }
    /// Most clip paths that may nest through `clip-path` references (each level of a union may
    /// need its own mask while drawing).
    static let maximumClipNesting = 16
    /// Most transparency layers (`opacity` that cannot be folded into paint) that may be open
    /// at once: each is a canvas-sized buffer while it is open.
    static let maximumLayerNesting = 16
    private var gradientCache: [String: SVGGradient] = [:]
    /// Containers being built (document ancestors and `use` targets): a `use` of one is a cycle.
    var openElements: Set<ObjectIdentifier> = []
    /// How many `use` references are being expanded, one inside the other.
    var useNesting = 0
    /// Elements built through `use` references so far.
    var useInstances = 0
    /// Declarations from `<style>` sheets by element: normal and `!important` ones.
    var sheetDeclarations: [ObjectIdentifier: (normal: [SVGDeclaration], important: [SVGDeclaration])] = [:]
    /// The document's root element (set when building starts).
    private var rootElement: XMLElement?
    /// Each element's parent, made when first needed.
    private lazy var parents: [ObjectIdentifier: XMLElement] = {
        var result: [ObjectIdentifier: XMLElement] = [:]
        var stack = rootElement.map { [$0] } ?? []
        while let e = stack.popLast() {
            for c in e.children { result[ObjectIdentifier(c)] = e }
            stack.append(contentsOf: e.children)
        }
        return result
    }()
    /// Ancestors' cascaded properties, for `inheritedProperties(of:)`.
    private var cascades: [CascadeKey: SVGProperties] = [:]
    private struct CascadeKey: Hashable {
        var element: ObjectIdentifier
        var width: CGFloat, height: CGFloat
        init(_ e: XMLElement, _ viewport: CGSize) {
            element = ObjectIdentifier(e)
            width = viewport.width
            height = viewport.height
        }
    }
    /// While positive, warnings and unsupported features are not recorded (ancestors cascaded
    /// again for a definition were already reported where they were read).
    private(set) var muted = 0
    /// Whether the one warning about an unavailable `font-family` was given.
    var warnedFontFamily = false
    /// Most elements built one inside the other, counting through `use` references.
    static let maximumBuildDepth = 512

    /// The directory of the document's file, for `<image>` files named relative to it; nil
    /// when the document was not read from a file (then only `data:` images are read).
    let baseDirectory: String?

    /// Where `font-family` names are looked up.
    let fontSource: FontSource

    /// How deep this document is in a chain of SVG documents drawn as `<image>`s (0: the file
    /// itself), and the budget of such documents the file and its images share.
    var imageNesting = 0
    var imageBudget = SVGImageBudget()

    init(lines: LineTable, baseDirectory: String? = nil, fontSource: FontSource = .standard) {
        self.lines = lines
        self.baseDirectory = baseDirectory
        self.fontSource = fontSource
    }

    // MARK: Diagnostics

    func location(_ offset: Int) -> SVGSourceLocation { lines.location(of: offset) }

    func warn(_ message: String, at offset: Int) {
        guard muted == 0 else { return }
        if let k = warningIndex[message] {
            warnings[k].count += 1
        } else {
            warningIndex[message] = warnings.count
            warnings.append(SVGWarning(message: message, location: location(offset), count: 1))
        }
    }

    /// Records an error SVG says to recover from as a warning at its place.
    func warn(_ error: SVGError) {
        guard muted == 0 else { return }
        if let k = warningIndex[error.message] {
            warnings[k].count += 1
        } else {
            warningIndex[error.message] = warnings.count
            warnings.append(SVGWarning(message: error.message, location: error.location, count: 1))
        }
    }

    /// `body`'s result, or nil after recording its error as a warning: for values that SVG says
    /// to treat as absent when they are invalid. Limits are not recovered from (they rethrow).
    func recovering<T>(_ body: () throws(SVGError) -> T) throws(SVGError) -> T? {
        do {
            return try body()
        } catch {
            if case .limitExceeded = error.kind { throw error }
            warn(error)
            return nil
        }
    }

    /// `body` with warnings and unsupported features not recorded (a trial reading).
    func silently<T>(_ body: () -> T) -> T {
        muted += 1
        defer { muted -= 1 }
        return body()
    }

    func unsupported(_ reason: String, at offset: Int) {
        guard muted == 0, unsupportedIndex.insert(reason).inserted else { return }
        unsupported.append(SVGUnsupportedFeature(reason: reason, location: location(offset)))
    }

    func invalid(_ declaration: SVGDeclaration, _ reason: String, at offset: Int? = nil) -> SVGError {
        SVGError(.invalidValue(attribute: String(declaration.name), value: String(declaration.value), reason: reason),
                 at: location(offset ?? declaration.offset))
    }

    // MARK: Document

    /// The result of reading a document.
    struct Result {
        var size: CGSize
        var viewBox: CGRect?
        var viewBoxTransform: CGAffineTransform
        var root: SVGRenderNode
    }

    /// Elements spelled with a prefix bound to the SVG namespace (`<svg:rect>` under
    /// `xmlns:svg="http://www.w3.org/2000/svg"`) renamed to their local names; elements of
    /// other namespaces keep their prefixed names (unknown, so ignored with their contents).
    private func unprefixSVGNames(_ root: XMLElement) {
        var stack: [(XMLElement, Set<String>)] = [(root, [])]
        while let (e, inherited) = stack.popLast() {
            var svgPrefixes = inherited
            for a in e.attributes where a.name.hasPrefix("xmlns:") {
                let prefix = String(a.name.dropFirst(6))
                if a.value.trimmingWhiteSpace() == "http://www.w3.org/2000/svg" { svgPrefixes.insert(prefix) } else { svgPrefixes.remove(prefix) }
            }
            if let colon = e.name.firstIndex(of: ":"), svgPrefixes.contains(String(e.name[..<colon])) {
                e.name = String(e.name[e.name.index(after: colon)...])
            }
            for c in e.children { stack.append((c, svgPrefixes)) }
        }
    }

    func build(_ root: XMLElement) throws(SVGError) -> Result {
        unprefixSVGNames(root)
        guard root.name == "svg" else { throw SVGError(.notSVG(root: root.name), at: location(root.offset)) }
        rootElement = root
        collectIds(root)
        matchStyleSheets(root)
        let attributes = declarations(of: root, allowed: SVGBuilder.svgAttributes)
        var viewBox: CGRect?
        var width: (value: CGFloat, isPercent: Bool)?, height: (value: CGFloat, isPercent: Bool)?
        var align = "xMidYMid", slice = false
        for d in attributes.own {
            // An invalid value is as if the attribute were absent (with a warning).
            _ = try recovering { () throws(SVGError) in
                switch d.name {
                case "viewBox": viewBox = try parseViewBox(d)
                case "width": width = try rootLength(d)
                case "height": height = try rootLength(d)
                case "preserveAspectRatio": (align, slice) = try parseAspectRatio(d)
                default: break
                }
            }
        }
        // Intrinsic size: width/height, else the viewBox's, else 100 × 100 while the content is
        // built, then the content's extent (as resvg; below).
        func resolve(_ l: (value: CGFloat, isPercent: Bool)?, _ box: CGFloat?) -> CGFloat {
            guard let l else { return box ?? 100 }
            return l.isPercent ? (box ?? 100) * l.value / 100 : l.value
        }
        let size = CGSize(width: resolve(width, viewBox?.width), height: resolve(height, viewBox?.height))
        guard size.width > 0, size.height > 0, size.width <= SVGBuilder.maximumSize, size.height <= SVGBuilder.maximumSize else {
            throw SVGError(.limitExceeded("width and height must be in (0, \(Int(SVGBuilder.maximumSize))] px, not \(size.width) × \(size.height)"),
                           at: location(root.offset))
        }
        viewport = viewBox?.size ?? size
        rootViewport = size
        var transform = CGAffineTransform.identity
        if let vb = viewBox {
            transform = SVGBuilder.viewBoxTransform(vb, size: size, align: align, slice: slice)
        }
        let node = try buildContainer(root, attributes: attributes, inherited: SVGProperties(), depth: 0)
        var intrinsic = size
        if viewBox == nil, width == nil || width!.isPercent || height == nil || height!.isPercent,
           let box = node?.boundingBoxInParent, !box.isNull, box.maxX > 0, box.maxY > 0,
           box.maxX <= SVGBuilder.maximumSize, box.maxY <= SVGBuilder.maximumSize {
            // No viewBox and no absolute width and height: the size reaches the content's far
            // edges, as resvg 0.44 does (its object bounding box's right and bottom, the origin
            // kept; strokes not counted). Lengths in % were resolved against 100 × 100 meanwhile.
            intrinsic = CGSize(width: box.maxX, height: box.maxY)
        }
        return Result(size: intrinsic, viewBox: viewBox, viewBoxTransform: transform,
                      root: node ?? SVGRenderNode(content: .group([]), transform: .identity))
    }

    static let alignments: Set<String> = ["xMinYMin", "xMidYMin", "xMaxYMin", "xMinYMid", "xMidYMid", "xMaxYMid",
                                          "xMinYMax", "xMidYMax", "xMaxYMax"]

    /// The transform from the viewBox to a viewport of `size` at the origin (SVG 2 §8.2).
    static func viewBoxTransform(_ vb: CGRect, size: CGSize, align: String, slice: Bool) -> CGAffineTransform {
        var sx = size.width / vb.width, sy = size.height / vb.height
        if align != "none" {
            let s = slice ? max(sx, sy) : min(sx, sy)
            sx = s
            sy = s
        }
        var tx = -vb.minX * sx, ty = -vb.minY * sy
        if align != "none" {
            let extraX = size.width - vb.width * sx, extraY = size.height - vb.height * sy
            if align.hasPrefix("xMid") { tx += extraX / 2 } else if align.hasPrefix("xMax") { tx += extraX }
            if align.hasSuffix("YMid") { ty += extraY / 2 } else if align.hasSuffix("YMax") { ty += extraY }
        }
        return CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: tx, ty: ty)
    }

    /// A `viewBox`: four numbers, width and height positive.
    func parseViewBox(_ d: SVGDeclaration) throws(SVGError) -> CGRect {
        var scanner = SVGValueScanner(String(d.value))
        var v: [CGFloat] = []
        scanner.skipWhiteSpace()
        while !scanner.isAtEnd {
            guard let n = scanner.number() else { throw invalid(d, "expected four numbers", at: d.offset + scanner.i) }
            v.append(CGFloat(n))
            scanner.skipSeparator()
        }
        guard v.count == 4 else { throw invalid(d, "expected four numbers, found \(v.count)") }
        guard v[2] > 0, v[3] > 0 else { throw invalid(d, "the width and height must be positive") }
        return CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// A `preserveAspectRatio`: the alignment (or none) and whether it slices.
    func parseAspectRatio(_ d: SVGDeclaration) throws(SVGError) -> (align: String, slice: Bool) {
        var words = d.value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
        if words.first == "defer" { words.removeFirst() }
        guard let a = words.first, a == "none" || SVGBuilder.alignments.contains(a), words.count <= 2 else {
            throw invalid(d, "expected none or xMinYMin … xMaxYMax, then meet or slice")
        }
        if words.count == 2 {
            guard words[1] == "meet" || words[1] == "slice" else { throw invalid(d, "expected meet or slice") }
            return (a, words[1] == "slice")
        }
        return (a, false)
    }

    private func rootLength(_ d: SVGDeclaration) throws(SVGError) -> (value: CGFloat, isPercent: Bool) {
        var scanner = SVGValueScanner(String(d.value))
        scanner.skipWhiteSpace()
        guard let v = scanner.number() else { throw invalid(d, "expected a length") }
        if scanner.consume(UInt8(ascii: "%")) {
            scanner.skipWhiteSpace()
            guard scanner.isAtEnd, v > 0 else { throw invalid(d, "expected a positive length") }
            return (CGFloat(v), true)
        }
        let unit = scanner.letters()
        scanner.skipWhiteSpace()
        guard scanner.isAtEnd, let factor = SVGBuilder.unitFactors[unit] else { throw invalid(d, "expected a length") }
        guard v > 0 else { throw invalid(d, "must be positive") }
        return (CGFloat(v) * factor, false)
    }

    private func collectIds(_ root: XMLElement) {
        var stack = [root]
        while let e = stack.popLast() {
            if let id = e.attribute("id") {
                if ids[id.value] == nil {
                    ids[id.value] = e
                } else {
                    warn("duplicate id \"\(id.value)\" (the first one is used)", at: id.nameOffset)
                }
            }
            stack.append(contentsOf: e.children.reversed())
        }
    }

    func element(withId id: String) -> XMLElement? { ids[id] }

    /// The properties `e` inherits where it is written: its ancestors' cascade from the root. A
    /// definition (gradient stop, pattern, marker) inherits from there, not from its user.
    ///
    /// Each ancestor's cascade is kept (by element and viewport size, which percentages depend
    /// on), so the stops of a gradient, or all definitions under one `<defs>`, cascade their
    /// shared ancestors once, not once each. Leaves `fontSize` at the parent's, as cascading
    /// the chain does.
    func inheritedProperties(of e: XMLElement) -> SVGProperties {
        // The ancestors up to the nearest one already cascaded, nearest first.
        var chain: [XMLElement] = []
        var properties = SVGProperties()
        var cached = false
        var next = parents[ObjectIdentifier(e)]
        while let a = next {
            if let p = cascades[CascadeKey(a, viewport)] {
                properties = p
                cached = true
                break
            }
            chain.append(a)
            next = parents[ObjectIdentifier(a)]
        }
        if cached, chain.isEmpty { fontSize = properties.fontSize }
        muted += 1
        defer { muted -= 1 }
        for a in chain.reversed() {
            var own = SVGElementProperties()
            apply(declarations(of: a, allowed: []).presentation, to: &properties, element: &own)
            cascades[CascadeKey(a, viewport)] = properties
        }
        return properties
    }

    /// Runs `body` with `id` marked as being resolved; a reference back to it is a cycle.
    func resolvingReference<T>(_ id: String, at offset: Int, _ body: () throws(SVGError) -> T) throws(SVGError) -> T {
        guard !resolving.contains(id) else { throw SVGError(.recursiveReference(id: id), at: location(offset)) }
        resolving.append(id)
        defer { resolving.removeLast() }
        return try body()
    }

    /// Whether `id` is being resolved (a reference to it now is a cycle).
    func isResolving(_ id: String) -> Bool { resolving.contains(id) }

    func cachedGradient(_ id: String) -> SVGGradient? { gradientCache[id] }
    func cacheGradient(_ g: SVGGradient) { gradientCache[g.id] = g }

    // MARK: Tree walk

    /// Builds the render node for a drawable element, or nil when it draws nothing.
    func buildNode(_ e: XMLElement, inherited: SVGProperties, depth: Int) throws(SVGError) -> SVGRenderNode? {
        guard depth <= SVGBuilder.maximumBuildDepth else {
            throw SVGError(.limitExceeded("elements nested more than \(SVGBuilder.maximumBuildDepth) deep (counting through use)"),
                           at: location(e.offset))
        }
        try countInstance(e)
        guard passesConditions(e) else { return nil }
        switch e.name {
        case "g", "a":
            return try buildContainer(e, attributes: declarations(of: e, allowed: e.name == "a" ? SVGBuilder.linkAttributes : []),
                                      inherited: inherited, depth: depth)
        case "path", "rect", "circle", "ellipse", "line", "polyline", "polygon":
            return try buildShapeNode(e, inherited: inherited, depth: depth)
        case "defs", "clipPath", "linearGradient", "radialGradient", "title", "desc", "metadata", "symbol", "marker",
             "pattern", "mask", "filter", "script", "stop":
            // Definitions: drawn only where referenced. `stop` outside a gradient draws nothing.
            return nil
        case "style":
            return nil   // read before the walk (SVGBuilder+Cascade)
        case "use":
            return try buildUse(e, inherited: inherited, depth: depth)
        case "svg":
            return try buildViewport(e, inherited: inherited, depth: depth, origin: .zero, size: (nil, nil))
        case "switch":
            return try buildSwitch(e, inherited: inherited, depth: depth)
        case "image":
            return try buildImage(e, inherited: inherited, depth: depth)
        case "text":
            return try buildText(e, inherited: inherited, depth: depth)
        case "tspan", "textPath":
            warn("<\(e.name)> outside <text> (not drawn)", at: e.offset)
            return nil
        case "foreignObject", "video", "audio", "canvas", "iframe":
            unsupported("<\(e.name)>", at: e.offset)
            return nil
        default:
            warn("unknown element <\(e.name)> (ignored with its contents)", at: e.offset)
            return nil
        }
    }

    private func buildContainer(_ e: XMLElement, attributes: ElementDeclarations, inherited: SVGProperties,
                                depth: Int) throws(SVGError) -> SVGRenderNode? {
        var properties = inherited
        var own = SVGElementProperties()
        apply(attributes.presentation, to: &properties, element: &own)
        guard own.isDisplayed else { return nil }
        let key = ObjectIdentifier(e)
        openElements.insert(key)
        defer { openElements.remove(key) }
        var children: [SVGRenderNode] = []
        for child in e.children {
            if let node = try buildNode(child, inherited: properties, depth: depth + 1) { children.append(node) }
        }
        let node = SVGRenderNode(content: .group(children), transform: try transform(of: attributes, own))
        try finish(node, element: e, own: own, depth: depth)
        return node
    }

    /// An element's `transform` (identity when it is absent or invalid), about its
    /// `transform-origin` when it has one.
    func transform(of attributes: ElementDeclarations, _ own: SVGElementProperties = SVGElementProperties()) throws(SVGError) -> CGAffineTransform {
        guard let d = attributes.transform else { return .identity }
        let t = try recovering { () throws(SVGError) in try parseTransform(d) } ?? .identity
        guard let o = own.transformOrigin, !t.isIdentity else { return t }
        return CGAffineTransform(translationX: -o.x, y: -o.y).concatenating(t).concatenating(CGAffineTransform(translationX: o.x, y: o.y))
    }

    /// Applies clip-path and opacity to a finished node.
    func finish(_ node: SVGRenderNode, element e: XMLElement, own: SVGElementProperties, depth: Int) throws(SVGError) {
        if let clip = own.clipPath {
            node.clip = try self.clip(clip.id, at: clip.offset, for: node)
        }
        if let filter = own.filter {
            switch filters(filter.value, at: filter.offset, for: node, depth: depth) {
            case .none: break
            case .shadow(let shadow): node.shadow = shadow
            case .filters(let list): node.filters = list
            case .hidesElement: node.content = .group([])
            }
        }
        if let mask = own.mask {
            guard resolvingDepth < SVGBuilder.maximumClipNesting else {
                throw SVGError(.limitExceeded("clip paths and masks nested more than \(SVGBuilder.maximumClipNesting) deep"), at: location(mask.offset))
            }
            node.mask = try self.mask(mask.id, at: mask.offset, for: node, depth: depth)
        }
        node.blendMode = own.blendMode
        node.isolated = own.isolate
        node.applyOpacity(own.opacity)
        guard node.layerNesting <= SVGBuilder.maximumLayerNesting else {
            throw SVGError(.limitExceeded("group opacity (transparency layers) nested more than \(SVGBuilder.maximumLayerNesting) deep"),
                           at: location(e.offset))
        }
    }

    private func buildShapeNode(_ e: XMLElement, inherited: SVGProperties, depth: Int) throws(SVGError) -> SVGRenderNode? {
        let attributes = declarations(of: e, allowed: SVGBuilder.shapeAttributes[e.name] ?? [])
        var properties = inherited
        var own = SVGElementProperties()
        apply(attributes.presentation, to: &properties, element: &own)
        guard own.isDisplayed, let path = geometry(of: e, attributes.own) else { return nil }
        var shape = try makeShape(path, properties: properties, boundingBox: path.boundingBoxOfPath, isLine: e.name == "line",
                                  depth: depth)
        shape.strokeStyle.isNonScaling = own.nonScalingStroke
        let markers = try markerNodes(for: e, path: path, attributes: attributes.own, properties: properties, depth: depth)
        if !markers.isEmpty {
            // The shape and its markers, as one group, in paint-order: the fill and the stroke
            // as separate shapes when the markers come between them.
            var layers: [SVGRenderNode] = []
            let order = properties.paintOrder
            let markersIndex = order.firstIndex(of: .markers)!
            let between = markersIndex == 1
            for layer in order {
                switch layer {
                case .markers: layers += markers
                case .fill, .stroke:
                    if between {
                        var part = shape
                        if layer == .fill { part.stroke = nil } else { part.fill = nil }
                        layers.append(SVGRenderNode(content: .shape(part), transform: .identity))
                    } else if layer == order.first(where: { $0 != .markers }) {
                        layers.append(SVGRenderNode(content: .shape(shape), transform: .identity))
                    }
                }
            }
            let node = SVGRenderNode(content: .group(layers), transform: try transform(of: attributes, own))
            try finish(node, element: e, own: own, depth: depth)
            return node
        }
        let node = SVGRenderNode(content: .shape(shape), transform: try transform(of: attributes, own))
        if case .shape(let s) = node.content, s.fill != nil || s.stroke != nil || own.clipPath != nil || own.mask != nil || own.filter != nil {
            try finish(node, element: e, own: own, depth: depth)
        }
        return node
    }

    /// The fill and stroke of a shape from its properties; `bbox` is the object bounding box
    /// for paint servers (the path's own, or the whole text element's for a span).
    func makeShape(_ path: CGPath, properties p: SVGProperties, boundingBox bbox: CGRect, isLine: Bool,
                   depth: Int) throws(SVGError) -> SVGShape {
        var fill: SVGPaintInstance?
        var stroke: SVGPaintInstance?
        if p.isVisible {
            if !isLine {   // a line has no interior
                fill = try resolvePaint(p.concrete(p.fill), opacity: p.fillOpacity, color: p.color, boundingBox: bbox, coverBox: bbox, depth: depth)
            }
            if p.strokeWidth > 0 {
                // A stroke reaches at most half its width times the miter limit (or √2 for
                // square caps) beyond the outline.
                let reach = p.strokeWidth / 2 * max(p.miterLimit, 1.5)
                stroke = try resolvePaint(p.concrete(p.stroke), opacity: p.strokeOpacity, color: p.color, boundingBox: bbox,
                                          coverBox: bbox.insetBy(dx: -reach, dy: -reach), depth: depth)
            }
        }
        var style = SVGStrokeStyle()
        style.width = p.strokeWidth
        style.cap = p.lineCap
        style.join = p.lineJoin
        style.miterLimit = p.miterLimit
        style.dashes = p.dashes
        style.dashOffset = p.dashOffset
        var shape = SVGShape(path: path, fill: fill, fillRule: p.fillRule, stroke: stroke, strokeStyle: style,
                             isAntialiased: p.isAntialiased)
        shape.strokeFirst = p.paintOrder.firstIndex(of: .stroke)! < p.paintOrder.firstIndex(of: .fill)!
        return shape
    }
}
