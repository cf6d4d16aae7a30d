import Foundation

/// A bitmap drawing destination with CoreGraphics' API and semantics, drawn by Crisp's own
/// anti-aliased rasterizer.
///
/// Pixels are 32-bit premultiplied BGRA (`0xAARRGGBB` as little-endian `UInt32`), rows from the
/// top of the image, unless the context was created in another layout (RGBA, ARGB, none-skip,
/// grey, alpha-only: see `PixelLayout`), which spans are converted to and from as they are drawn. The default user space is CoreGraphics': origin at the bottom-left, y up,
/// one unit per pixel. The context either owns its memory or draws into memory the caller
/// provides (the X11 host hands it a shared-memory image this way).
///
/// Base space is where the CTM starts and where shadows are defined. For a bitmap context it is
/// device space; a UIKit context (a view's drawing, `UIGraphicsBeginImageContext`) moves its
/// flip and scale into base space with `setBaseTransform(_:)`, as iOS does since 3.2 (Apple's
/// Technical Q&A 1706), so there a shadow offset with a positive height points down the screen.
///
/// Defaults, as in CoreGraphics: line width 1, miter limit 10, butt cap, miter join, no dash,
/// black fill and stroke, alpha 1, normal blend mode, anti-aliasing on.
public final class CGContext {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// Always 8.
    public var bitsPerComponent: Int { 8 }
    /// 32, or 8 for grey and alpha-only contexts.
    public var bitsPerPixel: Int { layout.bytesPerPixel * 8 }
    /// Alpha info and byte order, as given at creation.
    public var bitmapInfo: CGBitmapInfo { layout.bitmapInfo }
    /// sRGB, device grey for a grey context, nil for an alpha-only one.
    public var colorSpace: CGColorSpace? { layout.colorSpace }
    /// The context's pixel memory, in its layout.
    public var data: UnsafeMutableRawPointer? { baseBytes }

    /// Where drawing goes: the context's memory, or the innermost transparency layer.
    @_spi(Testing) public internal(set) var pixels: UnsafeMutablePointer<UInt32>
    /// Pixels from one row to the next in `pixels`.
    @_spi(Testing) public internal(set) var rowStride: Int
    /// The context's own memory (what `data` and `makeImage` show), in `layout`.
    let baseBytes: UnsafeMutableRawPointer
    /// How the context's own memory is laid out.
    let layout: PixelLayout
    /// The context's own memory as the compositor converts it, when `layout` is not native
    /// (then `pixels` is a scratch row drawing never addresses while no layer is open).
    let baseRows: LayoutRows?
    /// Open transparency layers, innermost last.
    var layerStack: [TransparencyLayer] = []
    private let ownsMemory: Bool

    @_spi(Testing) public internal(set) var gstate: CGGState
    var gstateStack: [CGGState] = []
    /// The current path, stored in base space (CTM already applied, y up, pixels).
    let currentPath = CGMutablePath()
    @_spi(Testing) public let rasterizer = Rasterizer()
    /// Maps text space to user space; its translation is the text position. Not part of the
    /// graphics state (see `CGContext+Text.swift`).
    public var textMatrix = CGAffineTransform.identity
    /// Called with every image `draw(_:in:)` draws (the image, its rectangle in user space and
    /// the current transform), before it is drawn; a debug overlay finds images drawn scaled or
    /// off whole device pixels this way. Nil (the default) costs nothing.
    public var imageDrawObserver: ((CGImage, CGRect, CGAffineTransform) -> Void)?
    /// Where rasterized glyphs are kept between draws.
    @_spi(Testing) public var glyphCache = GlyphCache.shared
    private(set) var shadeBuffer: UnsafeMutablePointer<UInt32>
    /// Scratch coverage row for clip-mask multiplication.
    private(set) var maskScratch: UnsafeMutablePointer<UInt8>

