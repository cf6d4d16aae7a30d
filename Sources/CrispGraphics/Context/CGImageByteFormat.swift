import Foundation

/// How the bytes of a `CGImage`'s `dataProvider` are laid out: a context's layout (`PixelLayout`),
/// or one of the layouts Apple's PNG decoder gives that no context draws into — grey + alpha
/// (16 bits), RGB (24 bits) and RGBA with straight alpha (`.last`).
///
/// Drawing never reads these bytes (it reads the image's native `pixels`); they exist so code
/// that takes an image apart through its provider — a mask made from a grey PNG's bytes, as in
/// the loupe essay — sees what it would see on iOS.
struct CGImageByteFormat: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// A context layout.
        case context(PixelLayout)
        /// Grey, then straight alpha, one byte each.
        case grayAlpha
        /// Red, green, blue, one byte each, no alpha.
        case rgb
        /// Red, green, blue, straight alpha, one byte each.
        case rgbaStraight
    }

    let kind: Kind

    static let native = CGImageByteFormat(kind: .context(.native))

    var bytesPerPixel: Int {
        switch kind {
        case .context(let layout): layout.bytesPerPixel
        case .grayAlpha: 2
        case .rgb: 3
        case .rgbaStraight: 4
        }
    }

    var bitmapInfo: CGBitmapInfo {
        switch kind {
        case .context(let layout): layout.bitmapInfo
        case .grayAlpha, .rgbaStraight: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue)
        case .rgb: CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue)
        }
    }

    var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .premultipliedFirst
    }

    var colorSpace: CGColorSpace? {
        switch kind {
        case .context(let layout): layout.colorSpace
        case .grayAlpha: CGColorSpaceCreateDeviceGray()
        case .rgb, .rgbaStraight: CGColorSpace(name: CGColorSpace.sRGB)
        }
    }

    /// Whether the format stores alpha (so a masked image can keep it).
    var hasAlpha: Bool {
        switch kind {
        case .context(let layout): layout.alphaInfo != .none && layout.alphaInfo != .noneSkipFirst && layout.alphaInfo != .noneSkipLast
        case .grayAlpha, .rgbaStraight: true
        case .rgb: false
        }
    }

    /// Native premultiplied `pixels` in this format, packed rows (exact for opaque pixels;
    /// straight formats round each channel of a translucent pixel to the nearest level).
    func bytes(of pixels: [UInt32]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: pixels.count * bytesPerPixel)
        switch kind {
        case .context(let layout):
            pixels.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBytes { destination in
                    if let from = source.baseAddress, let to = destination.baseAddress { layout.store(from, count: pixels.count, to: to) }
                }
            }
        case .grayAlpha:
            for (i, p) in pixels.enumerated() {
                let s = Pixel.unpremultiplied(p)
                out[2 * i] = s.r
                out[2 * i + 1] = s.a
            }
        case .rgb, .rgbaStraight:
            let n = bytesPerPixel
            for (i, p) in pixels.enumerated() {
                let s = Pixel.unpremultiplied(p)
                out[n * i] = s.r
                out[n * i + 1] = s.g
                out[n * i + 2] = s.b
                if n == 4 { out[n * i + 3] = s.a }
            }
        }
        return out
    }
}
