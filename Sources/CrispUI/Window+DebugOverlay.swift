import CrispGraphics
import Foundation

// The debug overlays (the Simulator's Debug menu). With one on, the views draw into a frame the
// window keeps (`frameBeneathOverlay`); each frame then copies the rectangles to present from it
// into the host's bitmap and draws the overlay's marks over them there. So the frame beneath is
// exactly the frame without an overlay, and a mark that fades or moves is erased by copying the
// frame back. Tints (`cached`, `blended`, `misaligned`) are drawn once, for the views the frame
// drew, and stay in the host's bitmap until those pixels are presented again; only
// `flash-updates` presents frames of its own: a few fade frames after a real update, paced by a
// timer, then nothing.

/// What the window draws over its frames to show how they are made.
public enum DebugOverlay: String, CaseIterable, Sendable {
    /// Nothing.
    case none
    /// Each presented dirty rectangle flashes a translucent colour that fades over a few frames.
    case flashUpdates = "flash-updates"
    /// Views drawn from their cached contents tinted green, views drawn again red.
    case cached
    /// Translucent (blended) views tinted red, opaque ones green.
    case blended
    /// Images drawn scaled tinted yellow, images off whole device pixels magenta.
    case misaligned

    /// The frames a `flashUpdates` flash shows for (fading), the last of which erases it.
    public static let flashFrames = 6
    /// Seconds between `flashUpdates` fade frames.
    public static let fadeInterval: TimeInterval = 1.0 / 30
}

/// The overlay's state: the frame beneath it, the fading flashes and the fade timer.
final class DebugOverlayState {
    /// One flashed rectangle (pixels from the top-left) and the frames it still shows for.
    struct Flash {
        var rect: CGRect
        var colour: CGColor
        var framesLeft: Int
    }
    var frame: CGContext?
    var flashes: [Flash] = []
    var flashCount = 0
    var needsComposite = false
    var fadeTimer: LoopTimer?

    static let flashFrames = DebugOverlay.flashFrames
    static let fadeInterval = DebugOverlay.fadeInterval
    /// The colours flashes take in turn, so that consecutive updates can be told apart.
    static let flashColours = [CGColor(red: 1, green: 0.85, blue: 0, alpha: 1), CGColor(red: 1, green: 0, blue: 0.8, alpha: 1),
                               CGColor(red: 0, green: 0.8, blue: 1, alpha: 1)]

    func reset() {
        frame = nil
        flashes = []
        needsComposite = false
        fadeTimer?.invalidate()
        fadeTimer = nil
    }
}

/// Notes, while the views draw, what the overlay tints: rectangles in pixels from the top-left,
/// each inside the dirty rectangle being drawn.
final class OverlayRecorder {
    let overlay: DebugOverlay
    let heightInPixels: CGFloat
    /// The dirty rectangle being drawn (pixels from the top-left).
    var currentDirty = CGRect.null
    private(set) var marks: [(rect: CGRect, colour: CGColor)] = []

    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 0.3)
    static let green = CGColor(red: 0, green: 0.9, blue: 0, alpha: 0.3)
    static let yellow = CGColor(red: 1, green: 0.9, blue: 0, alpha: 0.5)
    static let magenta = CGColor(red: 1, green: 0, blue: 1, alpha: 0.5)

    init(overlay: DebugOverlay, heightInPixels: CGFloat) {
        self.overlay = overlay
        self.heightInPixels = heightInPixels
    }

    /// `rect` in device space (y up) → a mark inside the current dirty rectangle.
    private func mark(_ device: CGRect, _ colour: CGColor) {
        let r = CGRect(x: device.minX, y: heightInPixels - device.maxY, width: device.width, height: device.height)
            .intersection(currentDirty)
        guard !r.isNull, !r.isEmpty else { return }
        marks.append((r, colour))
    }

    /// Whether `view` paints something of its own: a background, or a class of its own (a plain
    /// `View` without a background is only a container). The window itself is not marked.
    private static func paints(_ view: View) -> Bool {
        guard !(view is Window) else { return false }
        return view.backgroundColor != nil || type(of: view) != View.self
    }

    /// A view drawn with `transform` (user to device) at `alpha` (its own times its ancestors').
    func recordView(_ view: View, bounds: CGRect, transform: CGAffineTransform, alpha: CGFloat, fromCache: Bool) {
        switch overlay {
        case .cached:
            if fromCache {
                mark(bounds.applying(transform), Self.green)
            } else if Self.paints(view) {
                mark(bounds.applying(transform), Self.red)
            }
        case .blended:
            guard Self.paints(view) else { return }
            let opaque = alpha >= 1 && (view.backgroundColor?.alpha ?? 0) >= 1 && (view.storedLayer?.cornerRadius ?? 0) <= 0
            mark(bounds.applying(transform), opaque ? Self.green : Self.red)
        default:
            break
        }
    }

    /// An image drawn into `rect` (user space) with `transform` (user to device).
    func recordImage(_ image: CGImage, rect: CGRect, transform t: CGAffineTransform) {
        let device = rect.applying(t)
        let tolerance: CGFloat = 1.0 / 256
        func whole(_ x: CGFloat) -> Bool { abs(x - x.rounded()) <= tolerance }
        let rectilinear = abs(t.b) <= 1e-9 && abs(t.c) <= 1e-9
        if !rectilinear || abs(device.width - CGFloat(image.width)) > tolerance || abs(device.height - CGFloat(image.height)) > tolerance {
            mark(device, Self.yellow)
        } else if !whole(device.minX) || !whole(device.minY) {
            mark(device, Self.magenta)
        }
    }
}

