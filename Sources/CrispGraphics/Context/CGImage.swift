import Foundation

/// How an image's alpha is stored, as `CGImageAlphaInfo`. Crisp's native images are
/// `.premultipliedFirst` in a 32-bit little-endian word (BGRA in memory); see `PixelLayout` for
/// the others a context (and so `makeImage()`) may have.
public enum CGImageAlphaInfo: UInt32, Sendable {
    /// No alpha: opaque colour components only.
    case none = 0
    /// Premultiplied alpha after the colour components (RGBA).
    case premultipliedLast
    /// Premultiplied alpha before the colour components (ARGB; BGRA in memory when little-endian).
    case premultipliedFirst
    /// Straight (non-premultiplied) alpha after the colour components.
    case last
    /// Straight (non-premultiplied) alpha before the colour components.
    case first
    /// No alpha; an unused byte after the colour components.
    case noneSkipLast
    /// No alpha; an unused byte before the colour components.
    case noneSkipFirst
    /// Alpha only, no colour (a mask).
    case alphaOnly
}

/// An immutable bitmap image, rows top to bottom, in the layout it was made with.
///
/// Every image has native `pixels`: one `UInt32` per pixel read as `0xAARRGGBB` (premultiplied,
/// CoreGraphics' `premultipliedFirst` with 32-bit little-endian byte order), which is what
/// drawing reads. An image made by a context in another layout (RGBA, ARGB, grey, alpha-only…,
/// see `PixelLayout`) also keeps its bytes in that layout: `bitsPerPixel`, `bytesPerRow`,
/// `alphaInfo`, `bitmapInfo`, `colorSpace` and `dataProvider` describe them. Rows are packed
/// (`bytesPerRow == width × bitsPerPixel / 8`).
public final class CGImage: @unchecked Sendable, CustomStringConvertible {
    /// Whether this is an image mask (`CGImage(maskWidth:…)`): its alpha says where the fill
    /// colour is painted, and it has no colour of its own.
    public let isMask: Bool
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels, row-major from the top row, premultiplied `0xAARRGGBB`.
    public let pixels: [UInt32]
    /// The layout of `dataProvider`'s bytes.
    let format: CGImageByteFormat
    /// The bytes in `format`, packed rows; nil for the native layout (the bytes of `pixels`).
    let layoutBytes: [UInt8]?

    /// Bytes from one row to the next in `dataProvider`'s data: `width × bitsPerPixel / 8`.
    public var bytesPerRow: Int { width * format.bytesPerPixel }
    /// Always 8.
    public var bitsPerComponent: Int { 8 }
    /// 32, or 8 for grey and alpha-only images.
    public var bitsPerPixel: Int { format.bytesPerPixel * 8 }
    /// How alpha is stored: `.premultipliedFirst` for native images.
    public var alphaInfo: CGImageAlphaInfo { format.alphaInfo }
    /// Alpha info and byte order, as the context that made the image was given them.
    public var bitmapInfo: CGBitmapInfo { format.bitmapInfo }
    /// sRGB, device grey for grey images, nil for alpha-only ones.
    public var colorSpace: CGColorSpace? { format.colorSpace }
    /// The image's bytes in its layout (`bytesPerRow × height`).
    public var dataProvider: CGDataProvider? {
        if let layoutBytes { return CGDataProvider(data: Data(layoutBytes)) }
        return pixels.withUnsafeBytes { CGDataProvider(data: Data($0)) }
    }

