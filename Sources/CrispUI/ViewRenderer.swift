import CrispGraphics
import Foundation

// Drawing a view tree into a context: the window's frames (`Window.renderFrame(into:)`) and
// `Layer.render(in:)` both come here. For each view: alpha, its layer's shadow, the clip to
// its (rounded) bounds if asked, its background and `draw(_:)` for the part of the dirty area
// that opaque subviews do not cover — or a copy of its cached contents — then its subviews in
// their own coordinates (translation, or the full transform), then its layer's border.
//
// A view inside its own `draw(_:)` may render an ancestor (a loupe magnifying what is around
// it). Reaching that view again, the renderer does not call its `draw(_:)` — that would
// recurse — but paints the pixels it showed on screen at the end of the last frame (nothing
// the first time). The window keeps those pixels only for views this has happened to.

/// Draws view trees into one context.
final class ViewRenderer {
    let context: CGContext
    /// Whether this draws the window's screen (so views that render themselves get their
    /// appearance kept), rather than an offscreen `Layer.render(in:)`.
    let isOnScreen: Bool
    /// Views drawn on screen whose appearance is to be kept for their own renders.
    private(set) var drawnViewsKeepingAppearance: [View] = []
    /// Notes what a debug overlay marks (the window's frames with an overlay only).
    var recorder: OverlayRecorder?
    /// Whether the last `cachedLook(of:)` came from the cache rather than being drawn now.
    private var lastLookWasHit = false

    init(context: CGContext, isOnScreen: Bool) {
        self.context = context
        self.isOnScreen = isOnScreen
    }

    /// Draws `view` and its subviews; the context's user space is the view's coordinates and
    /// `dirty` the area to repaint in them.
    func draw(_ view: View, dirty: CGRect, alpha parentAlpha: CGFloat) {
        let alpha = parentAlpha * view.alpha
        guard !view.isHidden, alpha > 0 else { return }
        let layer = view.layer
        if layer.isDrawing {
            layer.keepsLastAppearance = true
            drawLastAppearance(of: view)
            return
        }
        context.saveGState()
        context.setAlpha(alpha)
        let bounds = view.bounds
        // A cached look holds the shadow and the (clipped) contents together.
        let look = cachedLook(of: view)
        if let recorder {
            recorder.recordView(view, bounds: bounds, transform: context.ctm, alpha: alpha,
                                fromCache: look != nil && lastLookWasHit)
        }
        if let look {
            drawImage(look.image, in: look.rect)
        } else if layer.castsShadow {
            drawShadow(of: view, contents: nil)
        }
        var area = dirty
        let roundedBounds = layer.roundedBoundsPath()
        if view.clipsToBounds {
            if let roundedBounds {
                context.addPath(roundedBounds)
                context.clip()
            } else {
                context.clip(to: bounds)
            }
            area = dirty.intersection(bounds)
        }
        let own = dirty.intersection(bounds)
        if look == nil, !own.isNull, !own.isEmpty {
            // Occlusion culling: what opaque subviews will cover need not be drawn. Only
            // pixel-aligned covers count, so the clip stays a set of pixel rectangles.
            var visible = [own]
            for sub in view.subviews where sub.coversFrameOpaquely {
                let cover = sub.frame
                let device = context.convertToDeviceSpace(cover)
                guard device == device.integral, cover.intersects(own) else { continue }
                visible = visible.flatMap { $0.subtracting(cover) }
                if visible.isEmpty { break }
            }
            // One pass per visible piece, each clipped to one rectangle (a rectangle clip costs
            // nothing; a clip to several rectangles would rasterize a mask).
            for piece in visible {
                context.saveGState()
                if piece != own { context.clip(to: piece) }
                drawOwnContents(of: view, in: context, rect: piece, roundedBounds: roundedBounds)
                context.restoreGState()
            }
        }
        if !area.isNull, !area.isEmpty {
            for sub in view.subviews where !sub.isHidden && sub.visibleFrameInSuperview.intersects(area) {
                drawSubview(sub, dirty: area, alpha: alpha)
            }
        }
        drawBorder(of: view)
        context.restoreGState()
        // Checked after drawing: the view's first self-render has only just marked it.
        if isOnScreen, layer.keepsLastAppearance, !drawnViewsKeepingAppearance.contains(where: { $0 === view }) {
            drawnViewsKeepingAppearance.append(view)
        }
    }

    /// The background (rounded by the layer's corner radius) and `draw(rect)` of `view`, into
    /// `context` (whose user space is the view's coordinates).
    private func drawOwnContents(of view: View, in context: CGContext, rect: CGRect, roundedBounds: CGPath?) {
        if let background = view.backgroundColor {
            context.setFillColor(background)
            if let roundedBounds {
                context.addPath(roundedBounds)
                context.fillPath()
            } else {
                context.fill(view.bounds)
            }
        }
        let layer = view.layer
        let depth = context.gStateDepth
        layer.isDrawing = true
        view.draw(rect)
        layer.isDrawing = false
        // As UIKit: a `draw` that saved more graphics states than it restored is tidied up.
        while context.gStateDepth > depth { context.restoreGState() }
    }

