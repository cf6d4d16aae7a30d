import CrispGraphics
import CrispUI
import Foundation

// The loupe: the essay's MagnifierView for a whole window, opened by a long press anywhere.
//
// A long-press recognizer on the window sees every touch before the views do. A press that
// moves more than a few points before 0.5 s fails it, so the controls' own taps and drags go
// on as if it were not there; once it begins, the window makes every other recognizer of that
// touch fail and cancels the view's touch, so nothing beneath fires. The loupe then shows the
// square around the touch point magnified in a circle above the finger.
//
// Two ways of magnifying, toggled with `v`:
// - bitmap (the essay's): the window's content rendered once into a cached bitmap
//   (`LoupeSnapshot`), the square around the touch cropped from it and scaled up without
//   interpolation — at 8× and more you see the pixels, and the pixel inspector shows them;
// - vector: the views drawn again through `layer.render(in:)` under a magnifying transform,
//   sharp at any zoom — the point of drawing the product in vectors.
// Either way the disc is clipped to a circle path: the clip mask is rasterized with coverage,
// so its edge is anti-aliased at every scale (rejected: the essay's mask PNG, which is
// smooth only at the size it was drawn for).
//
// Moving the loupe changes only its frame: the window repaints the old and the new rectangle.
// The frame sits on whole device pixels, so its shadow, glass and rim (`LoupeChrome`) and its
// mode label (cached contents) are copied from bitmaps drawn once, not drawn again per move.

/// A magnifying glass over a window: long press anywhere to open it, move to move it, release
/// to close it. Identifier `loupe`; state lines `shown <x> <y> <zoom> <bitmap|vector>` (the
/// touch point in window pixels) and `hidden`.
public final class LoupeView: View, ThemeFollowing, WindowBackdrop {
    /// How the loupe magnifies.
    public enum Mode: String, Sendable {
        /// The cached bitmap, scaled up: pixels show at high zoom.
        case bitmap
        /// The views drawn again at the magnified scale: sharp at any zoom.
        case vector
    }

    /// The smallest and largest magnification.
    public static let zoomRange: ClosedRange<CGFloat> = 1.5...16
    /// The magnification from which bitmap mode shows the pixel grid and the centre's colour.
    public static let inspectorZoom: CGFloat = 8
    /// The disc's diameter, in points, when the window has room for it.
    public static let preferredDiameter: CGFloat = 120
    /// Room around the disc for the rim and the shadow, in points (the loupe clips to its
    /// bounds, so that it never paints where its repaints do not reach).
    static let margin: CGFloat = 12
    /// Seconds of the scale-and-fade when the loupe closes.
    public static let hideDuration: TimeInterval = 0.15

    /// The magnification (clamped to `zoomRange`); default 2.
    public var zoom: CGFloat = 2 {
        didSet {
            zoom = min(max(zoom.isFinite ? zoom : 2, Self.zoomRange.lowerBound), Self.zoomRange.upperBound)
            if zoom != oldValue { contentDidChange() }
        }
    }
    /// Bitmap or vector magnification; default bitmap (the essay's).
    public var mode: Mode = .bitmap { didSet { if mode != oldValue { contentDidChange() } } }
    /// The colours of the rim.
    public var theme: Theme = .blue { didSet { setNeedsDisplay() } }

    /// Whether the loupe is open (shown and following a touch).
    public private(set) var isOpen = false
    /// The magnified point, in window points.
    public private(set) var touchPoint: CGPoint = .zero
    /// The long-press recognizer that opens the loupe (attached to the window by `install(in:)`).
    public let recognizer = LongPressGestureRecognizer()
    /// How many times a snapshot was started (each opening starts one).
    public private(set) var snapshotCount = 0

    let snapshot = LoupeSnapshot()
    @_spi(Testing) public let chrome = LoupeChrome()
    /// Pixels rendered into the snapshot since the loupe last opened (stale tiles only).
    public var snapshotPixels: Int { snapshot.renderedPixels }
    /// The bytes the snapshot holds: a screenful while the loupe is open, none once it has
    /// closed (the bitmap is released at the end of the closing animation).
    public var snapshotBytes: Int { snapshot.bytes }
    private let modeLabel = Label(text: "", fontSize: 9)
    private let colourLabel = Label(text: "", fontSize: 9)
    /// True while the loupe changes its own frame or content, so its own repaints do not make
    /// the snapshot stale.
    private var isChangingItself = false

