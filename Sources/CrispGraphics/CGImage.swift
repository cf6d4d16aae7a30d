import Foundation

/// How an image's alpha is stored, as `CGImageAlphaInfo`. Crisp images are always
/// `.premultipliedFirst` in a 32-bit little-endian word (BGRA in memory).
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0, premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst, alphaOnly
}

/// An immutable bitmap image: premultiplied 8-bit BGRA pixels, rows top to bottom.
///
/// Each pixel is one `UInt32` read as `0xAARRGGBB` (CoreGraphics' `premultipliedFirst` with
/// 32-bit little-endian byte order), row 0 is the image's top row, and rows are packed
/// (`bytesPerRow == width * 4`).
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

    /// Bytes from one row to the next: always `width * 4`.
    public var bytesPerRow: Int { width * 4 }
    /// Always 8.
    public var bitsPerComponent: Int { 8 }
    /// Always 32.
    public var bitsPerPixel: Int { 32 }
    /// Always `.premultipliedFirst`.
    public var alphaInfo: CGImageAlphaInfo { .premultipliedFirst }
    /// Always sRGB.
    public var colorSpace: CGColorSpace? { CGColorSpace(name: CGColorSpace.sRGB) }

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
    }

    /// An image mask whose alpha channel holds where paint goes (0…255).
    init(maskWidth width: Int, height: Int, alpha: [UInt32]) {
        self.width = width
        self.height = height
        self.pixels = alpha
        self.isMask = true
    }

    /// Lazily built, box-filtered half-size copies for minified drawing (the lock also guards
    /// `opaqueFlag`).
    private let pyramidLock = NSLock()
    private var pyramidLevels: [ImageLevel]?

    private var opaqueFlag: Bool?

    /// Whether every pixel has alpha 255 (found on first use, then remembered). The pyramid's
    /// 2×2 averages of opaque pixels are opaque too.
    var hasOnlyOpaquePixels: Bool {
        pyramidLock.lock()
        defer { pyramidLock.unlock() }
        if let flag = opaqueFlag { return flag }
        let flag = !isMask && pixels.allSatisfy { $0 >> 24 == 255 }
        opaqueFlag = flag
        return flag
    }

    /// Level 0 is the image itself; each next level halves both sizes (rounding up).
    var pyramid: [ImageLevel] {
        pyramidLock.lock()
        defer { pyramidLock.unlock() }
        if let levels = pyramidLevels { return levels }
        var levels = [ImageLevel(width: width, height: height, pixels: pixels)]
        while let last = levels.last, last.width > 1 || last.height > 1 {
            levels.append(last.halved())
        }
        pyramidLevels = levels
        return levels
    }

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