    // MARK: Cached contents

    /// The view's look from its window's cache — its layer's shadow and its contents, clipped
    /// as the layer says — and the rectangle it fills (view coordinates), when it caches its
    /// contents and is drawn upright at the screen's scale (a translation at the screen scale,
    /// y flipped); else nil.
    ///
    /// The bitmap lies on the frame's pixel grid, so it is copied pixel for pixel. A view whose
    /// origin is off whole pixels (a physical-size window's scale of 1.45, or a view placed at a
    /// fraction of a pixel) is drawn into it at that same fraction of a pixel as on screen, and
    /// the bitmap is kept for that fraction: without it, such views were drawn from their
    /// vectors every frame (the bubbles screen at physical size: 26 ms a frame).
    ///
    /// Keeping the shadow in the bitmap is what makes a cached view cheap to put back: a blurred
    /// shadow costs far more than copying its pixels. An offscreen `Layer.render(in:)` at the
    /// screen's scale uses the same bitmaps (as Core Animation renders a layer's `contents`), so
    /// it shows exactly what the window shows — a loupe's snapshot — without drawing them again.
    private func cachedLook(of view: View) -> (image: CGImage, rect: CGRect)? {
        guard view.layer.cachesContents, let window = view.window else { return nil }
        let s = window.screen.scale
        let t = context.ctm
        guard t.a == s, t.d == -s, t.b == 0, t.c == 0 else { return nil }
        let bounds = view.bounds
        let origin = CGPoint(x: bounds.minX, y: bounds.minY).applying(t)
        var drawn = false
        if origin.x == origin.x.rounded(), origin.y == origin.y.rounded() {
            let rect = lookRect(of: view, scale: s)
            guard let image = window.contentsCache.image(for: view, bounds: bounds, scale: s, phase: .zero, render: {
                drawn = true
                return renderLook(of: view, in: rect, scale: s)
            }) else { return nil }
            lastLookWasHit = !drawn
            return (image, rect)
        }
        let phase = CGPoint(x: origin.x - origin.x.rounded(.down), y: origin.y - origin.y.rounded(.down))
        let look = Self.onPixelGrid(view.layer.castsShadow ? view.visibleBounds : bounds, t)
        let contents = Self.onPixelGrid(bounds, t)
        guard let image = window.contentsCache.image(for: view, bounds: bounds, scale: s, phase: phase, render: {
            drawn = true
            return renderLook(of: view, in: look, scale: s, contentsIn: contents)
        }) else { return nil }
        lastLookWasHit = !drawn
        return (image, look.rect)
    }

    /// The smallest rectangle of whole device pixels (under `t`, which scales and translates)
    /// holding `r`: in view coordinates, and its size in pixels (counted in device space, so
    /// rounding on the way back cannot add a pixel).
    private static func onPixelGrid(_ r: CGRect, _ t: CGAffineTransform) -> (rect: CGRect, width: Int, height: Int) {
        let d = r.applying(t)
        // A hair's tolerance: an edge that is a whole pixel but for rounding stays where it is.
        let x0 = (d.minX + 1e-7).rounded(.down), y0 = (d.minY + 1e-7).rounded(.down)
        let x1 = (d.maxX - 1e-7).rounded(.up), y1 = (d.maxY - 1e-7).rounded(.up)
        let grid = CGRect(x: x0, y: y0, width: max(x1 - x0, 0), height: max(y1 - y0, 0))
        return (grid.applying(t.inverted()), Int(grid.width), Int(grid.height))
    }

