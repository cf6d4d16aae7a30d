import CrispGraphics
import Foundation

// Drawing is a walk over the render tree with one saveGState/restoreGState around each node
// that has a transform, a clip or a transparency layer. Fill and stroke colours were made when
// the document was read, so drawing allocates only what CGContext itself does, plus the masks of
// clips that need one (see SVGDocument+Clipping).
//
// A node with a layer opens it before its clip: what the layer paints back is then cut by the
// clip once, inside the layer. (Clipping first would cut twice — the layer inherits the clip and
// is composited through it — and square the clip's anti-aliased edges.)

extension SVGDocument {
    /// Draws the document in its viewport coordinates: (0, 0) top-left to `size`, y down, one
    /// unit per px — the coordinates of a view's flipped `draw(_:)` context, or of any context
    /// after the caller's own transform. Nothing outside the viewport is clipped.
    public func draw(in context: CGContext) {
        context.saveGState()
        context.setFlatness(SVGDocument.flatness)
        let host = context.ctm
        context.concatenate(viewBoxTransform)
        SVGDocument.$hostToDevice.withValue(host) { SVGDocument.draw(root, in: context) }
        context.restoreGState()
    }

    /// The document's viewport coordinates (its px) to device pixels, while it draws: the space
    /// in which `vector-effect="non-scaling-stroke"` strokes. (Off screen, device pixels differ
    /// by a translation, which does not change a stroke.) Nil outside `draw(in:)`: then base space.
    @TaskLocal static var hostToDevice: CGAffineTransform?

    /// Draws the document scaled to fill `rect` of a y-down (flipped) context, clipped to it.
    /// The aspect ratio follows `rect` (the document's own `preserveAspectRatio` applies within
    /// its viewport).
    public func draw(in context: CGContext, rect: CGRect) {
        guard size.width > 0, size.height > 0, rect.width > 0, rect.height > 0 else { return }
        context.saveGState()
        context.clip(to: rect)
        context.translateBy(x: rect.minX, y: rect.minY)
        context.scaleBy(x: rect.width / size.width, y: rect.height / size.height)
        draw(in: context)
        context.restoreGState()
    }

    /// Draws the document over the whole of a bitmap context in its default (y-up) coordinates,
    /// scaled to the context's width and height, on top of what the context holds.
    public func drawFillingBitmap(_ context: CGContext) {
        context.saveGState()
        context.translateBy(x: 0, y: CGFloat(context.height))
        context.scaleBy(x: 1, y: -1)
        draw(in: context, rect: CGRect(x: 0, y: 0, width: context.width, height: context.height))
        context.restoreGState()
    }

    /// The pixel size of a rendering at `scale` (intrinsic size × scale, rounded, at least 1).
    public func pixelSize(scale: CGFloat) -> (width: Int, height: Int) {
        (max(1, Int((size.width * scale).rounded())), max(1, Int((size.height * scale).rounded())))
    }

    /// Renders the document on a transparent background at `scale` pixels per px; nil when the
    /// size is not a valid bitmap size (over `CGContext.maximumDimension`).
    public func makeImage(scale: CGFloat = 1) -> CGImage? {
        guard scale > 0, scale.isFinite else { return nil }
        let (w, h) = pixelSize(scale: scale)
        guard let context = SVGDocument.makeContext(width: w, height: h) else { return nil }
        drawFillingBitmap(context)
        return context.makeImage()
    }

