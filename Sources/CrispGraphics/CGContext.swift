import Foundation

/// A bitmap drawing destination with CoreGraphics' API and semantics, drawn by Crisp's own
/// anti-aliased rasterizer.
///
/// Pixels are 32-bit premultiplied BGRA (`0xAARRGGBB` as little-endian `UInt32`), rows from the
/// top of the image. The default user space is CoreGraphics': origin at the bottom-left, y up,
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
    /// Always 32.
    public var bitsPerPixel: Int { 32 }
    /// Always premultiplied-first, 32-bit little-endian.
    public var bitmapInfo: CGBitmapInfo { .crispNative }
    /// Always sRGB.
    public var colorSpace: CGColorSpace? { CGColorSpace(name: CGColorSpace.sRGB) }
    /// The context's pixel memory.
    public var data: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(basePixels) }

    /// Where drawing goes: the context's memory, or the innermost transparency layer.
    var pixels: UnsafeMutablePointer<UInt32>
    /// Pixels from one row to the next in `pixels`.
    var rowStride: Int
    /// The context's own memory (what `data` and `makeImage` show).
    let basePixels: UnsafeMutablePointer<UInt32>
    let baseRowStride: Int
    /// Open transparency layers, innermost last.
    var layerStack: [TransparencyLayer] = []
    private let ownsMemory: Bool

    var gstate: CGGState
    var gstateStack: [CGGState] = []
    /// The current path, stored in base space (CTM already applied, y up, pixels).
    let currentPath = CGMutablePath()
    let rasterizer = Rasterizer()
    /// Maps text space to user space; its translation is the text position. Not part of the
    /// graphics state (see `CGContext+Text.swift`).
    public var textMatrix = CGAffineTransform.identity
    /// Where rasterized glyphs are kept between draws.
    var glyphCache = GlyphCache.shared
    private(set) var shadeBuffer: UnsafeMutablePointer<UInt32>
    /// Scratch coverage row for clip-mask multiplication.
    private(set) var maskScratch: UnsafeMutablePointer<UInt8>

    /// The default curve flattening tolerance in device pixels.
    static let defaultFlatness: CGFloat = 0.2
    /// The largest width or height a context may have.
    public static let maximumDimension = 1 << 15

    /// Creates a bitmap context, as `CGContext(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)`.
    ///
    /// - Parameters:
    ///   - data: memory of at least `bytesPerRow × height` bytes, 4-byte aligned, which the
    ///     context draws into without taking ownership; nil to let the context allocate (and
    ///     clear) its own.
    ///   - bitsPerComponent: must be 8.
    ///   - bytesPerRow: at least `width × 4` and a multiple of 4; 0 picks `width × 4`.
    ///   - bitmapInfo: premultiplied-first (or none-skip-first) with 32-bit little-endian byte
    ///     order — `CGBitmapInfo.crispNative.rawValue`.
    /// - Returns: nil for a zero, negative or larger than `maximumDimension` size, or a layout
    ///   other than the above (as CoreGraphics returns NULL for layouts it does not support).
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                 bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        let alphaInfo = bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue
        let byteOrder = bitmapInfo & CGBitmapInfo.byteOrderMask.rawValue
        guard width > 0, height > 0, width <= CGContext.maximumDimension, height <= CGContext.maximumDimension,
              bitsPerComponent == 8, space.model == .rgb,
              alphaInfo == CGImageAlphaInfo.premultipliedFirst.rawValue || alphaInfo == CGImageAlphaInfo.noneSkipFirst.rawValue,
              byteOrder == CGBitmapInfo.byteOrder32Little.rawValue else { return nil }
        let rowBytes = bytesPerRow == 0 ? width * 4 : bytesPerRow
        guard rowBytes >= width * 4, rowBytes % 4 == 0 else { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = rowBytes
        self.rowStride = rowBytes / 4
        self.baseRowStride = rowBytes / 4
        if let data {
            guard Int(bitPattern: data) % 4 == 0 else { return nil }
            pixels = data.assumingMemoryBound(to: UInt32.self)
            ownsMemory = false
        } else {
            pixels = .allocate(capacity: rowStride * height)
            pixels.initialize(repeating: 0, count: rowStride * height)
            ownsMemory = true
        }
        basePixels = pixels
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
        if ownsMemory { basePixels.deallocate() }
        shadeBuffer.deallocate()
        maskScratch.deallocate()
    }

    // MARK: Graphics state

    /// Pushes a copy of the graphics state.
    public func saveGState() { gstateStack.append(gstate) }

    /// Pops the graphics state saved last. Ignored when nothing is saved (CoreGraphics logs).
    public func restoreGState() {
        if let saved = gstateStack.popLast() { gstate = saved }
    }

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
    /// straight segments drawn for it. Default 0.2; clamped to 0.01…100.
    public func setFlatness(_ flatness: CGFloat) {
        gstate.flatness = flatness.isNaN ? CGContext.defaultFlatness : min(max(flatness, 0.01), 100)
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

    /// A copy of the context's pixels as an image.
    public func makeImage() -> CGImage? {
        var out = [UInt32](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { buf in
            for y in 0..<height {
                (buf.baseAddress! + y * width).update(from: basePixels + y * baseRowStride, count: width)
            }
        }
        return CGImage(width: width, height: height, pixels: out)
    }

    // MARK: Internal

    /// Base space (y up) to raster space (y down, rows from the top).
    var baseToRaster: CGAffineTransform { CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)) }

    /// User space to raster space.
    var userToRaster: CGAffineTransform { gstate.ctm.concatenating(baseToRaster) }
}
