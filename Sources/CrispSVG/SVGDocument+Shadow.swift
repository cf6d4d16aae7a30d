import CrispGraphics
import Foundation

// A drop shadow on an element that is also clipped. SVG applies the filter first, then the
// clip, then opacity: the shadow is cast by the whole, unclipped element, and the clip then cuts
// the element and its shadow alike. A CGContext transparency layer inherits the clip, so a
// shadow layer opened under the clip would be cast by the clipped element (wrong near the clip's
// edge), and one opened before the clip would not be cut at all. So the element is drawn with
// its shadow, unclipped, into a bitmap of the device pixels the clip can show, and that bitmap
// is drawn through the clip, pixel on pixel, with the element's opacity.

extension SVGDocument {
    /// How far one user unit reaches on the device at most.
    private static func scale(_ t: CGAffineTransform) -> CGFloat {
        max((t.a * t.a + t.b * t.b).squareRoot(), (t.c * t.c + t.d * t.d).squareRoot())
    }

    static func drawShadowed(_ node: SVGRenderNode, _ shadow: SVGShadow, under clip: SVGClip, in context: CGContext) {
        let parent = context.ctm
        let ctm = node.transform.concatenating(parent)
        let bounds = node.paintBounds(clipped: false)
        let clipBox = clip.boundingBox
        guard !bounds.isNull, !clipBox.isNull, ctm.determinant != 0, ctm.determinant.isFinite else { return }
        let canvas = CGRect(x: 0, y: 0, width: context.width, height: context.height)
        let visible = context.boundingBoxOfClipPath.applying(parent)
        // What the clip can show, grown by the shadow's reach: the element beyond the clip's
        // box still casts its shadow into it.
        let reachX = abs(shadow.dx) + 3 * shadow.sigma, reachY = abs(shadow.dy) + 3 * shadow.sigma
        let device = bounds.intersection(clipBox.insetBy(dx: -reachX, dy: -reachY)).applying(ctm)
            .intersection(visible.insetBy(dx: -reachX * SVGDocument.scale(ctm), dy: -reachY * SVGDocument.scale(ctm)))
            .intersection(canvas.insetBy(dx: -reachX * SVGDocument.scale(ctm), dy: -reachY * SVGDocument.scale(ctm)))
        guard !device.isNull, device.minX.isFinite, device.minY.isFinite, device.maxX.isFinite, device.maxY.isFinite else { return }
        let x0 = device.minX.rounded(.down), y0 = device.minY.rounded(.down)
        let width = Int(device.maxX.rounded(.up) - x0), height = Int(device.maxY.rounded(.up) - y0)
        guard width > 0, height > 0, let content = makeContext(width: width, height: height) else { return }
        // The same base space as the context's (the shadow's offset and blur are given in it),
        // moved to the bitmap's pixels; the CTM is then the context's, moved likewise.
        let base = context.baseTransform
        content.setBaseTransform(base.concatenating(CGAffineTransform(translationX: -x0, y: -y0)))
        content.concatenate(parent.concatenating(base.inverted()))
        draw(node, in: content, masking: false, clipping: false)
        guard let image = content.makeImage() else { return }
        let rect = CGRect(x: x0, y: y0, width: CGFloat(width), height: CGFloat(height))
        let quality = context.interpolationQuality
        context.saveGState()
        context.concatenate(node.transform)
        apply(clip, in: context)
        context.concatenate(ctm.inverted())
        context.interpolationQuality = .none
        context.setAlpha(CGFloat(node.layerOpacity))
        context.setBlendMode(node.blendMode)
        context.draw(image, in: rect)
        context.restoreGState()
        context.interpolationQuality = quality
    }
}
