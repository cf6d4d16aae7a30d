import CrispGraphics
import Foundation

// `filter`: a list of `url(#id)` references and CSS filter functions (`blur()`, `drop-shadow()`,
// `grayscale()`, …), applied in order, each one's output the next one's SourceGraphic. A
// <filter> element becomes an SVGFilter in the element's user space: the filter region
// (filterUnits, x/y/width/height, −10 %/−10 %/120 %/120 % of the bounding box by default), each
// primitive's subregion (primitiveUnits; a missing x/y/width/height is the filter region's),
// its inputs (`in`/`in2`: SourceGraphic, SourceAlpha, a named result, or the previous result
// when absent or naming no earlier result, as Filter Effects 1 says), its colour space
// (color-interpolation-filters on the primitive, else on the <filter>, else linearRGB) and its
// parameters, lengths in user units (fractions of the box with primitiveUnits=objectBoundingBox).
//
// Errors Filter Effects 1 says to recover from are recovered from as it says, with a warning:
// a reference to a missing or non-<filter> element, a filter without primitives, or a filter
// region without area means the element is not rendered; an invalid parameter disables its
// primitive (its result is its input) or falls back to the default.
//
// The drop-shadow recipe designers export keeps its exact shortcut through CGContext's shadow
// (SVGBuilder+Filter): a filter it matches, alone in the list, becomes a shadow as before.

extension SVGBuilder {
    /// The most pixels a filter region may cover in user units (at scale 1): beyond, the
    /// element is skipped with a warning rather than allocating bitmaps of gigabytes.
    static let maximumFilterArea: CGFloat = 4096 * 4096

    /// What the `filter` property does to `node`.
    enum FilterResult {
        case none
        case shadow(SVGShadow)
        case filters([SVGFilter])
        case hidesElement
    }

    func filters(_ value: String, at offset: Int, for node: SVGRenderNode, depth: Int) -> FilterResult {
        let items = splitFilterList(value)
        guard let items, !items.isEmpty else {
            warn("filter=\"\(value)\" is not a list of url(#id) and filter functions (ignored)", at: offset)
            return .none
        }
        if items.count == 1, let id = urlReference(items[0]), element(withId: id)?.name == "filter" {
            if case .shadow(let s) = silently({ dropShadow(id, at: offset, for: node) }) { return .shadow(s) }
        }
        var result: [SVGFilter] = []
        var bounds = node.paintBounds(clipped: false)
        for item in items {
            let filter: SVGFilter?
            if item.hasPrefix("url(") {
                guard let id = urlReference(item), let e = referencedElement(id, at: offset, kind: "filter") else {
                    if urlReference(item) == nil { warn("filter reference \(item) is not url(#id) (the element is not rendered)", at: offset) }
                    return .hidesElement
                }
                filter = self.filter(e, for: node, depth: depth)
            } else {
                filter = cssFilter(item, bounds: bounds, at: offset)
            }
            guard let filter, !filter.region.isNull, filter.region.width > 0, filter.region.height > 0 else { return .hidesElement }
            guard filter.region.width * filter.region.height <= SVGBuilder.maximumFilterArea else {
                // The region may be far beyond Int's range (a height of 4e49 was found by fuzzing).
                let w = filter.region.width.rounded(), h = filter.region.height.rounded()
                warn("a filter region of \(w) × \(h) user units (over \(Int(SVGBuilder.maximumFilterArea)) px; the element is not rendered)", at: offset)
                return .hidesElement
            }
            result.append(filter)
            bounds = filter.region
        }
        return .filters(result)
    }