    /// Creates an image from premultiplied `0xAARRGGBB` pixels, top row first.
    ///
    /// - Precondition: `pixels.count == width * height`, both dimensions non-negative.
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width >= 0 && height >= 0, "CGImage dimensions must not be negative")
        precondition(pixels.count == width * height, "CGImage needs width × height pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.isMask = false
        format = .native
        layoutBytes = nil
    }

    /// An image of native `pixels` whose `dataProvider` gives `bytes`, the same pixels in
    /// `format` (packed rows).
    init(width: Int, height: Int, pixels: [UInt32], format: CGImageByteFormat, bytes: [UInt8]) {
        precondition(pixels.count == width * height && bytes.count == pixels.count * format.bytesPerPixel,
                     "CGImage needs width × height pixels and as many in its format")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.isMask = false
        self.format = format
        layoutBytes = format == .native ? nil : bytes
    }

    /// An image of packed rows in `layout` (`width × height × layout.bytesPerPixel` bytes); its
    /// native `pixels` are converted from them.
    init(width: Int, height: Int, layout: PixelLayout, bytes: [UInt8]) {
        precondition(bytes.count == width * height * layout.bytesPerPixel, "CGImage needs a whole number of rows")
        var native = [UInt32](repeating: 0, count: width * height)
        bytes.withUnsafeBytes { source in
            native.withUnsafeMutableBufferPointer { out in
                if let from = source.baseAddress, let to = out.baseAddress { layout.load(from, count: width * height, into: to) }
            }
        }
        self.width = width
        self.height = height
        self.pixels = native
        self.isMask = false
        format = CGImageByteFormat(kind: .context(layout))
        layoutBytes = layout.kind == .native ? nil : bytes
    }

    /// An image mask whose alpha channel holds where paint goes (0…255).
    init(maskWidth width: Int, height: Int, alpha: [UInt32]) {
        self.width = width
        self.height = height
        self.pixels = alpha
        self.isMask = true
        format = .native
        layoutBytes = nil
    }

    /// Guards what the image finds or keeps lazily: `pyramidLevels`, `opaqueFlag` and
    /// `resampleHistory`.
    private let cacheLock = NSLock()
    /// Lazily built, box-filtered half-size copies for minified drawing.
    private var pyramidLevels: [ImageLevel]?
    /// The mapping this image was last drawn with, and its samples kept for repeated draws.
    private var resampleHistory = ResampleHistory()

    private var opaqueFlag: Bool?

    /// Whether every pixel has alpha 255 (found on first use, then remembered). The pyramid's
    /// 2×2 averages of opaque pixels are opaque too.
    var hasOnlyOpaquePixels: Bool {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let flag = opaqueFlag { return flag }
        // The alphas ANDed a block at a time (a loop the compiler vectorizes; `allSatisfy`'s
        // exit at every pixel kept it scalar: 3 Mpx, the rotation's pictures, took milliseconds).
        let flag = !isMask && pixels.withUnsafeBufferPointer { p in
            var start = 0
            while start < p.count {
                let end = min(start + 4096, p.count)
                var all: UInt32 = 0xFFFF_FFFF
                for i in start..<end { all &= p[i] }
                if all >> 24 != 255 { return false }
                start = end
            }
            return true
        }
        opaqueFlag = flag
        return flag
    }

    /// This image at half its width and height (rounded up): each pixel the rounded mean of
    /// the 2 × 2 block under it, the last column or row of an odd size repeated. It is the level
    /// that drawing minified 2:1 samples, made once and kept with the image's smaller levels
    /// (which the half-size image shares); a 1 × 1 image is its own half. For pictures drawn at
    /// half resolution, such as the emulator's rotation frames.
    public func halfSize() -> CGImage {
        let levels = pyramid
        guard levels.count > 1 else { return self }
        let level = levels[1]
        let half = isMask ? CGImage(maskWidth: level.width, height: level.height, alpha: level.pixels)
                          : CGImage(width: level.width, height: level.height, pixels: level.pixels)
        cacheLock.lock()
        let opaque = opaqueFlag
        cacheLock.unlock()
        half.cacheLock.lock()
        half.pyramidLevels = Array(levels.dropFirst())
        // The means of opaque pixels are opaque.
        if opaque == true { half.opaqueFlag = true }
        half.cacheLock.unlock()
        return half
    }

    /// Level 0 is the image itself; each next level halves both sizes (rounding up).
    var pyramid: [ImageLevel] {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let levels = pyramidLevels { return levels }
        var levels = [ImageLevel(width: width, height: height, pixels: pixels)]
        while let last = levels.last, last.width > 1 || last.height > 1 {
            levels.append(last.halved())
        }
        pyramidLevels = levels
        return levels
    }

    /// The samples kept for drawing under `key` over `box` (see `ResampledSamples`): those kept
    /// before, or new ones from `make` when the last draw had the same mapping and `canMake`.
    func resampledSamples(for key: ResampleKey, box: PixelRect, canMake: Bool,
                          make: () -> ResampledSamples?) -> ResampledSamples? {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        return resampleHistory.samples(for: key, box: box, canMake: canMake, make: make)
    }

    /// The samples kept now, most recently used first.
    var keptSamples: [ResampledSamples] {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        return resampleHistory.kept
    }

    /// How many mappings' samples are kept now.
    var keptSampleCount: Int { keptSamples.count }

    /// The premultiplied pixel at column `x`, row `y` (row 0 is the top).
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height) image")
        return pixels[y * width + x]
    }

    /// The pixel at `(x, y)` as straight (non-premultiplied) RGBA bytes.
    public func straightRGBA(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        Pixel.unpremultiplied(pixel(x: x, y: y))
    }

    public var description: String { "CGImage(\(width)×\(height))" }
}
