import CrispGraphics
import Foundation

// `mask="url(#m)"`: the <mask> element's children built as a group in the masked element's
// user space — through its bounding box when maskContentUnits="objectBoundingBox" — and the
// mask region (x, y, width, height: −10 %, −10 %, 120 %, 120 % of the bounding box by default,
// maskUnits="objectBoundingBox"). A mask built for each element that uses it, like clip paths,
// because both units may depend on that element's box. A reference that is missing or not to a
// <mask> is as if absent; one leading back to itself is too (a warning each). A `mask` on the
// <mask> element masks the mask in turn.

extension SVGBuilder {
    static let maskAttributes: Set<String> = ["x", "y", "width", "height", "maskUnits", "maskContentUnits"]

    /// The mask `id` for `node`; nil when the reference cannot be used (with a warning). A mask
    /// that lets nothing through has a null region.
    func mask(_ id: String, at offset: Int, for node: SVGRenderNode, depth: Int) throws(SVGError) -> SVGMask? {
        guard let e = referencedElement(id, at: offset, kind: "mask") else { return nil }
        guard resolvingDepth < SVGBuilder.maximumClipNesting else {
            throw SVGError(.limitExceeded("clip paths and masks nested more than \(SVGBuilder.maximumClipNesting) deep"), at: location(offset))
        }
        return try recovering { () throws(SVGError) in try resolvingReference(id, at: offset) { () throws(SVGError) -> SVGMask in
            let attributes = declarations(of: e, allowed: SVGBuilder.maskAttributes)
            var properties = SVGProperties()
            var own = SVGElementProperties()
            apply(attributes.presentation, to: &properties, element: &own)
            let regionInBox = isObjectBoundingBox(attributes.value("maskUnits"), default: true)
            let contentInBox = isObjectBoundingBox(attributes.value("maskContentUnits"), default: false)
            let isAlpha = own.maskIsAlpha
            let box = node.boundingBox
            let hasBox = !box.isNull && box.width > 0 && box.height > 0
            // The region: fractions (or %) of the box, or user-space lengths.
            func value(_ name: String, _ axis: Axis, _ fallback: CGFloat) -> CGFloat {
                guard let d = attributes.value(name) else { return regionInBox ? fallback : fallback * (axis == .horizontal ? viewport.width : viewport.height) }
                do throws(SVGError) {
                    if regionInBox {
                        var scanner = SVGValueScanner(String(d.value))
                        scanner.skipWhiteSpace()
                        guard let n = scanner.number() else { throw invalid(d, "expected a number or percentage") }
                        return scanner.consume(UInt8(ascii: "%")) ? CGFloat(n) / 100 : CGFloat(n)
                    }
                    return try length(d, axis: axis)
                } catch {
                    warn(error)
                    return regionInBox ? fallback : fallback * (axis == .horizontal ? viewport.width : viewport.height)
                }
            }
            var region = CGRect(x: value("x", .horizontal, -0.1), y: value("y", .vertical, -0.1),
                                width: value("width", .horizontal, 1.2), height: value("height", .vertical, 1.2))
            let boxTransform = hasBox ? CGAffineTransform(a: box.width, b: 0, c: 0, d: box.height, tx: box.minX, ty: box.minY) : .identity
            if regionInBox { region = hasBox ? region.applying(boxTransform) : .null }
            var children: [SVGRenderNode] = []
            if contentInBox && !hasBox {
                region = .null
            } else {
                for child in e.children {
                    if let built = try buildNode(child, inherited: properties, depth: depth + 1) { children.append(built) }
                }
            }
            let content = SVGRenderNode(content: .group(children), transform: contentInBox ? boxTransform : .identity)
            var result = SVGMask(content: content, region: region.isNull || region.width <= 0 || region.height <= 0 ? .null : region,
                                 isAlpha: isAlpha)
            // A mask on the <mask>: resolved for the same element, it masks what this mask lets
            // through (the two multiply, as in resvg). One leading back to a mask being resolved
            // is as if absent (a warning).
            if let nested = own.mask, let inner = try mask(nested.id, at: nested.offset, for: node, depth: depth + 1) {
                result.masks = [inner]
            }
            return result
        } }
    }
}