    /// The area a cached look covers: the bounds, grown by the shadow's reach to whole device
    /// pixels from the bounds' origin.
    private func lookRect(of view: View, scale s: CGFloat) -> CGRect {
        let b = view.bounds
        guard view.layer.castsShadow else { return b }
        let v = view.visibleBounds
        func snap(_ x: CGFloat, from o: CGFloat, _ rule: FloatingPointRoundingRule) -> CGFloat { o + ((x - o) * s).rounded(rule) / s }
        let x0 = snap(v.minX, from: b.minX, .down), y0 = snap(v.minY, from: b.minY, .down)
        let x1 = snap(v.maxX, from: b.minX, .up), y1 = snap(v.maxY, from: b.minY, .up)
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The view's shadow (when its layer casts one) and its background and drawing, clipped to
    /// its (rounded) bounds when it clips, rendered alone into a bitmap of `rect` at `scale`
    /// pixels per point.
    ///
    /// `grid`: for a view off whole pixels, the bitmap's rectangle on the screen's pixel grid
    /// and the view's bounds grown to it (`onPixelGrid`), each with its size in pixels; `rect`
    /// is then `look.rect`.
    private func renderLook(of view: View, in rect: CGRect, scale s: CGFloat,
                            contentsIn grid: (rect: CGRect, width: Int, height: Int)? = nil) -> CGImage? {
        renderLook(of: view, in: (rect, 0, 0), scale: s, contentsIn: grid)
    }

    private func renderLook(of view: View, in look: (rect: CGRect, width: Int, height: Int), scale s: CGFloat,
                            contentsIn grid: (rect: CGRect, width: Int, height: Int)?) -> CGImage? {
        let layer = view.layer
        let rect = look.rect
        var contents: CGImage?
        if layer.castsShadow && layer.shadowPath == nil {
            contents = grid.map { renderContents(of: view, in: $0, scale: s) } ?? renderContents(of: view, scale: s)
        }
        let size = grid == nil ? nil : (look.width, look.height)
        guard let offscreen = Self.uiKitContext(for: rect, scale: s, pixels: size) else { return nil }
        GraphicsContextStack.current.push(offscreen, scale: s)
        defer { UIGraphicsPopContext() }
        let renderer = ViewRenderer(context: offscreen, isOnScreen: false)
        if layer.castsShadow { renderer.drawShadow(of: view, contents: contents, at: grid?.rect.origin) }
        let roundedBounds = layer.roundedBoundsPath()
        if view.clipsToBounds {
            if let roundedBounds {
                offscreen.addPath(roundedBounds)
                offscreen.clip()
            } else {
                offscreen.clip(to: view.bounds)
            }
        }
        if let contents {
            renderer.drawImage(contents, in: Self.rect(of: contents, at: grid?.rect.origin ?? view.bounds.origin, scale: s))
        } else {
            drawOwnContents(of: view, in: offscreen, rect: view.bounds, roundedBounds: roundedBounds)
        }
        return offscreen.makeImage()
    }

    /// The view's background and drawing, rendered alone into a bitmap of its bounds at `scale`
    /// pixels per point (a UIKit context, so its shadows fall as on screen).
    private func renderContents(of view: View, scale s: CGFloat) -> CGImage? {
        renderContents(of: view, in: (view.bounds, 0, 0), scale: s, exact: false)
    }

    /// The same into a bitmap of `grid` (the bounds grown to whole pixels of the screen's grid),
    /// the view at its fraction of a pixel.
    private func renderContents(of view: View, in grid: (rect: CGRect, width: Int, height: Int), scale s: CGFloat,
                                exact: Bool = true) -> CGImage? {
        guard let offscreen = Self.uiKitContext(for: grid.rect, scale: s, pixels: exact ? (grid.width, grid.height) : nil)
        else { return nil }
        GraphicsContextStack.current.push(offscreen, scale: s)
        defer { UIGraphicsPopContext() }
        drawOwnContents(of: view, in: offscreen, rect: view.bounds, roundedBounds: view.layer.roundedBoundsPath())
        return offscreen.makeImage()
    }

    /// A transparent bitmap context covering `rect` at `scale` pixels per point, its user space
    /// UIKit's (y down, points) with `rect`'s origin at its top-left; nil when too big or empty.
    /// `pixels`: the bitmap's size when known exactly (else `rect`'s, rounded up).
    private static func uiKitContext(for rect: CGRect, scale s: CGFloat, pixels: (Int, Int)? = nil) -> CGContext? {
        let w = pixels.map { CGFloat($0.0) } ?? (rect.width * s).rounded(.up)
        let h = pixels.map { CGFloat($0.1) } ?? (rect.height * s).rounded(.up)
        guard w >= 1, h >= 1, w <= CGFloat(CGContext.maximumDimension), h <= CGFloat(CGContext.maximumDimension),
              let offscreen = CGContext(width: Int(w), height: Int(h)) else { return nil }
        offscreen.setBaseTransform(.uiKitBase(heightInPixels: h, scale: s))
        offscreen.translateBy(x: -rect.minX, y: -rect.minY)
        return offscreen
    }

    /// Where a bitmap of the view's contents goes: its pixels at `scale` from `origin` (a whole
    /// number of pixels, so slightly more than the bounds when they are not).
    private static func rect(of image: CGImage, at origin: CGPoint, scale s: CGFloat) -> CGRect {
        CGRect(x: origin.x, y: origin.y, width: CGFloat(image.width) / s, height: CGFloat(image.height) / s)
    }

    /// Copies a bitmap made for `rect` (view coordinates) into place: pixel for pixel when the
    /// placement is whole pixels, as for cached looks.
    private func drawImage(_ image: CGImage, in rect: CGRect) {
        context.saveGState()
        context.interpolationQuality = .none
        context.translateBy(x: rect.minX, y: rect.maxY)
        context.scaleBy(x: 1, y: -1)
        context.draw(image, in: CGRect(x: 0, y: 0, width: rect.width, height: rect.height))
        context.restoreGState()
    }

    // MARK: Shadow and border

    /// Draws the shadow of the view's layer alone: its `shadowPath` filled, or its contents
    /// (`contents`, or rendered now), moved far off the canvas in base space with the shadow offset
    /// moved back by as much, so only the shadow lands (Core Graphics draws a shape with its
    /// shadow; this keeps the shape away).
    /// `origin`: where `contents` goes (default: the bounds' origin).
    private func drawShadow(of view: View, contents: CGImage?, at origin: CGPoint? = nil) {
        let layer = view.layer
        let t = context.ctm, base = context.baseTransform
        guard t.a * t.d - t.b * t.c != 0, base.a * base.d - base.b * base.c != 0 else { return }
        let baseScale = (abs(base.a * base.d - base.b * base.c)).squareRoot()
        // Whole device pixels, beyond anything on the canvas.
        let away = ((2 * CGFloat(context.width + context.height) + 64) / baseScale).rounded(.up)
        let inBase = t.concatenating(base.inverted())
        let moved = inBase.concatenating(CGAffineTransform(translationX: -away, y: 0)).concatenating(base)
        context.saveGState()
        context.setShadow(offset: CGSize(width: layer.shadowOffset.width + away, height: layer.shadowOffset.height),
                          blur: 2 * layer.shadowRadius, color: layer.effectiveShadowColor)
        context.concatenate(moved.concatenating(t.inverted()))
        if let path = layer.shadowPath {
            context.setFillColor(gray: 0, alpha: 1)
            context.addPath(path)
            context.fillPath()
        } else {
            let s = (abs(t.a * t.d - t.b * t.c)).squareRoot()
            if let image = contents {
                drawImage(image, in: Self.rect(of: image, at: origin ?? view.bounds.origin, scale: s))
            } else if t.b == 0, t.c == 0, t.a == s, t.d == -s {
                // Upright: the contents drawn on the context's pixel grid, the view at its
                // fraction of a pixel, so the shadow falls exactly where the view is.
                let grid = Self.onPixelGrid(view.bounds, t)
                if let image = renderContents(of: view, in: grid, scale: s) {
                    drawImage(image, in: Self.rect(of: image, at: grid.rect.origin, scale: s))
                }
            } else if let image = renderContents(of: view, scale: s) {
                drawImage(image, in: Self.rect(of: image, at: view.bounds.origin, scale: s))
            }
        }
        context.restoreGState()
    }

    /// Strokes the layer's border inside the bounds, rounded by its corner radius.
    private func drawBorder(of view: View) {
        guard let layer = view.storedLayer, layer.borderWidth > 0, let color = layer.borderColor else { return }
        let b = view.bounds
        let w = min(layer.borderWidth, b.width / 2, b.height / 2)
        guard w > 0 else { return }
        let inner = b.insetBy(dx: w / 2, dy: w / 2)
        let r = max(layer.clampedCornerRadius(in: b) - w / 2, 0)
        context.setStrokeColor(color)
        context.setLineWidth(w)
        context.setShadow(offset: .zero, blur: 0, color: nil)
        if r > 0 {
            context.addPath(CGPath(roundedRect: inner, cornerWidth: r, cornerHeight: r, transform: nil))
        } else {
            context.addRect(inner)
        }
        context.strokePath()
    }

    /// Draws `sub` and its subviews; the context's user space is its superview's coordinates
    /// and `area` the area to repaint in them.
    func drawSubview(_ sub: View, dirty area: CGRect, alpha: CGFloat) {
        context.saveGState()
        let subArea: CGRect
        if sub.transform.isIdentity {
            let dx = sub.frame.minX - sub.bounds.minX, dy = sub.frame.minY - sub.bounds.minY
            context.translateBy(x: dx, y: dy)
            subArea = area.offsetBy(dx: -dx, dy: -dy)
        } else {
            let t = sub.transformToSuperview
            context.concatenate(t)
            subArea = area.applying(t.inverted())
        }
        draw(sub, dirty: subArea, alpha: alpha)
        context.restoreGState()
    }

    /// Paints the screen pixels `view` showed at the end of the last frame, upright, where they
    /// were (user space: the view's coordinates).
    private func drawLastAppearance(of view: View) {
        guard let (image, rectInWindow) = view.layer.lastAppearance, let window = view.window else { return }
        let rect = view.convert(rectInWindow, from: window)
        context.saveGState()
        context.translateBy(x: rect.minX, y: rect.maxY)
        context.scaleBy(x: 1, y: -1)
        context.draw(image, in: CGRect(x: 0, y: 0, width: rect.width, height: rect.height))
        context.restoreGState()
    }
}