    /// `url(…)` and `name(…)` items of a filter list; nil when it is not one.
    private func splitFilterList(_ value: String) -> [String]? {
        var items: [String] = []
        var rest = Substring(value)
        while true {
            rest = rest.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "," })
            if rest.isEmpty { break }
            guard let open = rest.firstIndex(of: "(") else { return nil }
            // The matching parenthesis (a colour function may be nested in drop-shadow()).
            var depth = 0
            var closing: Substring.Index?
            for i in rest[open...].indices {
                if rest[i] == "(" { depth += 1 }
                if rest[i] == ")" { depth -= 1 }
                if depth == 0 { closing = i; break }
            }
            guard let close = closing else { return nil }
            let name = rest[..<open]
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
            items.append(String(rest[...close]))
            rest = rest[rest.index(after: close)...]
        }
        return items
    }

    // MARK: <filter>

    /// A property of a filter primitive: its `style` declaration, else its attribute.
    private func filterProperty(_ p: XMLElement, _ name: String) -> String? {
        if let style = p.attribute("style") {
            if let d = styleDeclarations(style).last(where: { $0.name == name }) { return String(d.value).trimmingWhiteSpace() }
        }
        return p.attribute(name)?.value.trimmingWhiteSpace()
    }

    /// A list of numbers (separated by white space or commas); nil when anything else is in it.
    func filterNumbers(_ text: String?) -> [Double]? {
        guard let text else { return nil }
        var scanner = SVGValueScanner(text)
        var values: [Double] = []
        scanner.skipWhiteSpace()
        while !scanner.isAtEnd {
            guard let v = scanner.number(), v.isFinite else { return nil }
            values.append(v)
            scanner.skipSeparator()
        }
        return values
    }

    private func filterColor(_ p: XMLElement, color: String, opacity: String) -> SVGColor {
        var c = SVGColor.black
        if color == "lighting-color" { c = SVGColor(red: 1, green: 1, blue: 1) }
        if let v = filterProperty(p, color) {
            if v == "currentColor" {
                c = filterProperty(p, "color").flatMap { SVGColor(parsing: $0) } ?? .black
            } else if let parsed = SVGColor(parsing: v) {
                c = parsed
            } else {
                warn("\(color)=\"\(v)\" is not a colour (ignored)", at: p.offset)
            }
        }
        if let v = filterProperty(p, opacity) {
            var scanner = SVGValueScanner(v)
            if let n = scanner.number() {
                let o = scanner.consume(UInt8(ascii: "%")) ? n / 100 : n
                c.alpha *= min(max(o, 0), 1)
            }
        }
        return c
    }

    private func colorSpaceIsLinear(_ p: XMLElement, filter e: XMLElement) -> Bool {
        for v in [filterProperty(p, "color-interpolation-filters"), filterProperty(e, "color-interpolation-filters")] {
            switch v {
            case "sRGB"?: return false
            case "linearRGB"?: return true
            case "auto"?: return false
            default: continue
            }
        }
        return true
    }

    /// The <filter> `e` resolved for `node`; nil when the element is not rendered (a region on
    /// a box without area, no primitives).
    func filter(_ e: XMLElement, for node: SVGRenderNode, depth: Int) -> SVGFilter? {
        let box = node.boundingBox
        let hasBox = !box.isNull && box.width > 0 && box.height > 0
        let regionInBox = isObjectBoundingBox(e.attribute("filterUnits").map { SVGDeclaration(name: "filterUnits", value: Substring($0.value), offset: $0.valueOffset) }, default: true)
        let primitivesInBox = isObjectBoundingBox(e.attribute("primitiveUnits").map { SVGDeclaration(name: "primitiveUnits", value: Substring($0.value), offset: $0.valueOffset) }, default: false)
        if (regionInBox || primitivesInBox) && !hasBox { return nil }
        /// x/y/width/height of `element` in user space; nil for an absent (or invalid) one.
        func coordinate(_ element: XMLElement, _ name: String, _ axis: Axis, inBox: Bool) -> CGFloat? {
            guard let a = element.attribute(name) else { return nil }
            let d = SVGDeclaration(name: Substring(name), value: Substring(a.value), offset: a.valueOffset)
            do throws(SVGError) {
                if inBox {
                    var scanner = SVGValueScanner(a.value)
                    scanner.skipWhiteSpace()
                    guard let n = scanner.number() else { throw invalid(d, "expected a number or percentage") }
                    let f = scanner.consume(UInt8(ascii: "%")) ? CGFloat(n) / 100 : CGFloat(n)
                    switch name {
                    case "x": return box.minX + f * box.width
                    case "y": return box.minY + f * box.height
                    case "width": return f * box.width
                    default: return f * box.height
                    }
                }
                return try length(d, axis: axis)
            } catch {
                warn(error)
                return nil
            }
        }
        let defaults: [CGFloat] = regionInBox
            ? [box.minX - 0.1 * box.width, box.minY - 0.1 * box.height, 1.2 * box.width, 1.2 * box.height]
            : [-0.1 * viewport.width, -0.1 * viewport.height, 1.2 * viewport.width, 1.2 * viewport.height]
        let region = CGRect(x: coordinate(e, "x", .horizontal, inBox: regionInBox) ?? defaults[0],
                            y: coordinate(e, "y", .vertical, inBox: regionInBox) ?? defaults[1],
                            width: coordinate(e, "width", .horizontal, inBox: regionInBox) ?? defaults[2],
                            height: coordinate(e, "height", .vertical, inBox: regionInBox) ?? defaults[3])
        guard region.width > 0, region.height > 0, region.minX.isFinite, region.minY.isFinite,
              region.width.isFinite, region.height.isFinite else { return nil }
        // Lengths of the primitives: user units, or fractions of the box.
        let unitX = primitivesInBox ? box.width : 1, unitY = primitivesInBox ? box.height : 1
        func pointX(_ v: Double) -> Double { primitivesInBox ? Double(box.minX) + v * Double(box.width) : v }
        func pointY(_ v: Double) -> Double { primitivesInBox ? Double(box.minY) + v * Double(box.height) : v }
        let unitZ = primitivesInBox ? Double(((box.width * box.width + box.height * box.height) / 2).squareRoot()) : 1

        var primitives: [SVGFilterPrimitive] = []
        var named: [String: Int] = [:]
        for p in e.children where p.name.hasPrefix("fe") {
            func input(_ attribute: String) -> SVGFilterPrimitive.Input {
                let previous: SVGFilterPrimitive.Input = primitives.isEmpty ? .sourceGraphic : .result(primitives.count - 1)
                guard let name = p.attribute(attribute)?.value.trimmingWhiteSpace() else { return previous }
                switch name {
                case "SourceGraphic": return .sourceGraphic
                case "SourceAlpha": return .sourceAlpha
                case "BackgroundImage", "BackgroundAlpha", "FillPaint", "StrokePaint":
                    warn("filter input \(name) (not in Filter Effects 1's static profile; read as SourceGraphic, as resvg does)", at: p.offset)
                    return .sourceGraphic
                default: return named[name].map { .result($0) } ?? previous
                }
            }
            func numbers(_ name: String) -> [Double]? {
                guard let a = p.attribute(name) else { return nil }
                guard let v = filterNumbers(a.value) else {
                    warn("\(p.name) \(name)=\"\(a.value)\" is not a list of numbers (ignored)", at: a.valueOffset)
                    return nil
                }
                return v
            }
            func number(_ name: String, _ fallback: Double) -> Double { numbers(name)?.first ?? fallback }
            func pair(_ name: String, _ fallback: Double) -> (Double, Double) {
                guard let v = numbers(name), !v.isEmpty, v.count <= 2 else { return (fallback, fallback) }
                return (v[0], v.count == 2 ? v[1] : v[0])
            }
            func edgeMode(_ fallback: SVGFilterPrimitive.EdgeMode) -> SVGFilterPrimitive.EdgeMode {
                switch p.attribute("edgeMode")?.value.trimmingWhiteSpace() {
                case "none"?: return .none
                case "duplicate"?: return .duplicate
                case "wrap"?: return .wrap
                default: return fallback
                }
            }
            var inputs = [input("in")]
            var kind: SVGFilterPrimitive.Kind
            var feImage: (SVGLoadedImage, SVGDeclaration?)?
            switch p.name {
            case "feGaussianBlur":
                let (sx, sy) = pair("stdDeviation", 0)
                if sx < 0 || sy < 0 || (sx == 0 && sy == 0) {
                    // Filter Effects 1: negative disables the primitive; resvg and the browsers
                    // make zero in both a pass-through too.
                    kind = sx < 0 || sy < 0 ? .transparent : .passThrough
                } else {
                    kind = .blur(x: CGFloat(sx) * unitX, y: CGFloat(sy) * unitY, edge: edgeMode(.none))
                }
            case "feOffset":
                kind = .offset(dx: CGFloat(number("dx", 0)) * unitX, dy: CGFloat(number("dy", 0)) * unitY)
            case "feFlood":
                inputs = []
                kind = .flood(filterColor(p, color: "flood-color", opacity: "flood-opacity"))
            case "feDropShadow":
                let (sx, sy) = pair("stdDeviation", 2)
                kind = sx < 0 || sy < 0 ? .transparent
                    : .dropShadow(dx: CGFloat(number("dx", 2)) * unitX, dy: CGFloat(number("dy", 2)) * unitY,
                                  x: CGFloat(sx) * unitX, y: CGFloat(sy) * unitY,
                                  color: filterColor(p, color: "flood-color", opacity: "flood-opacity"))
            case "feComposite":
                inputs.append(input("in2"))
                let op: SVGFilterPrimitive.CompositeOperator
                switch p.attribute("operator")?.value.trimmingWhiteSpace() ?? "over" {
                case "in": op = .in
                case "out": op = .out
                case "atop": op = .atop
                case "xor": op = .xor
                case "lighter": op = .lighter
                case "arithmetic": op = .arithmetic
                default: op = .over
                }
                kind = .composite(op, k: ["k1", "k2", "k3", "k4"].map { Float(number($0, 0)) })
            case "feMerge":
                let nodes = p.children.filter { $0.name == "feMergeNode" }
                inputs = nodes.map { node in
                    let previous: SVGFilterPrimitive.Input = primitives.isEmpty ? .sourceGraphic : .result(primitives.count - 1)
                    switch node.attribute("in")?.value.trimmingWhiteSpace() {
                    case nil: return previous
                    case "SourceGraphic"?: return .sourceGraphic
                    case "SourceAlpha"?: return .sourceAlpha
                    case let n?: return named[n].map { .result($0) } ?? previous
                    }
                }
                kind = .merge
            case "feBlend":
                inputs.append(input("in2"))
                let mode = p.attribute("mode")?.value.trimmingWhiteSpace() ?? "normal"
                kind = .blend(SVGFilterPrimitive.BlendMode(rawValue: mode) ?? .normal)
            case "feColorMatrix":
                kind = .colorMatrix(colorMatrix(p))
            case "feComponentTransfer":
                var functions = [SVGFilterPrimitive.Transfer](repeating: .identity, count: 4)
                for f in p.children {
                    guard let k = ["feFuncR", "feFuncG", "feFuncB", "feFuncA"].firstIndex(of: f.name) else { continue }
                    functions[k] = transfer(f)
                }
                kind = .componentTransfer(functions)
            case "feMorphology":
                let (rx, ry) = pair("radius", 0)
                let dilate = p.attribute("operator")?.value.trimmingWhiteSpace() == "dilate"
                if rx < 0 || ry < 0 {
                    kind = .transparent
                } else if rx == 0 && ry == 0 {
                    kind = .passThrough
                } else {
                    kind = .morphology(dilate: dilate, x: CGFloat(rx) * unitX, y: CGFloat(ry) * unitY)
                }
            case "feTile":
                kind = .tile
            case "feTurbulence":
                inputs = []
                let (fx, fy) = pair("baseFrequency", 0)
                // Octaves past 12 add under 1/4096 each: capped, which bounds the work per pixel.
                let octaves = number("numOctaves", 1)
                if fx < 0 || fy < 0 {
                    kind = .transparent
                } else {
                    let seed = number("seed", 0)
                    kind = .turbulence(.init(baseFrequencyX: fx, baseFrequencyY: fy,
                                             octaves: Int(max(0, min(octaves, 12))), seed: Int(max(-2e9, min(seed, 2e9)).rounded(.towardZero)),
                                             stitch: p.attribute("stitchTiles")?.value.trimmingWhiteSpace() == "stitch",
                                             fractalNoise: p.attribute("type")?.value.trimmingWhiteSpace() == "fractalNoise"))
                }
            case "feDisplacementMap":
                inputs.append(input("in2"))
                func channel(_ name: String) -> Int {
                    switch p.attribute(name)?.value.trimmingWhiteSpace() {
                    case "R"?: return 0
                    case "G"?: return 1
                    case "B"?: return 2
                    default: return 3
                    }
                }
                let scale = number("scale", 0)
                kind = .displacement(scaleX: CGFloat(scale) * unitX, scaleY: CGFloat(scale) * unitY,
                                     xChannel: channel("xChannelSelector"), yChannel: channel("yChannelSelector"))
            case "feConvolveMatrix":
                kind = convolve(p, edgeMode: edgeMode(.duplicate)).map { .convolve($0) } ?? .passThrough
            case "feDiffuseLighting", "feSpecularLighting":
                let specular = p.name == "feSpecularLighting"
                var light: SVGFilterPrimitive.LightSource?
                for l in p.children {
                    func v(_ name: String, _ fallback: Double = 0) -> Double {
                        l.attribute(name).flatMap { filterNumbers($0.value)?.first } ?? fallback
                    }
                    switch l.name {
                    case "feDistantLight":
                        light = .distant(azimuth: v("azimuth"), elevation: v("elevation"))
                    case "fePointLight":
                        light = .point(x: pointX(v("x")), y: pointY(v("y")), z: v("z") * unitZ)
                    case "feSpotLight":
                        let cone = l.attribute("limitingConeAngle").flatMap { filterNumbers($0.value)?.first }
                        light = .spot(x: pointX(v("x")), y: pointY(v("y")), z: v("z") * unitZ,
                                      atX: pointX(v("pointsAtX")), atY: pointY(v("pointsAtY")), atZ: v("pointsAtZ") * unitZ,
                                      exponent: v("specularExponent", 1), cone: cone)
                    default: continue
                    }
                    break
                }
                let constant = number(specular ? "specularConstant" : "diffuseConstant", 1)
                let exponent = number("specularExponent", 1)
                if let light, constant >= 0, !specular || (1...128).contains(exponent) {
                    kind = .lighting(.init(specular: specular, surfaceScale: number("surfaceScale", 1), constant: constant,
                                           exponent: exponent, color: filterColor(p, color: "lighting-color", opacity: "lighting-opacity"),
                                           light: light))
                } else {
                    kind = .transparent
                }
            case "feImage":
                // An element (drawn as `use` draws it, in the filtered element's user space) or
                // an image (placed in the subregion with preserveAspectRatio, below).
                inputs = []
                kind = .transparent
                if let href = p.attribute("href") ?? p.attribute("xlink:href") {
                    let value = href.value.trimmingWhiteSpace()
                    if value.hasPrefix("#") {
                        let id = String(value.dropFirst())
                        if let target = element(withId: id) {
                            let built = try? resolvingReference("feImage #" + id, at: href.valueOffset) { () throws(SVGError) -> SVGRenderNode? in
                                try buildNode(target, inherited: inheritedProperties(of: target), depth: depth + 1)
                            }
                            if let node = built.flatMap({ $0 }) { kind = .image(node) }
                        } else {
                            warn(SVGError(.missingReference(id: id), at: location(href.valueOffset)))
                        }
                    } else if let image = loadImage(value, at: href.valueOffset) {
                        feImage = (image, p.attribute("preserveAspectRatio").map { SVGDeclaration(name: "preserveAspectRatio", value: Substring($0.value), offset: $0.valueOffset) })
                    }
                }
            default:
                warn("unknown filter primitive <\(p.name)> (the filter is not applied; the element is not rendered)", at: p.offset)
                return nil
            }
            // The subregion: the filter region's where not given.
            let x = coordinate(p, "x", .horizontal, inBox: primitivesInBox)
            let y = coordinate(p, "y", .vertical, inBox: primitivesInBox)
            let w = coordinate(p, "width", .horizontal, inBox: primitivesInBox)
            let h = coordinate(p, "height", .vertical, inBox: primitivesInBox)
            var sub = CGRect(x: x ?? region.minX, y: y ?? region.minY, width: w ?? region.width, height: h ?? region.height)
            if x != nil && w == nil { sub.size.width = region.maxX - sub.minX }
            if y != nil && h == nil { sub.size.height = region.maxY - sub.minY }
            if case .tile = kind, x == nil, y == nil, w == nil, h == nil { sub = region }
            if let (image, aspect) = feImage, sub.width > 0, sub.height > 0 {
                var align = "xMidYMid", slice = false
                if let aspect, let a = try? recovering({ () throws(SVGError) in try parseAspectRatio(aspect) }) { (align, slice) = a }
                if image.size.width > 0, image.size.height > 0 {
                    kind = .image(SVGBuilder.placedImage(image, in: sub, align: align, slice: slice, smoothed: true))
                }
            }
            sub = sub.width > 0 && sub.height > 0 ? sub.intersection(region) : .null
            if sub.isNull { sub = CGRect(x: region.minX, y: region.minY, width: 0, height: 0) }
            primitives.append(SVGFilterPrimitive(kind: kind, inputs: inputs, subregion: sub, linearRGB: colorSpaceIsLinear(p, filter: e)))
            if let name = p.attribute("result")?.value.trimmingWhiteSpace(), !name.isEmpty { named[name] = primitives.count - 1 }
        }
        guard !primitives.isEmpty else { return nil }
        return SVGFilter(region: region, primitives: primitives)
    }

    private func colorMatrix(_ p: XMLElement) -> [Float] {
        let identity: [Float] = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]
        let values = p.attribute("values").flatMap { filterNumbers($0.value) }
        switch p.attribute("type")?.value.trimmingWhiteSpace() ?? "matrix" {
        case "saturate":
            guard let v = values else { return identity }
            guard v.count == 1, v[0] >= 0 else { return identity }
            return SVGBuilder.saturateMatrix(Float(v[0]))
        case "hueRotate":
            guard let v = values else { return identity }
            return v.count == 1 ? SVGBuilder.hueRotateMatrix(Float(v[0])) : identity
        case "luminanceToAlpha":
            return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.2125, 0.7154, 0.0721, 0, 0]
        default:
            guard let v = values, v.count == 20 else {
                if values != nil { warn("feColorMatrix values: 20 numbers expected (identity used)", at: p.offset) }
                return identity
            }
            return v.map { Float($0) }
        }
    }

    static func saturateMatrix(_ s: Float) -> [Float] {
        [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0, 0,
         0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0, 0,
         0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s, 0, 0,
         0, 0, 0, 1, 0]
    }

    static func hueRotateMatrix(_ degrees: Float) -> [Float] {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        return [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928, 0, 0,
                0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283, 0, 0,
                0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072, 0, 0,
                0, 0, 0, 1, 0]
    }

    private func transfer(_ f: XMLElement) -> SVGFilterPrimitive.Transfer {
        func v(_ name: String, _ fallback: Double) -> Float { Float(f.attribute(name).flatMap { filterNumbers($0.value)?.first } ?? fallback) }
        switch f.attribute("type")?.value.trimmingWhiteSpace() {
        case "table"?, "discrete"?:
            let values = f.attribute("tableValues").flatMap { filterNumbers($0.value) } ?? []
            if values.isEmpty { return .identity }
            let table = values.map { Float($0) }
            return f.attribute("type")?.value.trimmingWhiteSpace() == "table" ? .table(table) : .discrete(table)
        case "linear"?: return .linear(slope: v("slope", 1), intercept: v("intercept", 0))
        case "gamma"?: return .gamma(amplitude: v("amplitude", 1), exponent: v("exponent", 1), offset: v("offset", 0))
        default: return .identity
        }
    }

    private func convolve(_ p: XMLElement, edgeMode: SVGFilterPrimitive.EdgeMode) -> SVGFilterPrimitive.Convolve? {
        let order = p.attribute("order").flatMap { filterNumbers($0.value) } ?? [3]
        // Up to 16 × 16 taps: a bound on the work per pixel (the specification sets none).
        guard !order.isEmpty, order.count <= 2, order.allSatisfy({ $0 >= 1 && $0 <= 16 && $0 == $0.rounded() }) else {
            warn("feConvolveMatrix order must be one or two positive integers up to 16 (the primitive passes its input through)", at: p.offset)
            return nil
        }
        let ox = Int(order[0]), oy = Int(order.count == 2 ? order[1] : order[0])
        guard let kernel = p.attribute("kernelMatrix").flatMap({ filterNumbers($0.value) }), kernel.count == ox * oy else {
            warn("feConvolveMatrix kernelMatrix must have orderX × orderY numbers (the primitive passes its input through)", at: p.offset)
            return nil
        }
        var divisor = p.attribute("divisor").flatMap { filterNumbers($0.value)?.first } ?? 0
        if divisor == 0 { divisor = kernel.reduce(0, +) }
        if divisor == 0 { divisor = 1 }
        let tx = p.attribute("targetX").flatMap { filterNumbers($0.value)?.first }.map { Int($0) } ?? ox / 2
        let ty = p.attribute("targetY").flatMap { filterNumbers($0.value)?.first }.map { Int($0) } ?? oy / 2
        guard (0..<ox).contains(tx), (0..<oy).contains(ty) else {
            warn("feConvolveMatrix target outside the kernel (the primitive passes its input through)", at: p.offset)
            return nil
        }
        return .init(orderX: ox, orderY: oy, kernel: kernel.map { Float($0) }, divisor: Float(divisor),
                     bias: Float(p.attribute("bias").flatMap { filterNumbers($0.value)?.first } ?? 0),
                     targetX: tx, targetY: ty, edgeMode: edgeMode,
                     preserveAlpha: p.attribute("preserveAlpha")?.value.trimmingWhiteSpace() == "true")
    }

    // MARK: CSS filter functions

    /// A CSS filter function (Filter Effects 1 §13) as a one-primitive filter in sRGB over
    /// `bounds` (what the element paints), grown by what a blur or shadow reaches.
    private func cssFilter(_ item: String, bounds: CGRect, at offset: Int) -> SVGFilter? {
        guard !bounds.isNull, let open = item.firstIndex(of: "(") else { return nil }
        let name = item[..<open].lowercased()
        let argument = String(item[item.index(after: open)..<item.index(before: item.endIndex)]).trimmingWhiteSpace()
        func bad() -> SVGFilter? {
            warn("filter function \(item) is not valid (the element is not rendered)", at: offset)
            return nil
        }
        /// A number or percentage (1 when absent).
        func amount() -> Float? {
            if argument.isEmpty { return 1 }
            var scanner = SVGValueScanner(argument)
            guard let v = scanner.number() else { return nil }
            let a = scanner.consume(UInt8(ascii: "%")) ? v / 100 : v
            scanner.skipWhiteSpace()
            return scanner.isAtEnd && a >= 0 ? Float(a) : nil
        }
        /// A length in px (a unitless zero allowed).
        func lengthValue(_ text: Substring) -> CGFloat? {
            var scanner = SVGValueScanner(String(text))
            guard let v = scanner.number() else { return nil }
            let unit = scanner.letters()
            guard scanner.isAtEnd else { return nil }
            switch unit {
            case "px", "": return unit.isEmpty && v != 0 ? nil : CGFloat(v)
            case "pt": return CGFloat(v) * 4 / 3
            case "mm": return CGFloat(v) * 96 / 25.4
            case "cm": return CGFloat(v) * 96 / 2.54
            case "in": return CGFloat(v) * 96
            default: return nil
            }
        }
        var kind: SVGFilterPrimitive.Kind
        var inputs: [SVGFilterPrimitive.Input] = [.sourceGraphic]
        var reach: CGFloat = 0
        var shift = CGSize.zero
        switch name {
        case "blur":
            let sigma = argument.isEmpty ? 0 : lengthValue(Substring(argument))
            guard let sigma, sigma >= 0 else { return bad() }
            kind = sigma == 0 ? .passThrough : .blur(x: sigma, y: sigma, edge: .none)
            reach = 3 * sigma
        case "drop-shadow":
            // A colour (anywhere) and two or three lengths.
            var rest = argument
            var color = SVGColor.black
            if let paren = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")"), paren < close {
                var start = rest.startIndex
                if let space = rest[..<paren].lastIndex(where: { $0 == " " }) { start = rest.index(after: space) }
                guard let c = SVGColor(parsing: String(rest[start...close])) else { return bad() }
                color = c
                rest.removeSubrange(start...close)
            }
            var lengths: [CGFloat] = []
            for part in rest.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
                if let l = lengthValue(part) {
                    lengths.append(l)
                } else if let c = SVGColor(parsing: String(part)) {
                    color = c
                } else {
                    return bad()
                }
            }
            guard lengths.count == 2 || lengths.count == 3 else { return bad() }
            let sigma = lengths.count == 3 ? lengths[2] : 0
            guard sigma >= 0 else { return bad() }
            kind = .dropShadow(dx: lengths[0], dy: lengths[1], x: sigma, y: sigma, color: color)
            reach = 3 * sigma
            shift = CGSize(width: lengths[0], height: lengths[1])
        case "grayscale", "sepia", "saturate", "invert", "opacity", "brightness", "contrast":
            guard var a = amount() else { return bad() }
            if ["grayscale", "sepia", "invert", "opacity"].contains(name) { a = min(a, 1) }
            switch name {
            case "grayscale":
                let b = 1 - a
                kind = .colorMatrix([0.2126 + 0.7874 * b, 0.7152 - 0.7152 * b, 0.0722 - 0.0722 * b, 0, 0,
                                     0.2126 - 0.2126 * b, 0.7152 + 0.2848 * b, 0.0722 - 0.0722 * b, 0, 0,
                                     0.2126 - 0.2126 * b, 0.7152 - 0.7152 * b, 0.0722 + 0.9278 * b, 0, 0,
                                     0, 0, 0, 1, 0])
            case "sepia":
                let b = 1 - a
                kind = .colorMatrix([0.393 + 0.607 * b, 0.769 - 0.769 * b, 0.189 - 0.189 * b, 0, 0,
                                     0.349 - 0.349 * b, 0.686 + 0.314 * b, 0.168 - 0.168 * b, 0, 0,
                                     0.272 - 0.272 * b, 0.534 - 0.534 * b, 0.131 + 0.869 * b, 0, 0,
                                     0, 0, 0, 1, 0])
            case "saturate": kind = .colorMatrix(SVGBuilder.saturateMatrix(a))
            case "invert":
                let t = SVGFilterPrimitive.Transfer.table([a, 1 - a])
                kind = .componentTransfer([t, t, t, .identity])
            case "opacity": kind = .componentTransfer([.identity, .identity, .identity, .table([0, a])])
            case "brightness":
                let t = SVGFilterPrimitive.Transfer.linear(slope: a, intercept: 0)
                kind = .componentTransfer([t, t, t, .identity])
            default:
                let t = SVGFilterPrimitive.Transfer.linear(slope: a, intercept: 0.5 - 0.5 * a)
                kind = .componentTransfer([t, t, t, .identity])
            }
        case "hue-rotate":
            var scanner = SVGValueScanner(argument)
            var degrees = 0.0
            if !argument.isEmpty {
                guard let v = scanner.number() else { return bad() }
                switch scanner.letters() {
                case "deg": degrees = v
                case "rad": degrees = v * 180 / .pi
                case "grad": degrees = v * 0.9
                case "turn": degrees = v * 360
                case "": guard v == 0 else { return bad() }
                default: return bad()
                }
                guard scanner.isAtEnd else { return bad() }
            }
            kind = .colorMatrix(SVGBuilder.hueRotateMatrix(Float(degrees)))
        default:
            return bad()
        }
        if case .passThrough = kind { inputs = [.sourceGraphic] }
        var region = bounds.insetBy(dx: -reach, dy: -reach)
        region = region.union(region.offsetBy(dx: shift.width, dy: shift.height))
        return SVGFilter(region: region, primitives: [SVGFilterPrimitive(kind: kind, inputs: inputs, subregion: region, linearRGB: false)])
    }
}
