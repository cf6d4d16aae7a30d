import CrispGraphics
import Foundation

// `<image>`: a raster image (PNG, JPEG, GIF's first frame, WebP; see SVGRasterDecoder) or an SVG
// document, from a `data:` URI (base64 or percent-encoded) or from a file named relative to the
// document's own file, placed in x/y/width/height (auto: the image's own size in px) with
// `preserveAspectRatio`, clipped to that viewport when it slices. The format is found from the
// bytes. An SVG image is drawn as vectors (its own viewport placed like a raster image's and
// clipped to it), read as its own document: its ids and style sheets are its own, and its own
// images are read too, down to `maximumImageNesting` documents deep and at most
// `SVGImageBudget.maximumDocuments` documents for one file (beyond either, the image is skipped
// with a warning, so a file that names itself is harmless). An image that does not decode, or a
// file that cannot be read, is a warning and draws nothing, as a broken image does in a browser.
// URLs (http:, https:, …) are never downloaded: a warning, and the image is not drawn.

/// The SVG documents one file may read as `<image>`s, shared by the file and its images.
final class SVGImageBudget {
    /// Most SVG documents read as images for one file, at every depth together.
    static let maximumDocuments = 64
    var documentsRead = 0
}

/// What an `href` of `<image>` or `feImage` gave.
enum SVGLoadedImage {
    case raster(CGImage)
    case vector(SVGDocument)

    /// The intrinsic size in px.
    var size: CGSize {
        switch self {
        case .raster(let image): return CGSize(width: image.width, height: image.height)
        case .vector(let document): return document.size
        }
    }
}

extension SVGBuilder {
    static let imageAttributes: Set<String> = ["x", "y", "width", "height", "href", "xlink:href", "preserveAspectRatio", "crossorigin"]
    /// Most SVG documents drawn one inside the other through `<image>` (the file itself is 0).
    static let maximumImageNesting = 3

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
        let iw = image.size.width, ih = image.size.height
        guard iw > 0, ih > 0 else { return nil }
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
        let placed = SVGBuilder.placedImage(image, in: viewport, align: align, slice: slice, smoothed: properties.imageIsSmoothed)
        let elementTransform = try transform(of: attributes, own)
        let node: SVGRenderNode
        if case .image = placed.content {
            placed.transform = elementTransform
            node = placed
        } else {
            node = SVGRenderNode(content: .group([placed]), transform: elementTransform)
        }
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

    /// `image` fitted into `viewport` by `preserveAspectRatio`: a raster image node, or a group
    /// drawing an SVG document's tree in its own viewport, clipped to it. (A slice's cut to
    /// `viewport` is the caller's.)
    static func placedImage(_ image: SVGLoadedImage, in viewport: CGRect, align: String, slice: Bool, smoothed: Bool) -> SVGRenderNode {
        let size = image.size
        let place = SVGBuilder.viewBoxTransform(CGRect(origin: .zero, size: size), size: viewport.size, align: align, slice: slice)
        switch image {
        case .raster(let raster):
            let rect = CGRect(origin: .zero, size: size).applying(place).offsetBy(dx: viewport.minX, dy: viewport.minY)
            return SVGRenderNode(content: .image(SVGImage(image: raster, rect: rect, isSmoothed: smoothed)), transform: .identity)
        case .vector(let document):
            let content = SVGRenderNode(content: .group([document.root]), transform: document.viewBoxTransform)
            let frame = SVGRenderNode(content: .group([content]),
                                      transform: place.concatenating(CGAffineTransform(translationX: viewport.minX, y: viewport.minY)))
            let box = SVGBuilder.roundedRect(x: 0, y: 0, width: size.width, height: size.height, rx: 0, ry: 0)
            frame.clip = SVGClip(shapes: [SVGClipShape(path: box, rule: .winding)])
            return frame
        }
    }