    /// The default curve flattening tolerance in device pixels.
    static let defaultFlatness: CGFloat = 0.2
    /// The largest width or height a context may have.
    public static let maximumDimension = 1 << 15

    /// Creates a bitmap context, as `CGContext(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)`.
    ///
    /// Drawing goes straight into the memory in its layout, so the bytes are up to date whenever
    /// no call is in progress; only pixels drawn are written (row padding never is).
    ///
    /// - Parameters:
    ///   - data: memory of at least `bytesPerRow × height` bytes (4-byte aligned for the native
    ///     layout), which the context draws into without taking ownership; nil to let the
    ///     context allocate (and clear) its own.
    ///   - width: the width in pixels, 1…`maximumDimension`.
    ///   - height: the height in pixels, 1…`maximumDimension`.
    ///   - bitsPerComponent: must be 8.
    ///   - bytesPerRow: at least `width × bytes per pixel` (a multiple of 4 for the native
    ///     layout); 0 picks `width × bytes per pixel`.
    ///   - space: RGB, or a grey space for `CGImageAlphaInfo.none` (grey, 1 byte per pixel).
    ///   - bitmapInfo: an alpha info and byte order from the table in `PixelLayout`: premultiplied
    ///     or none-skip, first or last, 32-bit big, little or default byte order; `.none` grey;
    ///     `.alphaOnly` (1 byte of alpha). `CGBitmapInfo.crispNative.rawValue` is the layout the
    ///     compositor works in, with no conversion.
    /// - Returns: nil for a zero, negative or larger than `maximumDimension` size, a too small or
    ///   misaligned `bytesPerRow`, or a layout other than the above (16-bit or float components,
    ///   CMYK, non-premultiplied alpha), as CoreGraphics returns NULL for layouts it does not support.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                 bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        guard width > 0, height > 0, width <= CGContext.maximumDimension, height <= CGContext.maximumDimension,
              let layout = PixelLayout(bitsPerComponent: bitsPerComponent, space: space, bitmapInfo: bitmapInfo) else { return nil }
        let isNative = layout.kind == .native
        let rowBytes = bytesPerRow == 0 ? width * layout.bytesPerPixel : bytesPerRow
        guard rowBytes >= width * layout.bytesPerPixel, !isNative || rowBytes % 4 == 0 else { return nil }
        if let data, isNative, Int(bitPattern: data) % 4 != 0 { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = rowBytes
        self.layout = layout
        if let data {
            baseBytes = data
            ownsMemory = false
        } else {
            baseBytes = .allocate(byteCount: rowBytes * height, alignment: 4)
            baseBytes.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
            ownsMemory = true
        }
        if isNative {
            pixels = baseBytes.assumingMemoryBound(to: UInt32.self)
            rowStride = rowBytes / 4
            baseRows = nil
        } else {
            pixels = .allocate(capacity: width)
            rowStride = 0
            baseRows = LayoutRows(layout: layout, bytes: baseBytes, bytesPerRow: rowBytes, scratch: pixels)
        }
        gstate = CGGState(clip: ClipRegion(bounds: PixelRect(x: 0, y: 0, maxX: width, maxY: height), mask: nil))
        shadeBuffer = .allocate(capacity: width)
        maskScratch = .allocate(capacity: width)
    }

    /// Creates a context that owns cleared (transparent) memory in Crisp's native layout.
    public convenience init?(width: Int, height: Int) {
        self.init(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo.crispNative.rawValue)
    }

    deinit {
        for layer in layerStack { layer.allocation.deallocate() }
        if ownsMemory { baseBytes.deallocate() }
        if let baseRows { baseRows.scratch.deallocate() }
        shadeBuffer.deallocate()
        maskScratch.deallocate()
    }

    // MARK: Graphics state

    /// Pushes a copy of the graphics state.
    public func saveGState() { gstateStack.append(gstate) }