    /// Draws `node`; with `masking` false its mask is left out (SVGDocument+Masking draws the
    /// rest of the node that way, off screen), with `clipping` false its clip and opacity
    /// (SVGDocument+Shadow draws a shadow under a clip that way).
    static func draw(_ node: SVGRenderNode, in context: CGContext, masking: Bool = true, clipping: Bool = true) {
        if node.layerOpacity <= 0 { return }   // a layer at alpha 0 paints nothing
        if masking, let mask = node.mask { return drawMasked(node, mask, in: context) }
        if let filters = node.filters { return drawFiltered(node, filters, in: context, clipping: clipping) }
        if clipping, let shadow = node.shadow, let clip = node.clip { return drawShadowed(node, shadow, under: clip, in: context) }
        let clip = clipping ? node.clip : nil
        let layerOpacity = clipping ? node.layerOpacity : 1
        let blends = clipping && node.needsBlendLayer
        let hasLayer = layerOpacity < 1 || node.shadow != nil || blends
        let needsState = !node.transform.isIdentity || clip != nil || hasLayer
        if needsState {
            context.saveGState()
            context.concatenate(node.transform)
        }
        // Opacity applies to the element composited over its shadow: with both, the opacity's
        // layer holds the shadow's.
        // mix-blend-mode and isolation composite the node as a whole: one layer, with the
        // opacity's alpha, composited in the blend mode.
        let layers = (layerOpacity < 1 || blends ? 1 : 0) + (node.shadow != nil ? 1 : 0)
        if layerOpacity < 1 || blends {
            context.setAlpha(CGFloat(layerOpacity))
            if blends { context.setBlendMode(node.blendMode) }
            context.beginTransparencyLayer(in: layerOpacity < 1 ? node.layerBounds : node.paintBounds, auxiliaryInfo: nil)
        }
        if let shadow = node.shadow {
            setShadow(shadow, in: context)
            context.beginTransparencyLayer(in: node.paintBounds(clipped: clip != nil), auxiliaryInfo: nil)
        }
        if let clip { apply(clip, in: context) }
        drawContent(node, in: context)
        for _ in 0..<layers { context.endTransparencyLayer() }
        if needsState { context.restoreGState() }
    }