    /// The image an `href` names; nil (with a warning) otherwise.
    func loadImage(_ href: String, at offset: Int) -> SVGLoadedImage? {
        let value = href.trimmingWhiteSpaceAndNewlines()
        let shown = value.count > 60 ? String(value.prefix(60)) + "…" : value
        func skip(_ reason: String) -> SVGLoadedImage? {
            warn(SVGError(.invalidValue(attribute: "href", value: shown, reason: reason + " (the image is not drawn)"), at: location(offset)))
            return nil
        }
        var bytes: [UInt8]
        var directory = baseDirectory
        if value.hasPrefix("data:") {
            guard let comma = value.firstIndex(of: ",") else { return skip("a data: URI without ','") }
            let header = value[value.index(value.startIndex, offsetBy: 5)..<comma].lowercased()
            let payload = value[value.index(after: comma)...]
            if header.hasSuffix(";base64") {
                guard let data = Data(base64Encoded: String(payload), options: .ignoreUnknownCharacters) else {
                    return skip("invalid base64")
                }
                bytes = [UInt8](data)
            } else {
                bytes = Array((payload.removingPercentEncoding ?? String(payload)).utf8)
            }
        } else {
            if let colon = value.firstIndex(of: ":"), value[..<colon].count > 1,
               value[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
                // A URL (http:, https:, ftp:, file:, …): never downloaded, as resvg does not.
                return skip("a URL: Crisp downloads nothing at run time; only data: URIs and files beside the document are read")
            }
            guard let base = baseDirectory else {
                return skip("a file, but the document was not read from a file (no directory to find it in)")
            }
            let path = value.hasPrefix("/") ? value : base + "/" + (value.removingPercentEncoding ?? value)
            guard let data = FileManager.default.contents(atPath: path) else {
                warn(SVGError(.readFailed(path: path, reason: "cannot be read (the image is not drawn)"), at: location(offset)))
                return nil
            }
            guard data.count <= SVGDocument.maximumInputSize else {
                return skip("the file is \(data.count) bytes; at most \(SVGDocument.maximumInputSize) are read")
            }
            bytes = [UInt8](data)
            directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        }
        guard let format = SVGRasterFormat(sniffing: bytes) else {
            return skip(bytes.starts(with: [0x1F, 0x8B]) ? "gzip-compressed data (svgz) is not read" : "not a PNG, JPEG, GIF, WebP or SVG image")
        }
        if format == .svg { return loadDocument(bytes, directory: directory, at: offset, skip: skip) }
        switch SVGRasterDecoder.decode(bytes, format: format) {
        case .success(let image): return .raster(image)
        case .failure(let error): return skip(error.description)
        }
    }

    /// An SVG image, read as a document of its own within the nesting and document bounds; its
    /// unsupported features are the file's, its warnings summed up in one.
    private func loadDocument(_ bytes: [UInt8], directory: String?, at offset: Int, skip: (String) -> SVGLoadedImage?) -> SVGLoadedImage? {
        guard imageNesting < SVGBuilder.maximumImageNesting else {
            return skip("SVG images nested more than \(SVGBuilder.maximumImageNesting) deep")
        }
        guard imageBudget.documentsRead < SVGImageBudget.maximumDocuments else {
            return skip("more than \(SVGImageBudget.maximumDocuments) SVG images in one document")
        }
        imageBudget.documentsRead += 1
        let document: SVGDocument
        do {
            document = try SVGDocument(data: bytes, baseDirectory: directory, fontSource: fontSource,
                                       imageNesting: imageNesting + 1, imageBudget: imageBudget)
        } catch {
            return skip("the SVG image is not read: \(error)")
        }
        for feature in document.unsupportedFeatures { unsupported("in an SVG <image>: \(feature.reason)", at: offset) }
        if !document.warnings.isEmpty {
            let first = document.warnings[0]
            warn("an SVG <image> has \(document.warnings.reduce(0) { $0 + $1.count }) warning(s), the first: \(first.location): \(first.message)",
                 at: offset)
        }
        return .vector(document)
    }
}