    /// Creates a hidden loupe; `install(in:)` puts it in a window.
    public init() {
        super.init()
        accessibilityIdentifier = "loupe"
        accessibilityValue = "hidden"
        isHidden = true
        isUserInteractionEnabled = false
        clipsToBounds = true
        for label in [modeLabel, colourLabel] {
            label.alignment = .center
            label.textColor = .white
            addSubview(label)
        }
        modeLabel.isBold = true
        modeLabel.layer.cachesContents = true
        colourLabel.isHidden = true
        recognizer.addTarget(self, action: LoupeView.handleLongPress)
    }

    /// Adds the loupe on top of `window`'s views, attaches its recognizer to the window, and
    /// follows the window's repaints (to refresh its snapshot) and mouse wheel (to zoom).
    public func install(in window: Window) {
        window.addSubview(self)
        window.addGestureRecognizer(recognizer)
        window.invalidationObserver = { [weak self] rect in self?.windowDidInvalidate(rect) }
        window.scrollInterceptor = { [weak self] delta, _ in
            guard let self, self.isOpen else { return false }
            self.zoom *= pow(2, delta / 4)
            return true
        }
    }

    // MARK: Opening, moving, closing

    private func handleLongPress(_ recognizer: GestureRecognizer) {
        guard let window else { return }
        let point = recognizer.location(in: window)
        switch recognizer.state {
        case .began: open(at: point)
        case .changed: move(to: point)
        case .ended, .cancelled: close()
        default: break
        }
    }

    /// Opens the loupe over `point` (window points) with a new snapshot.
    public func open(at point: CGPoint) {
        guard let window else { return }
        window.bringSubviewToFront(self)
        snapshot.invalidateAll()
        snapshot.resetStatistics()
        snapshotCount += 1
        isOpen = true
        window.backdrop = self
        changeItself {
            alpha = 1
            transform = .identity
            isHidden = false
        }
        move(to: point)
        // One traversal of the views renders the tiles both the disc and the backdrop under the
        // loupe's rectangle need (rather than one each).
        let s = window.screen.scale
        let area = sourceRect.union(frame)
        ensureSnapshot(of: CGRect(x: area.minX * s, y: area.minY * s, width: area.width * s, height: area.height * s), in: window)
    }

    /// Moves the magnified point to `point` (window points), keeping the loupe inside the window.
    public func move(to point: CGPoint) {
        guard isOpen, let window else { return }
        let b = window.bounds
        touchPoint = CGPoint(x: min(max(point.x, b.minX), b.maxX), y: min(max(point.y, b.minY), b.maxY))
        changeItself {
            frame = LoupeView.frame(forTouch: touchPoint, in: b, scale: window.screen.scale)
            setNeedsDisplay()
            layoutLabels()
        }
        publishShown()
    }