    /// Draws what `node` holds, in its user space, without its transform, clip, opacity or
    /// filter.
    static func drawContent(_ node: SVGRenderNode, in context: CGContext) {
        switch node.content {
        case .group(let children):
            for child in children { draw(child, in: context) }
        case .shape(let shape):
            draw(shape, in: context)
        case .image(let image):
            // Upright in SVG's y-down space: CGContext draws images upright in y-up space.
            context.saveGState()
            context.concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: image.rect.minY + image.rect.maxY))
            if !image.isSmoothed { context.interpolationQuality = .none }
            context.draw(image.image, in: image.rect)
            context.restoreGState()
        case .colorGlyphs(let run):
            // Each glyph in its text space (y up), through the toolkit's colour glyph path; the
            // alpha is one layer over all of them (drawColorGlyphs groups a run under alpha).
            guard run.alpha > 0 else { return }
            context.saveGState()
            let f = run.foreground
            context.setFillColor(CGColor(red: f.red, green: f.green, blue: f.blue, alpha: f.alpha))
            if run.alpha < 1 {
                context.setAlpha(CGFloat(run.alpha))
                context.beginTransparencyLayer(in: run.box, auxiliaryInfo: nil)
                context.setAlpha(1)
            }
            for g in run.glyphs {
                context.saveGState()
                context.concatenate(g.transform)
                context.textMatrix = .identity
                context.showGlyphs([g.glyph], at: [.zero], font: g.font)
                context.restoreGState()
            }
            if run.alpha < 1 { context.endTransparencyLayer() }
            context.restoreGState()
        }
    }

    /// Casts `shadow` (in user space) from what is drawn next: CGContext takes the offset and
    /// the blur (twice the standard deviation) in base space.
    static func setShadow(_ shadow: SVGShadow, in context: CGContext) {
        let toBase = context.ctm.concatenating(context.baseTransform.inverted())
        let offset = CGSize(width: toBase.a * shadow.dx + toBase.c * shadow.dy, height: toBase.b * shadow.dx + toBase.d * shadow.dy)
        let c = shadow.color
        context.setShadow(offset: offset, blur: 2 * shadow.sigma * abs(toBase.determinant).squareRoot(),
                          color: CGColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha))
    }

    static func draw(_ shape: SVGShape, in context: CGContext) {
        if !shape.isAntialiased { context.setShouldAntialias(false) }
        if shape.strokeFirst, shape.fill != nil, shape.stroke != nil {
            // paint-order: the stroke, then the fill over it.
            var stroke = shape, fill = shape
            stroke.fill = nil
            stroke.strokeFirst = false
            fill.stroke = nil
            fill.strokeFirst = false
            draw(stroke, in: context)
            draw(fill, in: context)
            if !shape.isAntialiased { context.setShouldAntialias(true) }
            return
        }
        if let fill = shape.fill {
            if let color = fill.cgColor {
                context.setFillColor(color)
                context.addPath(shape.path)
                context.fillPath(using: shape.fillRule)
            } else {
                // A gradient or pattern fill: clip to the shape, then paint across the clip.
                context.saveGState()
                context.addPath(shape.path)
                context.clip(using: shape.fillRule)
                draw(fill, in: context)
                context.restoreGState()
            }
        }
        if let stroke = shape.stroke, shape.strokeStyle.isNonScaling, let outline = nonScalingOutline(shape.path, shape.strokeStyle, in: context) {
            // vector-effect="non-scaling-stroke": the outline stroked in the canvas's space,
            // filled in the element's (so paint servers stay in its user space).
            if let color = stroke.cgColor {
                context.setFillColor(color)
                context.addPath(outline)
                context.fillPath(using: .winding)
            } else {
                context.saveGState()
                context.addPath(outline)
                context.clip(using: .winding)
                draw(stroke, in: context)
                context.restoreGState()
            }
        } else if let stroke = shape.stroke {
            let style = shape.strokeStyle
            context.setLineWidth(style.width)
            context.setLineCap(style.cap)
            context.setLineJoin(style.join)
            context.setMiterLimit(style.miterLimit)
            context.setLineDash(phase: style.dashOffset, lengths: style.dashes)
            if let color = stroke.cgColor {
                context.setStrokeColor(color)
                context.addPath(shape.path)
                context.strokePath()
            } else {
                // A gradient or pattern stroke: clip to the stroke's outline, then paint.
                context.saveGState()
                context.addPath(shape.path)
                context.replacePathWithStrokedPath()
                context.clip(using: .winding)
                draw(stroke, in: context)
                context.restoreGState()
            }
        }
        if !shape.isAntialiased { context.setShouldAntialias(true) }
    }

    /// The outline of a non-scaling stroke in the current user space: the path mapped to the
    /// host space (the document's viewport coordinates, `hostToDevice`), dashed and stroked there
    /// with the style's own numbers, then mapped back. Nil when the CTM cannot be inverted.
    static func nonScalingOutline(_ path: CGPath, _ style: SVGStrokeStyle, in context: CGContext) -> CGPath? {
        var toCanvas = context.ctm.concatenating((hostToDevice ?? context.baseTransform).inverted())
        guard toCanvas.determinant != 0, toCanvas.determinant.isFinite, var back = Optional(toCanvas.inverted()),
              let host = path.copy(using: &toCanvas) else { return nil }
        let dashed = style.dashes.isEmpty ? host : host.copy(dashingWithPhase: style.dashOffset, lengths: style.dashes)
        let outline = dashed.copy(strokingWithWidth: style.width, lineCap: style.cap, lineJoin: style.join, miterLimit: style.miterLimit)
        return outline.copy(using: &back)
    }

    /// Paints a gradient or pattern across the current clip.
    static func draw(_ paint: SVGPaintInstance, in context: CGContext) {
        switch paint.paint {
        case .color: break
        case .gradient(let plan): draw(plan, opacity: paint.opacity, in: context)
        case .pattern(let pattern): draw(pattern, opacity: paint.opacity, in: context)
        }
    }

    /// Paints a gradient across the current clip.
    static func draw(_ plan: SVGGradientPlan, opacity: Double, in context: CGContext) {
        context.setAlpha(min(max(opacity, 0), 1))
        context.concatenate(plan.toUser)
        let pad: CGGradientDrawingOptions = [.drawsBeforeStartLocation, .drawsAfterEndLocation]
        switch plan.geometry {
        case .linear(let start, let end):
            context.drawLinearGradient(plan.gradient, start: start, end: end, options: pad)
        case .radial(let startCenter, let startRadius, let endCenter, let endRadius):
            context.drawRadialGradient(plan.gradient, startCenter: startCenter, startRadius: startRadius,
                                       endCenter: endCenter, endRadius: endRadius, options: pad)
        }
    }
}
