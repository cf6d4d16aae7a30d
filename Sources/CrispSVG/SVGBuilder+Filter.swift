import CrispGraphics
import Foundation

// The drop-shadow recipe that designers' tools export — a blur of SourceAlpha (feGaussianBlur),
// moved (feOffset), coloured (feFlood composited `in` it with feComposite), merged under
// SourceGraphic (feMerge) — keeps a shortcut through CGContext's shadow machinery: the element is
// drawn into a transparency layer composited with a shadow of the flood colour, offset and a
// Gaussian of the same standard deviation. The primitives are followed symbolically by their
// `in`/`result` names; any other primitive, input or combination, any filter whose output is not
// "shadow under the graphic", and a filter region that could cut the shadow (only the default
// region, or larger, is accepted) go to the general graph on bitmaps (SVGBuilder+FilterGraph),
// which tries this first, silently.
//
// Rejected: a shadow per shape (overlapping shapes of a group cast one shadow in SVG).

/// A drop shadow in the filtered element's user space: offset, Gaussian standard deviation,
/// and colour (flood-opacity folded into its alpha).
@_spi(Testing) public struct SVGShadow {
    /// The offset along x.
    @_spi(Testing) public internal(set) var dx: CGFloat
    /// The offset along y.
    @_spi(Testing) public internal(set) var dy: CGFloat
    /// The Gaussian blur's standard deviation.
    @_spi(Testing) public internal(set) var sigma: CGFloat
    /// The colour, flood-opacity in its alpha.
    @_spi(Testing) public internal(set) var color: SVGColor
}

extension SVGBuilder {
    private enum FilterValue {
        case sourceGraphic
        /// SourceAlpha, blurred and offset.
        case alpha(sigma: CGFloat, dx: CGFloat, dy: CGFloat)
        case flood(SVGColor)
        case shadow(SVGShadow)
        /// The recipe's output: the shadow merged under SourceGraphic.
        case shadowUnderGraphic(SVGShadow)
    }

    /// What a `filter` reference does to an element.
    enum FilterOutcome {
        /// Nothing: a broken reference (a warning) or a filter Crisp does not draw (unsupported).
        case none
        case shadow(SVGShadow)
        /// The element is not drawn: its filter region is empty (a zero-width or zero-height box).
        case hidesElement
    }

