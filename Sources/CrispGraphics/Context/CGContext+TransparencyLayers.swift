import Foundation

/// An open transparency layer: its pixels and what to restore when it ends.
///
/// The layer holds only its bounds (the clip box it was opened in, limited to the rectangle
/// given): `pixels` is the address pixel (0, 0) would have, so drawing addresses the layer
/// exactly as it addresses the context's memory, and every write lands inside `bounds` because
/// the layer's clip is `bounds`. That clip must stay: a `restoreGState` inside the layer never
/// pops the states saved before it began (`savedStackDepth`; the drawing fuzzer found a restore
/// that put back a wider clip, and a fill then wrote past the layer's memory). (Rejected: a
/// canvas-sized buffer per layer, cleared at every begin — what Crisp did before — whose cost
/// grows with the canvas, not with what is drawn.)
struct TransparencyLayer {
    /// The layer's memory: `bounds.width × bounds.height` pixels (at least one).
    let allocation: UnsafeMutablePointer<UInt32>
    /// Where pixel (0, 0) would be; only pixels inside `bounds` are ever addressed.
    let pixels: UnsafeMutablePointer<UInt32>
    let rowStride: Int
    /// The state at `beginTransparencyLayer`, restored (and used to composite) at the end.
    let savedState: CGGState
    let savedPixels: UnsafeMutablePointer<UInt32>
    let savedRowStride: Int
    /// The clip box the layer was opened in: only this part is composited.
    let bounds: PixelRect
    /// How many states were saved when the layer began: restores inside it stop there, and its
    /// end drops the states saved inside it.
    let savedStackDepth: Int
}

/// Paints a layer's pixels back onto its parent.
struct LayerPaint {
    let layer: UnsafeMutablePointer<UInt32>
    let rowStride: Int
    let alpha: UInt32

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let row = layer + y * rowStride + x
        if alpha == 255 {
            out.update(from: row, count: count)
        } else {
            for i in 0..<count { out[i] = Pixel.scale(row[i], by: alpha) }
        }
    }
}

extension CGContext {
    /// Starts a transparency layer: until `endTransparencyLayer()`, drawing goes into a fully
    /// transparent layer with alpha 1, normal blending and no shadow; the layer is then
    /// composited as one image with the alpha, blend mode and shadow that were in force here.
    /// `auxiliaryInfo` is accepted for compatibility and ignored.
    public func beginTransparencyLayer(auxiliaryInfo: [String: Any]?) {
        beginTransparencyLayer(bounds: gstate.clip.bounds)
    }

    /// Starts a transparency layer limited to `rect` (user space) and the clip.
    public func beginTransparencyLayer(in rect: CGRect, auxiliaryInfo: [String: Any]?) {
        let limited = rect.isFiniteRect ? PixelRect(enclosing: rect.applying(userToRaster), limit: gstate.clip.bounds) : .empty
        beginTransparencyLayer(bounds: limited)
    }

    /// Ends the innermost transparency layer and composites it. Ignored when none is open.
    public func endTransparencyLayer() {
        guard let layer = layerStack.popLast() else { return }
        if gstateStack.count > layer.savedStackDepth { gstateStack.removeLast(gstateStack.count - layer.savedStackDepth) }
        pixels = layer.savedPixels
        rowStride = layer.savedRowStride
        gstate = layer.savedState
        defer { layer.allocation.deallocate() }
        guard !layer.bounds.isEmpty else { return }
        let paintSource = LayerPaint(layer: layer.pixels, rowStride: layer.rowStride, alpha: UInt32((gstate.alpha * 255).rounded()))
        let area = CGRect(x: layer.bounds.x, y: layer.bounds.y, width: layer.bounds.width, height: layer.bounds.height)
        paint(RectCoverage(rect: area, antialias: true), with: .layer(paintSource))
    }

    private func beginTransparencyLayer(bounds requested: PixelRect) {
        let bounds = requested.isEmpty ? PixelRect.empty : requested.intersection(gstate.clip.bounds)
        let count = max(1, bounds.width * bounds.height)
        let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        buffer.initialize(repeating: 0, count: count)
        let stride = max(1, bounds.width)
        let origin = buffer - (bounds.y * stride + bounds.x)
        layerStack.append(TransparencyLayer(allocation: buffer, pixels: origin, rowStride: stride, savedState: gstate,
                                            savedPixels: pixels, savedRowStride: rowStride, bounds: bounds,
                                            savedStackDepth: gstateStack.count))
        pixels = origin
        rowStride = stride
        gstate.alpha = 1
        gstate.blendMode = .normal
        gstate.shadow = nil
        gstate.clip = bounds.isEmpty ? ClipRegion(bounds: .empty, mask: nil) : ClipRegion(bounds: bounds, mask: gstate.clip.mask)
    }
}
