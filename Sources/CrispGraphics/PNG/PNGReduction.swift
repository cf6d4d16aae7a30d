// Lossless reductions: which smaller PNG formats can hold an image exactly.
//
// One pass over the pixels gathers the facts every reduction depends on:
//
//     8 bits suffice         every sample is v · 257 (its two bytes are equal)
//     opaque                 every alpha is 65535
//     gray                   r = g = b everywhere; the gray depth is the smallest of 1, 2, 4, 8
//                            bits whose levels (multiples of 255, 85, 17, 1) hold every value
//     one transparent colour every alpha is 0 or 65535, every transparent pixel has the same
//                            colour and no opaque pixel has it: a tRNS colour key replaces alpha
//     ≤ 256 colours          (8-bit images only) a palette, at 1, 2, 4 or 8 bits per index
//
// and the candidates follow: gray or RGB (with a key, or with alpha when it cannot be a key)
// at 8 or 16 bits, and a palette. The palette is sorted with translucent entries first, so
// tRNS stops at the last of them, then opaque ones; within each group either by luma (nearby
// indices for similar colours make filtered rows smoother) or by frequency (the commonest
// colours get the smallest indices). Which candidate compresses best depends on the content,
// so the optimizer tries them (at low levels it takes the one with the fewest bits per pixel).
//
// An ICC profile describes either gray or colour samples, never both, so while an iCCP chunk is
// kept the reductions stay within the image's family (gray formats for gray, RGB and palette
// for colour). 16-bit images with ≤ 256 colours are not paletted: palette entries are 8-bit.

/// The facts about an image that decide its lossless formats.
struct PNGReduction {
    /// How a palette is ordered.
    enum PaletteOrder: CaseIterable {
        /// Translucent entries first (by alpha), then opaque ones, each group by luma.
        case luma
        /// Translucent entries first, then opaque ones, each group by falling frequency.
        case frequency
    }

    /// Whether every sample is an 8-bit value widened (`v · 257`).
    private(set) var fitsEightBits = true
    /// Whether every pixel has alpha 65535.
    private(set) var isOpaque = true
    /// Whether r = g = b in every pixel.
    private(set) var isGray = true
    /// The smallest gray bit depth (1, 2, 4, 8) holding every value, if gray and 8-bit.
    private(set) var grayBitDepth = 1
    /// The one colour of all transparent pixels, when alpha can be a tRNS colour key.
    private(set) var transparentKey: UInt64?
    /// Every distinct pixel and how often it occurs, if there are at most 256 and they fit 8 bits.
    private(set) var colorCounts: [UInt64: Int]?

    /// Gathers the facts about `image`.
    init(_ image: PNGRawImage) {
        var counts: [UInt64: Int]? = [:]
        var hasBinaryAlpha = true
        var key: UInt64?, keyIsUnique = true
        var grayLevels = 0  // bit 0: needs > 1 bit, bit 1: > 2 bits, bit 2: > 4 bits
        image.pixels.withUnsafeBufferPointer { pixels in
            var previous = pixels[0] ^ 1, run = 0
            for p in pixels {
                if p == previous { run += 1; continue }
                if run > 0, counts != nil {
                    counts![previous, default: 0] += run
                    if counts!.count > 256 { counts = nil }
                }
                previous = p
                run = 1
                if fitsEightBits && (p >> 8) & 0x00FF_00FF_00FF_00FF != p & 0x00FF_00FF_00FF_00FF { fitsEightBits = false }
                let alpha = p & 0xFFFF
                if alpha != 0xFFFF {
                    isOpaque = false
                    if alpha != 0 {
                        hasBinaryAlpha = false
                    } else if key == nil {
                        key = p
                    } else if key != p {
                        keyIsUnique = false
                    }
                }
                if isGray {
                    let r = p >> 48, g = (p >> 32) & 0xFFFF, b = (p >> 16) & 0xFFFF
                    if r != g || g != b {
                        isGray = false
                    } else {
                        let v = b >> 8
                        if v % 17 != 0 { grayLevels |= 7 } else if v % 85 != 0 { grayLevels |= 3 } else if v % 255 != 0 { grayLevels |= 1 }
                    }
                }
            }
            if counts != nil {
                counts![previous, default: 0] += run
                if counts!.count > 256 { counts = nil }
            }
        }
        if !fitsEightBits { counts = nil }
        grayBitDepth = grayLevels & 4 != 0 ? 8 : grayLevels & 2 != 0 ? 4 : grayLevels & 1 != 0 ? 2 : 1
        colorCounts = counts
        // A colour key works only if no opaque pixel has the transparent pixels' colour.
        if !isOpaque, hasBinaryAlpha, keyIsUnique, let key {
            let colour = key | 0xFFFF
            transparentKey = image.pixels.contains(colour) ? nil : key
        }
    }

