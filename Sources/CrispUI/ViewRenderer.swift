import CrispGraphics
import Foundation

// Drawing a view tree into a context: the window's frames (`Window.renderFrame(into:)`) and
// `Layer.render(in:)` both come here. For each view: alpha, the clip to its bounds if asked,
// its background and `draw(_:)` for the part of the dirty area that opaque subviews do not
// cover, then its subviews in their own coordinates (translation, or the full transform).
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
        var area = dirty
        if view.clipsToBounds {
            context.clip(to: bounds)
            area = dirty.intersection(bounds)
        }
        let own = dirty.intersection(bounds)
        if !own.isNull, !own.isEmpty {
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
                if let background = view.backgroundColor {
                    context.setFillColor(background)
                    context.fill(bounds)
                }
                layer.isDrawing = true
                view.draw(piece)
                layer.isDrawing = false
                context.restoreGState()
            }
        }
        if !area.isNull, !area.isEmpty {
            for sub in view.subviews where !sub.isHidden && sub.frameInSuperview.intersects(area) {
                drawSubview(sub, dirty: area, alpha: alpha)
            }
        }
        context.restoreGState()
        // Checked after drawing: the view's first self-render has only just marked it.
        if isOnScreen, layer.keepsLastAppearance, !drawnViewsKeepingAppearance.contains(where: { $0 === view }) {
            drawnViewsKeepingAppearance.append(view)
        }
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