    /// Closes the loupe with a short scale-and-fade and reports `hidden`.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        publishState("hidden")
        changeItself {
            View.animate(withDuration: Self.hideDuration, animations: {
                self.alpha = 0
                self.transform = CGAffineTransform(scaleX: 0.7, y: 0.7)
            }, completion: { _ in
                guard !self.isOpen else { return }
                self.window?.backdrop = nil
                self.snapshot.release()
                self.changeItself {
                    self.isHidden = true
                    self.alpha = 1
                    self.transform = .identity
                }
            })
        }
    }

    /// Keeps the loupe inside the window after a change of size or scale.
    public func windowDidResize() {
        guard isOpen else { return }
        snapshot.invalidateAll()
        move(to: touchPoint)
    }

    private func publishShown() {
        let s = window?.screen.scale ?? 1
        publishState("shown \(Int((touchPoint.x * s).rounded())) \(Int((touchPoint.y * s).rounded())) \(LoupeView.format(zoom)) \(mode.rawValue)")
    }

    /// A zoom for a status line: at most three decimals, no trailing zeros ("2", "1.5").
    public static func format(_ zoom: CGFloat) -> String {
        var text = String(format: "%.3f", Double(zoom))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private func contentDidChange() {
        changeItself {
            setNeedsDisplay()
            layoutLabels()
        }
        if isOpen { publishShown() }
    }

    private func changeItself(_ body: () -> Void) {
        let was = isChangingItself
        isChangingItself = true
        body()
        isChangingItself = was
    }

    private func windowDidInvalidate(_ rect: CGRect) {
        guard !isChangingItself, let window else { return }
        let scale = window.screen.scale
        if rect == window.bounds { snapshot.invalidateAll() } else { snapshot.invalidate(rect, scale: scale) }
        guard isOpen, !isHidden, rect.intersects(sourceRect) else { return }
        changeItself { setNeedsDisplay() }
    }

    // MARK: Backdrop

    /// The window's views drawn over the snapshot while the loupe is up: the loupe and the
    /// frame-time overlay.
    public var viewsAboveBackdrop: [View] {
        window?.subviews.filter { $0 === self || $0 is FrameTimeHUD } ?? []
    }

    /// Paints the window's content in `pixels` from the snapshot (rendering its stale tiles
    /// first), so moving the loupe repaints its old and new rectangles without drawing the
    /// views beneath again. Only into a frame of the native layout and the screen's size.
    public func paintBackdrop(_ pixels: CGRect, into context: CGContext) -> Bool {
        guard let window, context.bitmapInfo == .crispNative, context.width == window.screen.pixelWidth,
              context.height == window.screen.pixelHeight, let target = context.data else { return false }
        let r = pixels.integral.intersection(CGRect(x: 0, y: 0, width: context.width, height: context.height))
        guard !r.isNull, !r.isEmpty else { return true }
        ensureSnapshot(of: r, in: window)
        guard let source = snapshot.context, let from = source.data, source.bytesPerRow == context.bytesPerRow else { return false }
        let x = Int(r.minX), width = Int(r.width) * 4
        for y in Int(r.minY)..<Int(r.maxY) {
            let offset = y * context.bytesPerRow + x * 4
            (target + offset).copyMemory(from: from + offset, byteCount: width)
        }
        return true
    }

    // MARK: Geometry

    /// The disc's diameter in a window of `size` points: `preferredDiameter`, or less so that
    /// it and its margin fit in a small window.
    static func diameter(in size: CGSize) -> CGFloat {
        max(min(preferredDiameter, (min(size.width, size.height) - 2 * margin) * 0.6), 16)
    }

    /// The loupe's frame for a touch at `point` in a window with `bounds`: centred above the
    /// touch (clear of the finger); beside it when there is no room above; always inside; its
    /// origin on whole device pixels at `scale` (so its cached frame is copied pixel for pixel).
    @_spi(Testing) public static func frame(forTouch point: CGPoint, in bounds: CGRect, scale: CGFloat) -> CGRect {
        let d = diameter(in: bounds.size)
        let side = d + 2 * margin
        let lift = d / 2 + 24
        var centre = CGPoint(x: point.x, y: point.y - lift)
        if centre.y - side / 2 < bounds.minY {
            // Near the top: beside the touch, on the side with more room.
            centre.y = point.y
            centre.x = point.x + (point.x < bounds.midX ? lift : -lift)
        }
        let x = min(max(centre.x - side / 2, bounds.minX), max(bounds.maxX - side, bounds.minX))
        let y = min(max(centre.y - side / 2, bounds.minY), max(bounds.maxY - side, bounds.minY))
        // Down to a whole pixel: never out of the window's pixels (its edges are whole pixels).
        let s = scale > 0 && scale.isFinite ? scale : 1
        return CGRect(x: (x * s).rounded(.down) / s, y: (y * s).rounded(.down) / s, width: side, height: side)
    }

    /// The disc, in the loupe's coordinates.
    var discRect: CGRect { bounds.insetBy(dx: Self.margin, dy: Self.margin) }

    /// The area of the window the disc shows, in window points.
    var sourceRect: CGRect {
        let r = discRect.width / 2 / zoom
        return CGRect(x: touchPoint.x - r, y: touchPoint.y - r, width: 2 * r, height: 2 * r)
    }

    private func layoutLabels() {
        let disc = discRect
        modeLabel.text = "\(mode.rawValue) \(LoupeView.format(zoom))×"
        modeLabel.frame = CGRect(x: disc.midX - 34, y: disc.maxY - 7, width: 68, height: 14)
        colourLabel.isHidden = !showsInspector
        colourLabel.frame = CGRect(x: disc.midX - 44, y: disc.maxY - 30, width: 88, height: 14)
        if showsInspector { colourLabel.text = centreColourText }
    }

    // MARK: Drawing

    /// Whether the pixel grid and the centre's colour show (bitmap mode at 8× and more).
    public var showsInspector: Bool { mode == .bitmap && zoom >= Self.inspectorZoom }

    /// The screen pixel under the touch point (top-left origin).
    var centrePixel: (x: Int, y: Int) {
        let s = window?.screen.scale ?? 1
        return (Int((touchPoint.x * s).rounded(.down)), Int((touchPoint.y * s).rounded(.down)))
    }

    /// The centre pixel's premultiplied colour as `#RRGGBB a<alpha>` (alpha 0…255), as the
    /// snapshot has it.
    public var centreColourText: String {
        guard let window else { return "" }
        let c = centrePixel
        ensureSnapshot(of: CGRect(x: c.x, y: c.y, width: 1, height: 1), in: window)
        guard let p = snapshot.pixel(x: c.x, y: c.y) else { return "outside" }
        return String(format: "#%06X a%d", p & 0xFFFFFF, p >> 24)
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext(), let window else { return }
        let disc = discRect
        let circle = CGPath(ellipseIn: disc, transform: nil)
        let background = window.backgroundColor ?? .black
        // The frame from its cached bitmaps while the loupe lands on whole device pixels;
        // drawn in vectors while it scales (closing).
        let s = window.screen.scale
        let key = LoupeChrome.Key(size: bounds.size, scale: s, theme: theme, background: background)
        let cached = isOnWholePixels(ctx, scale: s)
            ? chrome.images(for: key, under: { self.drawUnder(in: $0, disc: disc, background: background) },
                            over: { self.drawOver(in: $0, disc: disc) })
            : nil
        if let cached { drawPixelForPixel(cached.under, in: ctx) } else { drawUnder(in: ctx, disc: disc, background: background) }
        // The magnified content, clipped to the anti-aliased circle.
        ctx.saveGState()
        ctx.addPath(circle)
        ctx.clip()
        switch mode {
        case .bitmap: drawBitmap(in: ctx, window: window)
        case .vector: drawVectors(in: ctx, window: window)
        }
        if showsInspector { drawPixelGrid(in: ctx, window: window) }
        ctx.restoreGState()
        if let cached { drawPixelForPixel(cached.over, in: ctx) } else { drawOver(in: ctx, disc: disc) }
    }

    /// Whether the loupe's bounds map to whole device pixels in `ctx`, unscaled and unrotated
    /// (y down, `scale` pixels per point).
    private func isOnWholePixels(_ ctx: CGContext, scale s: CGFloat) -> Bool {
        let t = ctx.ctm
        guard t.a == s, t.d == -s, t.b == 0, t.c == 0 else { return false }
        let origin = CGPoint(x: bounds.minX, y: bounds.minY).applying(t)
        return origin.x == origin.x.rounded() && origin.y == origin.y.rounded()
    }

    /// Copies a bitmap of the loupe's bounds into place, upright, one pixel per pixel.
    private func drawPixelForPixel(_ image: CGImage, in ctx: CGContext) {
        ctx.saveGState()
        ctx.interpolationQuality = .none
        ctx.translateBy(x: bounds.minX, y: bounds.maxY)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(image, in: CGRect(x: 0, y: 0, width: bounds.width, height: bounds.height))
        ctx.restoreGState()
    }

    /// What lies under the magnified content: the disc's shadow and the disc in the window's
    /// background colour.
    private func drawUnder(in ctx: CGContext, disc: CGRect, background: CGColor) {
        ctx.saveGState()
        ctx.setShadow(offset: CGSize(width: 0, height: 3), blur: 6, color: CGColor(gray: 0, alpha: 0.55))
        ctx.setFillColor(background)
        ctx.addEllipse(in: disc)
        ctx.fillPath()
        ctx.restoreGState()
    }

    /// What lies over the magnified content: the glass highlight (inside the disc) and the rim.
    private func drawOver(in ctx: CGContext, disc: CGRect) {
        ctx.saveGState()
        ctx.addEllipse(in: disc)
        ctx.clip()
        drawHighlight(in: ctx, disc: disc)
        ctx.restoreGState()
        drawRim(in: ctx, disc: disc)
    }

    /// Maps window points to the loupe's coordinates: the touch point to the disc's centre, magnified.
    private func magnify(_ ctx: CGContext) {
        let disc = discRect
        ctx.translateBy(x: disc.midX, y: disc.midY)
        ctx.scaleBy(x: zoom, y: zoom)
        ctx.translateBy(x: -touchPoint.x, y: -touchPoint.y)
    }

    /// Renders the stale tiles under `pixels` (screen pixels) into the snapshot.
    private func ensureSnapshot(of pixels: CGRect, in window: Window) {
        snapshot.prepare(pixels, window: window) { ctx in self.drawWindowContent(in: ctx, window: window) }
    }

    /// The window's background and every view of it but the loupe and the frame-time overlay,
    /// in window points.
    private func drawWindowContent(in ctx: CGContext, window: Window) {
        if let background = window.backgroundColor {
            ctx.setFillColor(background)
            ctx.fill(window.bounds)
        }
        for view in window.subviews where view !== self && !(view is FrameTimeHUD) && !view.isHidden {
            ctx.saveGState()
            let b = view.bounds
            ctx.translateBy(x: view.center.x, y: view.center.y)
            ctx.concatenate(view.transform)
            ctx.translateBy(x: -b.midX, y: -b.midY)
            view.layer.render(in: ctx)
            ctx.restoreGState()
        }
    }

    private func drawBitmap(in ctx: CGContext, window: Window) {
        let s = window.screen.scale
        let source = sourceRect
        let x0 = max(Int((source.minX * s).rounded(.down)), 0), y0 = max(Int((source.minY * s).rounded(.down)), 0)
        let x1 = min(Int((source.maxX * s).rounded(.up)), window.screen.pixelWidth)
        let y1 = min(Int((source.maxY * s).rounded(.up)), window.screen.pixelHeight)
        guard x0 < x1, y0 < y1 else { return }
        ensureSnapshot(of: CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), in: window)
        guard let image = snapshot.image(of: (x0, y0, x1 - x0, y1 - y0)) else { return }
        ctx.saveGState()
        magnify(ctx)
        ctx.interpolationQuality = .none
        // Upright in a y-down space: flip about the image's rectangle.
        let r = CGRect(x: CGFloat(x0) / s, y: CGFloat(y0) / s, width: CGFloat(x1 - x0) / s, height: CGFloat(y1 - y0) / s)
        ctx.translateBy(x: 0, y: r.maxY)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(image, in: CGRect(x: r.minX, y: 0, width: r.width, height: r.height))
        ctx.restoreGState()
    }

    private func drawVectors(in ctx: CGContext, window: Window) {
        ctx.saveGState()
        magnify(ctx)
        drawWindowContent(in: ctx, window: window)
        ctx.restoreGState()
    }

    /// The pixel grid and a box round the centre pixel (bitmap mode at 8× and more).
    private func drawPixelGrid(in ctx: CGContext, window: Window) {
        let s = window.screen.scale
        let source = sourceRect
        ctx.saveGState()
        magnify(ctx)
        let line = 1 / (zoom * s)  // one device pixel
        ctx.setLineWidth(line)
        ctx.setStrokeColor(CGColor(gray: 0, alpha: 0.35))
        var x = (source.minX * s).rounded(.down)
        while x <= source.maxX * s {
            ctx.move(to: CGPoint(x: x / s, y: source.minY))
            ctx.addLine(to: CGPoint(x: x / s, y: source.maxY))
            x += 1
        }
        var y = (source.minY * s).rounded(.down)
        while y <= source.maxY * s {
            ctx.move(to: CGPoint(x: source.minX, y: y / s))
            ctx.addLine(to: CGPoint(x: source.maxX, y: y / s))
            y += 1
        }
        ctx.strokePath()
        let c = centrePixel
        let box = CGRect(x: CGFloat(c.x) / s, y: CGFloat(c.y) / s, width: 1 / s, height: 1 / s)
        ctx.setLineWidth(3 * line)
        ctx.setStrokeColor(CGColor(gray: 1, alpha: 0.9))
        ctx.stroke(box.insetBy(dx: -1.5 * line, dy: -1.5 * line))
        ctx.setLineWidth(line)
        ctx.setStrokeColor(CGColor(gray: 0, alpha: 0.9))
        ctx.stroke(box.insetBy(dx: -3.5 * line, dy: -3.5 * line))
        ctx.restoreGState()
        // A dark plate behind the colour text.
        let plate = colourLabel.frame.insetBy(dx: 2, dy: 0)
        ctx.setFillColor(CGColor(gray: 0, alpha: 0.6))
        ctx.addPath(CGPath(roundedRect: plate, cornerWidth: 4, cornerHeight: 4, transform: nil))
        ctx.fillPath()
    }

    /// The glass: a soft white crescent across the top of the disc.
    private func drawHighlight(in ctx: CGContext, disc: CGRect) {
        let glare = CGRect(x: disc.minX + disc.width * 0.12, y: disc.minY + disc.height * 0.04,
                           width: disc.width * 0.76, height: disc.height * 0.42)
        ctx.saveGState()
        ctx.addEllipse(in: glare)
        ctx.clip()
        let colours = [CGColor(gray: 1, alpha: 0.38), CGColor(gray: 1, alpha: 0)]
        if let gradient = CGGradient(colorsSpace: nil, colors: colours, locations: [0, 1]) {
            ctx.drawLinearGradient(gradient, start: CGPoint(x: glare.midX, y: glare.minY), end: CGPoint(x: glare.midX, y: glare.maxY), options: [])
        }
        ctx.restoreGState()
    }

    /// The rim: a ring in the theme's colours with a light outer and a dark inner edge, and a
    /// plate at the bottom naming the mode and the zoom.
    private func drawRim(in ctx: CGContext, disc: CGRect) {
        let width: CGFloat = 5
        let ring = disc.insetBy(dx: -width / 2 + 1, dy: -width / 2 + 1)
        ctx.saveGState()
        ctx.setLineWidth(width)
        ctx.addEllipse(in: ring)
        ctx.replacePathWithStrokedPath()
        ctx.clip()
        let colours = [theme.barTop.mixed(with: .white, fraction: 0.45), theme.barBottom]
        if let gradient = CGGradient(colorsSpace: nil, colors: colours, locations: [0, 1]) {
            ctx.drawLinearGradient(gradient, start: CGPoint(x: ring.midX, y: ring.minY - width), end: CGPoint(x: ring.midX, y: ring.maxY + width), options: [])
        }
        ctx.restoreGState()
        ctx.setLineWidth(1)
        ctx.setStrokeColor(CGColor(gray: 1, alpha: 0.5))
        ctx.strokeEllipse(in: ring.insetBy(dx: -width / 2, dy: -width / 2))
        ctx.setStrokeColor(CGColor(gray: 0, alpha: 0.5))
        ctx.strokeEllipse(in: ring.insetBy(dx: width / 2, dy: width / 2))
        // The mode plate, in the rim's colours.
        let plate = modeLabel.frame
        ctx.setFillColor(theme.barBottom)
        ctx.addPath(CGPath(roundedRect: plate, cornerWidth: plate.height / 2, cornerHeight: plate.height / 2, transform: nil))
        ctx.fillPath()
        ctx.setStrokeColor(theme.tint)
        ctx.setLineWidth(1)
        ctx.addPath(CGPath(roundedRect: plate.insetBy(dx: 0.5, dy: 0.5), cornerWidth: plate.height / 2 - 0.5, cornerHeight: plate.height / 2 - 0.5, transform: nil))
        ctx.strokePath()
    }
}