    /// The gray or RGB format (with a key or alpha as needed) holding the image, if the
    /// family allows it.
    func directFormat(gray: Bool) -> PNGPixelFormat {
        let depth = fitsEightBits ? 8 : 16
        if gray {
            precondition(isGray)
            if isOpaque || transparentKey != nil {
                return PNGPixelFormat(colorType: .gray, bitDepth: fitsEightBits ? grayBitDepth : 16, transparentKey: transparentKey)
            }
            return PNGPixelFormat(colorType: .grayAlpha, bitDepth: depth)
        }
        if isOpaque || transparentKey != nil {
            return PNGPixelFormat(colorType: .rgb, bitDepth: depth, transparentKey: transparentKey)
        }
        return PNGPixelFormat(colorType: .rgba, bitDepth: depth)
    }

    /// The indexed format, if the image has at most 256 colours of 8 bits.
    func paletteFormat(_ order: PaletteOrder) -> PNGPixelFormat? {
        guard let colorCounts else { return nil }
        func luma(_ p: UInt64) -> UInt64 { 299 * (p >> 48) + 587 * ((p >> 32) & 0xFFFF) + 114 * ((p >> 16) & 0xFFFF) }
        let entries = colorCounts.sorted { x, y in
            let ax = x.key & 0xFFFF, ay = y.key & 0xFFFF
            if (ax == 0xFFFF) != (ay == 0xFFFF) { return ax != 0xFFFF }
            switch order {
            case .luma:
                if ax != ay { return ax < ay }
                if luma(x.key) != luma(y.key) { return luma(x.key) < luma(y.key) }
            case .frequency:
                if x.value != y.value { return x.value > y.value }
            }
            return x.key < y.key
        }.map(\.key)
        let depth = entries.count <= 2 ? 1 : entries.count <= 4 ? 2 : entries.count <= 16 ? 4 : 8
        return PNGPixelFormat(colorType: .indexed, bitDepth: depth, palette: entries)
    }

    /// The candidate formats, best guess first.
    ///
    /// - Parameters:
    ///   - family: `.gray` or `.rgb` to stay within the gray or colour formats (an ICC
    ///     profile is kept); `nil` for any.
    ///   - exhaustive: every candidate (both palette orders, gray and palette and RGB where
    ///     they apply); otherwise only the one with the fewest bits per pixel.
    func candidates(family: PNGColorType?, exhaustive: Bool) -> [PNGPixelFormat] {
        var all: [PNGPixelFormat] = []
        let allowsGray = isGray && family != .rgb, allowsColor = family != .gray
        if allowsGray { all.append(directFormat(gray: true)) }
        if allowsColor, let palette = paletteFormat(.luma) {
            all.append(palette)
            if exhaustive, let other = paletteFormat(.frequency), other != palette { all.append(other) }
        }
        if allowsColor && (exhaustive || all.isEmpty) { all.append(directFormat(gray: false)) }
        if exhaustive { return all }
        // Fewest bits per pixel; gray before a palette of the same depth (no PLTE to store).
        return [all.min { $0.bitDepth * $0.colorType.channels < $1.bitDepth * $1.colorType.channels }!]
    }
}