    /// Pops the graphics state saved last. Ignored when nothing is saved (CoreGraphics logs), and
    /// inside a transparency layer when nothing was saved since the layer began (the state saved
    /// before it belongs to its end).
    public func restoreGState() {
        guard gstateStack.count > (layerStack.last?.savedStackDepth ?? 0), let saved = gstateStack.popLast() else { return }
        gstate = saved
    }

    /// How many graphics states are saved (a Crisp addition; CoreGraphics keeps it private).
    /// UIKit restores the state a `drawRect:` left saved; CrispUI does the same by popping
    /// back to the depth it had before the call.
    public var gStateDepth: Int { gstateStack.count }

    /// The current transformation matrix, user space to device space (base transform included,
    /// as `CGContextGetCTM` reports it).
    public var ctm: CGAffineTransform { gstate.ctm }

    /// Base space to device space: identity for a bitmap context; for a UIKit context, the flip
    /// and the scale (`CGAffineTransform(a: s, b: 0, c: 0, d: -s, tx: 0, ty: heightInPixels)`).
    /// Not part of the graphics state.
    public private(set) var baseTransform = CGAffineTransform.identity

    /// Makes `transform` the map from base space to device space and resets the CTM to it (user
    /// space = base space). Shadows set afterwards take their offset and blur in the new base
    /// space. Use it on a context about to be drawn into, as UIKit sets up its contexts.
    public func setBaseTransform(_ transform: CGAffineTransform) {
        baseTransform = transform
        gstate.ctm = transform
    }

    /// Prepends `transform` to the CTM: user coordinates go through `transform` first.
    public func concatenate(_ transform: CGAffineTransform) { gstate.ctm = transform.concatenating(gstate.ctm) }

    /// Moves the origin of user space.
    public func translateBy(x: CGFloat, y: CGFloat) { gstate.ctm = gstate.ctm.translatedBy(x: x, y: y) }

    /// Scales user space.
    public func scaleBy(x: CGFloat, y: CGFloat) { gstate.ctm = gstate.ctm.scaledBy(x: x, y: y) }

    /// Rotates user space by `angle` radians (counter-clockwise in y-up space).
    public func rotate(by angle: CGFloat) { gstate.ctm = gstate.ctm.rotated(by: angle) }

    /// The transform from user space to device space (pixels, y up from the bottom-left).
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform { gstate.ctm }

    /// A user-space point in device space.
    public func convertToDeviceSpace(_ point: CGPoint) -> CGPoint { point.applying(gstate.ctm) }
    /// A device-space point in user space.
    public func convertToUserSpace(_ point: CGPoint) -> CGPoint { point.applying(gstate.ctm.inverted()) }
    /// A user-space size (as a vector) in device space.
    public func convertToDeviceSpace(_ size: CGSize) -> CGSize { size.applying(gstate.ctm) }
    /// A device-space size (as a vector) in user space.
    public func convertToUserSpace(_ size: CGSize) -> CGSize { size.applying(gstate.ctm.inverted()) }
    /// The bounding box of a user-space rectangle in device space.
    public func convertToDeviceSpace(_ rect: CGRect) -> CGRect { rect.applying(gstate.ctm) }
    /// The bounding box of a device-space rectangle in user space.
    public func convertToUserSpace(_ rect: CGRect) -> CGRect { rect.applying(gstate.ctm.inverted()) }

    /// Sets the global alpha (0…1) that multiplies everything drawn.
    public func setAlpha(_ alpha: CGFloat) { gstate.alpha = alpha.isNaN ? 0 : min(max(alpha, 0), 1) }

    /// Turns anti-aliasing on or off (part of the graphics state).
    public func setShouldAntialias(_ shouldAntialias: Bool) { gstate.shouldAntialias = shouldAntialias }