extension Window {
    /// The frame beneath the debug overlay, as the views drew it (nil without an overlay, or
    /// before the first frame with one): bit for bit what the host would show without it.
    public var frameBeneathOverlay: CGImage? { overlayState.frame?.makeImage() }

    /// Whether the overlay still has flashes fading (it will ask for a few more frames).
    public var isOverlayFading: Bool { !overlayState.flashes.isEmpty }

    func debugOverlayDidChange() {
        overlayState.reset()
        invalidateEverything()
    }

    /// Renders into the frame beneath the overlay, then copies what changed into `context` and
    /// draws the overlay over it; returns the rectangles to present.
    func renderFrameWithOverlay(into context: CGContext) -> [CGRect] {
        layoutIfNeeded()
        let state = overlayState
        let w = screen.pixelWidth, h = screen.pixelHeight
        if state.frame?.width != w || state.frame?.height != h {
            state.flashes = []
            guard let frame = CGContext(width: w, height: h) else {
                // No memory for a second frame: the frame alone, without the overlay.
                return renderContent(into: context, recorder: nil)
            }
            state.frame = frame
            invalidateEverything()
        }
        let frame = state.frame!
        let overlay = debugOverlay
        let recorder = overlay == .flashUpdates ? nil : OverlayRecorder(overlay: overlay, heightInPixels: CGFloat(h))
        if overlay == .misaligned, let recorder {
            frame.imageDrawObserver = { [unowned recorder] image, rect, t in recorder.recordImage(image, rect: rect, transform: t) }
        }
        let rects = renderContent(into: frame, recorder: recorder)
        frame.imageDrawObserver = nil
        state.needsComposite = false

        var present = rects
        if overlay == .flashUpdates {
            if !rects.isEmpty {
                let colour = DebugOverlayState.flashColours[state.flashCount % DebugOverlayState.flashColours.count]
                state.flashCount += 1
                for r in rects { state.flashes.append(.init(rect: r, colour: colour, framesLeft: DebugOverlayState.flashFrames)) }
            }
            var region = DirtyRegion()
            for r in rects { region.add(r, limit: pixelBounds) }
            for f in state.flashes { region.add(f.rect, limit: pixelBounds) }
            present = region.rects
        }
        for r in present { Window.copyPixels(r, from: frame, to: context) }

        context.saveGState()
        let height = CGFloat(h)
        func fill(_ r: CGRect, _ colour: CGColor) {
            context.setFillColor(colour)
            context.fill(CGRect(x: r.minX, y: height - r.maxY, width: r.width, height: r.height))
        }
        if overlay == .flashUpdates {
            for f in state.flashes where f.framesLeft > 0 {
                fill(f.rect, f.colour.copy(alpha: 0.5 * CGFloat(f.framesLeft) / CGFloat(DebugOverlayState.flashFrames)) ?? f.colour)
            }
            // A flash at 0 frames left was just erased (copied back from the frame): it is done.
            state.flashes = state.flashes.compactMap { f in
                f.framesLeft == 0 ? nil : DebugOverlayState.Flash(rect: f.rect, colour: f.colour, framesLeft: f.framesLeft - 1)
            }
            if !state.flashes.isEmpty, state.fadeTimer == nil {
                state.fadeTimer = eventLoop.schedule(after: DebugOverlayState.fadeInterval) { [weak self] in
                    guard let self else { return }
                    self.overlayState.fadeTimer = nil
                    if !self.overlayState.flashes.isEmpty { self.overlayState.needsComposite = true }
                }
            }
        } else if let recorder {
            for m in recorder.marks { fill(m.rect, m.colour) }
        }
        context.restoreGState()
        return present
    }

    /// Copies the pixels of `rect` (pixels from the top-left) from one bitmap of the screen's
    /// size to another of the same layout.
    static func copyPixels(_ rect: CGRect, from source: CGContext, to destination: CGContext) {
        let bounds = CGRect(x: 0, y: 0, width: min(source.width, destination.width), height: min(source.height, destination.height))
        let r = rect.integral.intersection(bounds)
        guard !r.isNull, !r.isEmpty, let from = source.data, let to = destination.data,
              source.bitsPerPixel == 32, destination.bitsPerPixel == 32 else { return }
        let x = Int(r.minX), y = Int(r.minY), w = Int(r.width), h = Int(r.height)
        for row in y..<(y + h) {
            (to + row * destination.bytesPerRow + x * 4).copyMemory(from: from + row * source.bytesPerRow + x * 4, byteCount: w * 4)
        }
    }
}
