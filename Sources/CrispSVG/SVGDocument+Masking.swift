import CrispGraphics
import Foundation

// Drawing a masked node. The node is drawn off screen into a bitmap of its device box (within
// the mask region, the current clip and the canvas), its mask's content into a second bitmap of
// the same pixels; the second becomes a coverage mask — per pixel the content's luminance
// (0.2125 R + 0.7154 G + 0.0721 B of the premultiplied sRGB values, the coefficients resvg and
// the browsers use) or its alpha — and the first is drawn through it, pixel on pixel, in device
// space. Masking the finished node, not each shape, is what SVG says: overlapping children must
// not show each other through the mask.
//
// Rejected: clipping to the mask and drawing the children through it (each shape would be
// masked, so where they overlap the lower one shows through), and a transparency layer opened
// under the mask clip (the layer's contents would be clipped and then the layer again, squaring
// the mask).

extension SVGDocument {
    static func drawMasked(_ node: SVGRenderNode, _ mask: SVGMask, in context: CGContext) {
        let parent = context.ctm
        let ctm = node.transform.concatenating(parent)
        let bounds = node.paintBounds
        guard !mask.region.isNull, !bounds.isNull, ctm.determinant != 0, ctm.determinant.isFinite else { return }
        let canvas = CGRect(x: 0, y: 0, width: context.width, height: context.height)
        let clipBox = context.boundingBoxOfClipPath.applying(parent)
        let device = bounds.intersection(mask.region).applying(ctm).intersection(clipBox).intersection(canvas)
        guard !device.isNull, device.minX.isFinite, device.minY.isFinite, device.maxX.isFinite, device.maxY.isFinite else { return }
        let x0 = device.minX.rounded(.down), y0 = device.minY.rounded(.down)
        let width = Int(device.maxX.rounded(.up) - x0), height = Int(device.maxY.rounded(.up) - y0)
        guard width > 0, height > 0,
              let content = makeContext(width: width, height: height) else { return }
        content.translateBy(x: -x0, y: -y0)
        content.concatenate(parent)
        draw(node, in: content, masking: false)
        guard let image = content.makeImage(),
              let values = coverage(of: mask, ctm: ctm, x0: x0, y0: y0, width: width, height: height) else { return }
        let rect = CGRect(x: x0, y: y0, width: CGFloat(width), height: CGFloat(height))
        let quality = context.interpolationQuality
        context.saveGState()
        context.concatenate(parent.inverted())
        context.interpolationQuality = .none
        context.clip(to: rect, mask: CGImage(width: width, height: height, pixels: values))
        context.setBlendMode(node.blendMode)
        context.draw(image, in: rect)
        context.restoreGState()
        context.interpolationQuality = quality
    }

    /// The mask's value over the device pixels (x0, y0, width × height) as white at that alpha
    /// (premultiplied: luminance × alpha = v), times the values of the `<mask>`'s own masks.
    static func coverage(of mask: SVGMask, ctm: CGAffineTransform, x0: CGFloat, y0: CGFloat, width: Int, height: Int) -> [UInt32]? {
        guard !mask.region.isNull, let maskContext = makeContext(width: width, height: height) else { return nil }
        maskContext.translateBy(x: -x0, y: -y0)
        maskContext.concatenate(ctm)
        maskContext.clip(to: mask.region)
        draw(mask.content, in: maskContext)
        guard let image = maskContext.makeImage() else { return nil }
        var values = image.pixels.map { p -> UInt32 in
            if mask.isAlpha { return p >> 24 }
            let r = Double((p >> 16) & 0xFF), g = Double((p >> 8) & 0xFF), b = Double(p & 0xFF)
            return UInt32(min(255, (0.2125 * r + 0.7154 * g + 0.0721 * b).rounded()))
        }
        for inner in mask.masks {
            guard let more = coverage(of: inner, ctm: ctm, x0: x0, y0: y0, width: width, height: height) else { return nil }
            for i in values.indices { values[i] = (values[i] * (more[i] & 0xFF) + 127) / 255 }
        }
        return values.map { v in v << 24 | v << 16 | v << 8 | v }
    }
}