    /// Whether anti-aliasing may be used at all; with false, `setShouldAntialias` has no effect.
    /// Not part of the graphics state.
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) { self.allowsAntialiasing = allowsAntialiasing }
    private var allowsAntialiasing = true

    var isAntialiasing: Bool { gstate.shouldAntialias && allowsAntialiasing }

    /// Sets how drawing combines with the destination.
    public func setBlendMode(_ mode: CGBlendMode) { gstate.blendMode = mode }

    /// The image interpolation quality.
    public var interpolationQuality: CGInterpolationQuality {
        get { gstate.interpolationQuality }
        set { gstate.interpolationQuality = newValue }
    }

    /// Sets the flatness: the largest distance, in device pixels, allowed between a curve and the
    /// straight segments drawn for it. Default 0.2; clamped to 0.005…100. Fills, clips and glyphs
    /// draw curves by their exact area whatever it is; it sets how closely a stroked curve's
    /// sides (and a dash pattern's measure) follow the curve: at 0.005 px, the rasterizer's own
    /// curve tolerance, within 2 levels of 255 of the exact area.
    public func setFlatness(_ flatness: CGFloat) {
        gstate.flatness = flatness.isNaN ? CGContext.defaultFlatness : min(max(flatness, 0.005), 100)
    }

    // MARK: Colours

    /// Sets the fill colour.
    public func setFillColor(_ color: CGColor) { gstate.fillColor = color }
    /// Sets the fill colour from sRGB components in 0…1.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        gstate.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// Sets the fill colour from a gray level and alpha in 0…1.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { gstate.fillColor = CGColor(gray: gray, alpha: alpha) }
    /// Sets the stroke colour.
    public func setStrokeColor(_ color: CGColor) { gstate.strokeColor = color }
    /// Sets the stroke colour from sRGB components in 0…1.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        gstate.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// Sets the stroke colour from a gray level and alpha in 0…1.
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { gstate.strokeColor = CGColor(gray: gray, alpha: alpha) }

    // MARK: Line attributes

    /// Sets the line width in user units. 0 draws one-device-pixel hairlines; negative values are
    /// ignored, as in CoreGraphics.
    public func setLineWidth(_ width: CGFloat) { if width >= 0 { gstate.lineWidth = width } }
    /// Sets the join style.
    public func setLineJoin(_ join: CGLineJoin) { gstate.lineJoin = join }
    /// Sets the cap style.
    public func setLineCap(_ cap: CGLineCap) { gstate.lineCap = cap }
    /// Sets the miter limit (ratio of miter length to line width above which a miter becomes a bevel).
    public func setMiterLimit(_ limit: CGFloat) { if !limit.isNaN { gstate.miterLimit = limit } }
    /// Sets the dash pattern: alternating on and off lengths in user units, starting `phase` units
    /// into the pattern. An empty array turns dashing off.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        gstate.dashPhase = phase
        gstate.dashLengths = lengths
    }

    // MARK: Images

    /// A copy of the context's pixels as an image in the context's layout (packed rows).
    public func makeImage() -> CGImage? {
        if layout.kind == .native {
            var out = [UInt32](repeating: 0, count: width * height)
            let source = baseBytes.assumingMemoryBound(to: UInt32.self)
            out.withUnsafeMutableBufferPointer { buf in
                for y in 0..<height {
                    (buf.baseAddress! + y * width).update(from: source + y * (bytesPerRow / 4), count: width)
                }
            }
            return CGImage(width: width, height: height, pixels: out)
        }
        let rowBytes = width * layout.bytesPerPixel
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        out.withUnsafeMutableBytes { buf in
            for y in 0..<height {
                (buf.baseAddress! + y * rowBytes).copyMemory(from: baseBytes + y * bytesPerRow, byteCount: rowBytes)
            }
        }
        return CGImage(width: width, height: height, layout: layout, bytes: out)
    }

    // MARK: Internal

    /// Base space (y up) to raster space (y down, rows from the top).
    var baseToRaster: CGAffineTransform { CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)) }

    /// User space to raster space.
    var userToRaster: CGAffineTransform { gstate.ctm.concatenating(baseToRaster) }
}
