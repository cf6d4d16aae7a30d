import Foundation

// Image sampling. Device pixel centres map through one affine transform into image pixel space
// (u, v), with pixel i covering [i, i+1). Quality picks the filter:
//   none          nearest pixel
//   low           bilinear on the image
//   default/medium bilinear on the pyramid level nearest below the minification (box-filtered
//                 2×2 averages), so a downscaled image does not alias
//   high          trilinear: bilinear on the two bracketing levels, blended
// Rejected: bicubic for magnification (marginal gain for UI artwork at 2×, 4× the samples).

/// What an image paint produces from its samples.
enum ImagePaintMode {
    /// The image's own colours.
    case color
    /// The fill colour through an image mask (CoreGraphics draws image masks this way).
    case stencil(UInt32)
    /// Only how much each pixel lets through, in the alpha channel (for clipping to a mask).
    case maskValue(isImageMask: Bool)
}

/// One pyramid level as a raw buffer for the duration of a draw.
struct SampledLevel {
    let pixels: UnsafePointer<UInt32>
    let width: Int
    let height: Int
    /// Level pixels per level-0 pixel.
    let scaleX: CGFloat, scaleY: CGFloat
}

struct ImagePaint: PaintSource {
    let primary: SampledLevel
    /// The next coarser level and its weight, for trilinear filtering.
    let secondary: SampledLevel?
    let secondaryWeight: UInt32
    /// Raster pixel → level-0 image coordinates.
    let toImage: CGAffineTransform
    let nearest: Bool
    let tiled: Bool
    let mode: ImagePaintMode
    /// Global alpha, 0…255.
    let alpha: UInt32

    var isOpaque: Bool { false }

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let py = CGFloat(y) + 0.5
        for i in 0..<count {
            let p = toImage.apply(CGFloat(x + i) + 0.5, py)
            var s = sample(primary, p.x, p.y)
            if let secondary, secondaryWeight > 0 {
                s = Pixel.lerp(s, sample(secondary, p.x, p.y), secondaryWeight)
            }
            switch mode {
            case .color: break
            case .stencil(let color): s = Pixel.scale(color, by: s >> 24)
            case .maskValue(let isImageMask):
                s = isImageMask ? s & 0xFF00_0000 : CGImage.luminanceAlpha(s) << 24
            }
            out[i] = alpha == 255 ? s : Pixel.scale(s, by: alpha)
        }
    }

    @inline(__always)
    private func sample(_ level: SampledLevel, _ u0: CGFloat, _ v0: CGFloat) -> UInt32 {
        let u = u0 * level.scaleX, v = v0 * level.scaleY
        guard u.isFinite, v.isFinite else { return 0 }
        if nearest {
            return level.pixels[index(Int(u.rounded(.down)), level.width) + index(Int(v.rounded(.down)), level.height) * level.width]
        }
        let fu = u - 0.5, fv = v - 0.5
        let x0 = fu.rounded(.down), y0 = fv.rounded(.down)
        let ax = UInt32(((fu - x0) * 255).rounded()), ay = UInt32(((fv - y0) * 255).rounded())
        let ix0 = index(Int(x0), level.width), ix1 = index(Int(x0) + 1, level.width)
        let iy0 = index(Int(y0), level.height) * level.width, iy1 = index(Int(y0) + 1, level.height) * level.width
        let top = Pixel.lerp(level.pixels[iy0 + ix0], level.pixels[iy0 + ix1], ax)
        let bottom = Pixel.lerp(level.pixels[iy1 + ix0], level.pixels[iy1 + ix1], ax)
        return Pixel.lerp(top, bottom, ay)
    }

    /// A coordinate clamped to the image, or wrapped when tiling.
    @inline(__always)
    private func index(_ i: Int, _ n: Int) -> Int {
        if tiled {
            let m = i % n
            return m < 0 ? m + n : m
        }
        return min(max(i, 0), n - 1)
    }
}

extension CGImage {
    /// Luminance × alpha of a premultiplied pixel, 0…255 (premultiplied colours already carry alpha).
    @inline(__always)
    static func luminanceAlpha(_ p: UInt32) -> UInt32 {
        let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
        return (299 * r + 587 * g + 114 * b + 500) / 1000
    }
}
