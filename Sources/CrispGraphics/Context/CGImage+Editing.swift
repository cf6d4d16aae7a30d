import CCrispKernels
import Foundation

extension CGImage {
    /// The part of the image inside `rect` (pixels, origin at the top-left), as
    /// `CGImage.cropping(to:)`, in the image's layout; nil when the intersection is empty.
    public func cropping(to rect: CGRect) -> CGImage? {
        guard rect.isFiniteRect else { return nil }
        let r = rect.standardized.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !r.isNull, r.width >= 1, r.height >= 1 else { return nil }
        let x0 = Int(r.minX), y0 = Int(r.minY), w = Int(r.width), h = Int(r.height)
        var out = [UInt32]()
        out.reserveCapacity(w * h)
        for y in y0..<(y0 + h) { out.append(contentsOf: pixels[(y * width + x0)..<(y * width + x0 + w)]) }
        if isMask { return CGImage(maskWidth: w, height: h, alpha: out) }
        guard let layoutBytes else { return CGImage(width: w, height: h, pixels: out) }
        let n = format.bytesPerPixel
        var bytes = [UInt8]()
        bytes.reserveCapacity(w * h * n)
        for y in y0..<(y0 + h) { bytes.append(contentsOf: layoutBytes[((y * width + x0) * n)..<((y * width + x0 + w) * n)]) }
        return CGImage(width: w, height: h, pixels: out, format: format, bytes: bytes)
    }

    /// Creates an image mask, as `CGImage(maskWidth:height:bitsPerComponent:bitsPerPixel:bytesPerRow:provider:decode:shouldInterpolate:)`.
    ///
    /// Samples act as *inverse* alpha: with the default decode `[0, 1]`, a sample of 0 paints
    /// and the largest sample masks out. `bitsPerComponent` is 1, 2, 4 or 8 and equal to
    /// `bitsPerPixel`. Returns nil for other layouts or too little data.
    ///
    /// `decode` points at two values (the decode range's low and high end), read during the call
    /// only. Swift code that has the range as an array should pass the array itself: the
    /// `[CGFloat]?` overload is the one chosen for array literals and `nil`, so no temporary
    /// pointer to an array is ever formed (one formed inside an expression macro such as
    /// `#require` has been seen to dangle under AddressSanitizer).
    @_disfavoredOverload
    public convenience init?(maskWidth width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                             provider: CGDataProvider, decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool) {
        self.init(maskWidth: width, height: height, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                  bytesPerRow: bytesPerRow, provider: provider, decodeRange: decode.map { ($0[0], $0[1]) },
                  shouldInterpolate: shouldInterpolate)
    }

    /// Creates an image mask with the decode range as an array of two values (`[1, 0]` inverts
    /// the samples), as Swift callers write it. Nil means the default `[0, 1]`; an array of any
    /// length but two returns nil (a mask has one component, so one pair).
    public convenience init?(maskWidth width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                             provider: CGDataProvider, decode: [CGFloat]?, shouldInterpolate: Bool) {
        if let decode, decode.count != 2 { return nil }
        self.init(maskWidth: width, height: height, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                  bytesPerRow: bytesPerRow, provider: provider, decodeRange: decode.map { ($0[0], $0[1]) },
                  shouldInterpolate: shouldInterpolate)
    }

    private convenience init?(maskWidth width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                              provider: CGDataProvider, decodeRange: (CGFloat, CGFloat)?, shouldInterpolate: Bool) {
        guard width > 0, height > 0, width <= CGContext.maximumDimension, height <= CGContext.maximumDimension,
              [1, 2, 4, 8].contains(bitsPerComponent), bitsPerPixel == bitsPerComponent,
              bytesPerRow >= (width * bitsPerComponent + 7) / 8,
              let data = provider.data, data.count >= bytesPerRow * (height - 1) + (width * bitsPerComponent + 7) / 8 else { return nil }
        let maxSample = CGFloat((1 << bitsPerComponent) - 1)
        let (d0, d1) = decodeRange ?? (0, 1)
        var alpha = [UInt32](repeating: 0, count: width * height)
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for y in 0..<height {
                for x in 0..<width {
                    let bit = x * bitsPerComponent
                    let byte = bytes[y * bytesPerRow + bit / 8]
                    let shift = 8 - bitsPerComponent - bit % 8
                    let sample = CGFloat((Int(byte) >> shift) & ((1 << bitsPerComponent) - 1))
                    let s = min(max(d0 + sample / maxSample * (d1 - d0), 0), 1)
                    alpha[y * width + x] = UInt32(((1 - s) * 255).rounded()) << 24
                }
            }
        }
        self.init(maskWidth: width, height: height, alpha: alpha)
    }

    /// The image with `mask` applied, as `CGImage.masking(_:)`: an image mask's samples act as
    /// inverse alpha, an image's gray level (luminance) as alpha. The mask is scaled to the
    /// image's size. The result keeps the image's layout when that stores alpha, and is native
    /// (premultiplied BGRA) otherwise. Nil when the receiver is itself a mask.
    public func masking(_ mask: CGImage) -> CGImage? {
        guard !isMask, mask.width > 0, mask.height > 0 else { return nil }
        var out = pixels
        for y in 0..<height {
            let my = min(mask.height - 1, y * mask.height / max(height, 1))
            for x in 0..<width {
                let mx = min(mask.width - 1, x * mask.width / max(width, 1))
                out[y * width + x] = Pixel.scale(out[y * width + x], by: mask.maskValue(mask.pixels[my * mask.width + mx]))
            }
        }
        guard format != .native, format.hasAlpha else { return CGImage(width: width, height: height, pixels: out) }
        return CGImage(width: width, height: height, pixels: out, format: format, bytes: format.bytes(of: out))
    }

    /// How much a mask pixel lets through (0…255): an image mask's stored alpha, or an image's
    /// luminance (its samples act as alpha).
    @inline(__always)
    func maskValue(_ p: UInt32) -> UInt32 {
        if isMask { return p >> 24 }
        let (r, g, b, a) = Pixel.unpremultiplied(p)
        let lum = (299 * UInt32(r) + 587 * UInt32(g) + 114 * UInt32(b) + 500) / 1000
        return (lum * UInt32(a) + 127) / 255
    }
}

/// One level of an image's minification pyramid.
struct ImageLevel {
    let width: Int
    let height: Int
    let pixels: [UInt32]

    /// The next level: each pixel the rounded mean of a 2×2 block per channel (edge pixels
    /// repeated for odd sizes), by the SSE2 kernel `crisp_halve` (CCrispKernels/Halve.c).
    func halved() -> ImageLevel {
        let w = max(1, (width + 1) / 2), h = max(1, (height + 1) / 2)
        let width = width, height = height
        let out = [UInt32](unsafeUninitializedCapacity: w * h) { target, count in
            pixels.withUnsafeBufferPointer { source in
                crisp_halve(source.baseAddress!, width, height, target.baseAddress!)
            }
            count = w * h
        }
        return ImageLevel(width: w, height: h, pixels: out)
    }
}
