import CrispGraphics
import Foundation

// `<image>`: a PNG from a `data:` URI (base64 or percent-encoded) or from a file named relative
// to the document's own file, placed in x/y/width/height (auto: the image's own size in px)
// with `preserveAspectRatio`, clipped to that viewport when it slices. Other formats (JPEG,
// GIF, WebP, SVG) are listed as unsupported, so `crisp render` refuses the document instead of
// drawing it without them; a PNG that does not decode, or a file that cannot be read, is a
// warning and draws nothing, as a broken image does in a browser.

extension SVGBuilder {
    static let imageAttributes: Set<String> = ["x", "y", "width", "height", "href", "xlink:href", "preserveAspectRatio", "crossorigin"]

    func buildImage(_ e: XMLElement, inherited: SVGProperties, depth: Int) throws(SVGError) -> SVGRenderNode? {
        let attributes = declarations(of: e, allowed: SVGBuilder.imageAttributes)
        var properties = inherited
        var own = SVGElementProperties()
        apply(attributes.presentation, to: &properties, element: &own)
        guard own.isDisplayed, properties.isVisible, let href = attributes.value("href") ?? attributes.value("xlink:href") else { return nil }
        guard let image = loadImage(String(href.value), at: href.offset) else { return nil }
        func length(_ name: String, _ axis: Axis) -> CGFloat? {
            guard let d = attributes.value(name), d.value.trimmingWhiteSpace() != "auto" else { return nil }
            return recoveringLength(d, axis: axis)
        }
        let iw = CGFloat(image.width), ih = CGFloat(image.height)
        var w = length("width", .horizontal), h = length("height", .vertical)
        // auto: the intrinsic size, or the other side with the image's aspect ratio.
        if w == nil && h == nil { (w, h) = (iw, ih) } else if w == nil { w = h! * iw / ih } else if h == nil { h = w! * ih / iw }
        guard let width = w, let height = h, width > 0, height > 0 else { return nil }
        let viewport = CGRect(x: length("x", .horizontal) ?? 0, y: length("y", .vertical) ?? 0, width: width, height: height)
        var align = "xMidYMid", slice = false
        if let d = attributes.value("preserveAspectRatio"),
           let a = try recovering({ () throws(SVGError) in try parseAspectRatio(d) }) {
            (align, slice) = a
        }
        let place = SVGBuilder.viewBoxTransform(CGRect(x: 0, y: 0, width: iw, height: ih), size: viewport.size, align: align, slice: slice)
        let rect = CGRect(x: 0, y: 0, width: iw, height: ih).applying(place).offsetBy(dx: viewport.minX, dy: viewport.minY)
        let node = SVGRenderNode(content: .image(SVGImage(image: image, rect: rect)), transform: try transform(of: attributes, own))
        if slice {
            let box = SVGBuilder.roundedRect(x: viewport.minX, y: viewport.minY, width: width, height: height, rx: 0, ry: 0)
            node.clip = SVGClip(shapes: [SVGClipShape(path: box, rule: .winding)])
            if own.clipPath != nil {
                // The element's own clip-path then applies to a group around the clipped image.
                let outer = SVGRenderNode(content: .group([node]), transform: .identity)
                try finish(outer, element: e, own: own, depth: depth)
                return outer
            }
        }
        try finish(node, element: e, own: own, depth: depth)
        return node
    }

    /// The PNG an `href` names; nil (with a warning or an unsupported entry) otherwise.
    func loadImage(_ href: String, at offset: Int) -> CGImage? {
        let value = href.trimmingWhiteSpaceAndNewlines()
        var bytes: [UInt8]
        if value.hasPrefix("data:") {
            guard let comma = value.firstIndex(of: ",") else {
                warn(SVGError(.invalidValue(attribute: "href", value: value, reason: "a data: URI without ','"), at: location(offset)))
                return nil
            }
            let header = value[value.index(value.startIndex, offsetBy: 5)..<comma].lowercased()
            let payload = value[value.index(after: comma)...]
            let type = header.split(separator: ";").first.map(String.init) ?? ""
            guard type == "image/png" else {
                unsupported("<image> of type \(type.isEmpty ? "unknown" : type) (only PNG is drawn)", at: offset)
                return nil
            }
            if header.hasSuffix(";base64") {
                guard let data = Data(base64Encoded: String(payload), options: .ignoreUnknownCharacters) else {
                    warn(SVGError(.invalidValue(attribute: "href", value: value, reason: "invalid base64"), at: location(offset)))
                    return nil
                }
                bytes = [UInt8](data)
            } else {
                bytes = Array((payload.removingPercentEncoding ?? String(payload)).utf8)
            }
        } else {
            guard let base = baseDirectory, !value.contains("://") else {
                unsupported("<image> from \"\(value.count > 60 ? String(value.prefix(60)) + "…" : value)\" (only data: URIs and files beside the document are read)", at: offset)
                return nil
            }
            let path = value.hasPrefix("/") ? value : base + "/" + (value.removingPercentEncoding ?? value)
            guard !value.lowercased().hasSuffix(".svg") else {
                unsupported("<image> of an SVG file", at: offset)
                return nil
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                warn(SVGError(.readFailed(path: path, reason: "cannot be read (the image is not drawn)"), at: location(offset)))
                return nil
            }
            bytes = [UInt8](data)
        }
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
            unsupported("<image> that is not a PNG (only PNG is drawn)", at: offset)
            return nil
        }
        do {
            return try CGImage(pngData: bytes)
        } catch {
            warn(SVGError(.invalidValue(attribute: "href", value: String(value.prefix(40)), reason: "the PNG does not decode: \(error)"),
                          at: location(offset)))
            return nil
        }
    }
}