    /// The drop shadow filter `id` stands for, in `node`'s user space.
    func dropShadow(_ id: String, at offset: Int, for node: SVGRenderNode) -> FilterOutcome {
        guard let e = referencedElement(id, at: offset, kind: "filter") else { return .none }
        func refuse(_ why: String) -> FilterOutcome {
            unsupported("filter \"\(id)\" (\(why))", at: e.offset)
            return .none
        }
        // The region: the default (−10 %, −10 %, 120 %, 120 % of the box) or larger.
        if e.attribute("filterUnits")?.value == "userSpaceOnUse" { return refuse("a filter region in user space") }
        for (name, limit, isOrigin) in [("x", -0.1, true), ("y", -0.1, true), ("width", 1.2, false), ("height", 1.2, false)] {
            guard let a = e.attribute(name) else { continue }
            var scanner = SVGValueScanner(a.value)
            scanner.skipWhiteSpace()
            guard let v = scanner.number() else { return refuse("a filter region that is not a number") }
            let fraction = scanner.consume(UInt8(ascii: "%")) ? v / 100 : v
            if isOrigin ? fraction > limit : fraction < limit { return refuse("a filter region smaller than the default") }
        }
        // The default region is a fraction of the box: none without area.
        let box = node.boundingBox
        guard !box.isNull, box.width > 0, box.height > 0 else { return .hidesElement }
        let inBox = e.attribute("primitiveUnits")?.value == "objectBoundingBox"
        func number(_ text: String?, _ scale: CGFloat) -> CGFloat? {
            guard let text else { return 0 }
            var scanner = SVGValueScanner(text)
            scanner.skipWhiteSpace()
            guard let v = scanner.number() else { return nil }
            scanner.skipWhiteSpace()
            return scanner.isAtEnd ? CGFloat(v) * (inBox ? scale : 1) : nil
        }
        var results: [String: FilterValue] = [:]
        var last: FilterValue = .sourceGraphic
        func input(_ name: String?) -> FilterValue? {
            switch name {
            case nil: return last
            case "SourceGraphic": return .sourceGraphic
            case "SourceAlpha": return .alpha(sigma: 0, dx: 0, dy: 0)
            case let n?: return results[n]
            }
        }
        for p in e.children {
            var value: FilterValue
            switch p.name {
            case "feGaussianBlur":
                guard case .alpha(0, let dx, let dy)? = input(p.attribute("in")?.value) else { return refuse("a blur of something other than SourceAlpha") }
                let parts = (p.attribute("stdDeviation")?.value ?? "0").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                guard let first = parts.first, parts.count <= 2, parts.allSatisfy({ $0 == first }),
                      let sigma = number(first, (box.width * box.height).squareRoot()),
                      sigma >= 0 else { return refuse("an anisotropic or invalid stdDeviation") }
                value = .alpha(sigma: sigma, dx: dx, dy: dy)
            case "feOffset":
                guard let dx = number(p.attribute("dx")?.value, box.width), let dy = number(p.attribute("dy")?.value, box.height) else {
                    return refuse("an invalid feOffset")
                }
                switch input(p.attribute("in")?.value) {
                case .alpha(let s, let x, let y)?: value = .alpha(sigma: s, dx: x + dx, dy: y + dy)
                case .shadow(var s)?: s.dx += dx; s.dy += dy; value = .shadow(s)
                default: return refuse("an offset of something other than the shadow")
                }
            case "feFlood":
                var properties = SVGProperties()
                var own = SVGElementProperties()
                var color = SVGColor.black, opacity = 1.0
                for a in p.attributes where a.name == "flood-color" || a.name == "flood-opacity" {
                    let d = SVGDeclaration(name: Substring(a.name), value: Substring(a.value), offset: a.valueOffset)
                    if a.name == "flood-opacity" {
                        opacity = (try? self.opacity(d)) ?? 1
                    } else if a.value.trimmingWhiteSpace() == "currentColor" {
                        apply([], to: &properties, element: &own)
                        color = properties.color
                    } else if let c = SVGColor(parsing: a.value) {
                        color = c
                    }
                }
                if let style = p.attribute("style") {
                    for d in styleDeclarations(style) {
                        if d.name == "flood-color", let c = SVGColor(parsing: String(d.value)) { color = c }
                        if d.name == "flood-opacity" { opacity = (try? self.opacity(d)) ?? 1 }
                    }
                }
                color.alpha *= opacity
                value = .flood(color)
            case "feComposite":
                guard p.attribute("operator")?.value ?? "over" == "in",
                      case .flood(let color)? = input(p.attribute("in")?.value),
                      case .alpha(let s, let dx, let dy)? = input(p.attribute("in2")?.value) else {
                    return refuse("an feComposite other than a flood `in` the shadow")
                }
                value = .shadow(SVGShadow(dx: dx, dy: dy, sigma: s, color: color))
            case "feMerge":
                let nodes = p.children.filter { $0.name == "feMergeNode" }
                guard nodes.count == 2, case .sourceGraphic? = input(nodes[1].attribute("in")?.value) else {
                    return refuse("an feMerge other than the shadow under SourceGraphic")
                }
                switch input(nodes[0].attribute("in")?.value) {
                case .shadow(let s)?: value = .shadowUnderGraphic(s)
                case .alpha(let s, let dx, let dy)?: value = .shadowUnderGraphic(SVGShadow(dx: dx, dy: dy, sigma: s, color: .black))
                default: return refuse("an feMerge other than the shadow under SourceGraphic")
                }
            case "title", "desc", "metadata":
                continue
            default:
                return refuse("<\(p.name)>")
            }
            if let name = p.attribute("result")?.value { results[name] = value }
            last = value
        }
        guard case .shadowUnderGraphic(let shadow) = last else { return refuse("its output is not a shadow under the graphic") }
        return .shadow(shadow)
    }
}
