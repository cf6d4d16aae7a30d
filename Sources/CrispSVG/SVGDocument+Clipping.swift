import CrispGraphics
import Foundation

// Applying an SVGClip to a context. An intersection is a sequence of clips (CGContext clips
// always intersect). A union of one shape is a path clip. A union of several is exact as one
// path clip only when no device pixel is touched by two of the shapes and they share a rule:
// then every pixel's coverage comes from one shape, as it would in a mask. Otherwise the union
// is drawn into a coverage mask — white shapes, source-over, on a transparent bitmap the size of
// the union's device box — and clipped to with `clip(to:mask:)`. Source-over makes the union's
// coverage 1 − Π(1 − cᵢ), which is also what resvg's clip pixmap computes.
//
// Rejected: one path clip for every union. Two shapes under different rules cannot share a
// path; overlapping ones would be summed by the winding rule (opposite orientations cancel, and
// anti-aliased coverage of two edges in one pixel adds instead of unioning).

extension SVGDocument {
    /// Intersects the context's clip with `clip` (in user space).
    static func apply(_ clip: SVGClip, in context: CGContext) {
        clipToUnion(of: clip.shapes, in: context)
        for c in clip.intersected { apply(c, in: context) }
    }

    /// Intersects the context's clip with the union of `shapes`.
    private static func clipToUnion(of shapes: [SVGClipShape], in context: CGContext) {
        if shapes.count == 1 {
            context.addPath(shapes[0].path)
            context.clip(using: shapes[0].rule)
            for c in shapes[0].clip { apply(c, in: context) }
        } else if let rule = sharedRuleOfPixelDisjointShapes(shapes, ctm: context.ctm) {
            let union = CGMutablePath()
            for s in shapes { union.addPath(s.path) }
            context.addPath(union)
            context.clip(using: rule)
        } else {
            clipToMask(of: shapes, in: context)
        }
    }

    /// Clips everything away.
    private static func clipToNothing(_ context: CGContext) {
        context.clip(to: CGRect.zero)
    }

    /// Most shapes compared pairwise for the one-path case; bigger unions go to a mask.
    private static let maximumPairwiseShapes = 32

    /// The rule every shape uses, when no device pixel is touched by two shapes (none of them
    /// with a clip of its own, which a path cannot carry); nil otherwise — and for an empty list.
    private static func sharedRuleOfPixelDisjointShapes(_ shapes: [SVGClipShape], ctm: CGAffineTransform) -> CGPathFillRule? {
        guard let rule = shapes.first?.rule, shapes.count <= maximumPairwiseShapes,
              shapes.allSatisfy({ $0.rule == rule && $0.clip.isEmpty }) else { return nil }
        // Pixel boxes in base space (y up): pixel edges are at integers there as in raster space.
        var boxes: [CGRect] = []
        for s in shapes {
            let b = s.path.boundingBoxOfPath.applying(ctm)
            guard b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { return nil }
            boxes.append(CGRect(x: b.minX.rounded(.down), y: b.minY.rounded(.down),
                                width: b.maxX.rounded(.up) - b.minX.rounded(.down), height: b.maxY.rounded(.up) - b.minY.rounded(.down)))
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let a = boxes[i], b = boxes[j]
                if a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY { return nil }
            }
        }
        return rule
    }

    /// Clips to the union of `shapes` through a coverage mask, in device pixels.
    private static func clipToMask(of shapes: [SVGClipShape], in context: CGContext) {
        let ctm = context.ctm
        guard !shapes.isEmpty, ctm.determinant != 0, ctm.determinant.isFinite else { return clipToNothing(context) }
        // The mask covers the union's device box within the current clip, on whole pixels.
        var box = CGRect.null
        for s in shapes { box = box.including(s.path.boundingBoxOfPath) }
        let canvas = CGRect(x: 0, y: 0, width: context.width, height: context.height)
        let clipBox = context.boundingBoxOfClipPath.applying(ctm)
        let device = box.applying(ctm).intersection(clipBox).intersection(canvas)
        guard !device.isNull, device.minX.isFinite, device.minY.isFinite, device.maxX.isFinite, device.maxY.isFinite else {
            return clipToNothing(context)
        }
        let x0 = device.minX.rounded(.down), y0 = device.minY.rounded(.down)
        let width = Int(device.maxX.rounded(.up) - x0), height = Int(device.maxY.rounded(.up) - y0)
        guard width > 0, height > 0, let mask = SVGDocument.makeContext(width: width, height: height) else { return clipToNothing(context) }
        mask.translateBy(x: -x0, y: -y0)
        mask.concatenate(ctm)
        mask.setFillColor(CGColor(gray: 1, alpha: 1))
        for s in shapes {
            mask.saveGState()
            for c in s.clip { apply(c, in: mask) }
            mask.addPath(s.path)
            mask.fillPath(using: s.rule)
            mask.restoreGState()
        }
        guard let image = mask.makeImage() else { return clipToNothing(context) }
        // Clip in base space, where the mask's pixels are the device's; nearest sampling, since
        // they line up exactly.
        let quality = context.interpolationQuality
        context.interpolationQuality = .none
        context.concatenate(ctm.inverted())
        context.clip(to: CGRect(x: x0, y: y0, width: CGFloat(width), height: CGFloat(height)), mask: image)
        context.concatenate(ctm)
        context.interpolationQuality = quality
    }
}
