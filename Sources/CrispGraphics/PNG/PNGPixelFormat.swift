// One way of storing a `PNGRawImage` in a PNG file — colour type, bit depth, palette, colour
// key — and the packing of its pixels into unfiltered scanlines in that form.
//
// A format is only ever built by `PNGReduction` for an image it can hold exactly; packing
// trusts that (a gray format reads one channel, an 8-bit format the high byte of each
// sample, a keyed format writes transparent pixels' colour and leaves the key to tRNS).

/// A lossless storage format for one particular image.
struct PNGPixelFormat: Equatable, CustomStringConvertible {
    /// The IHDR colour type.
    let colorType: PNGColorType
    /// The IHDR bit depth.
    let bitDepth: Int
    /// The palette of an indexed format, in index order (packed like `PNGRawImage` pixels).
    let palette: [UInt64]
    /// For gray and RGB: the colour of every transparent pixel, written as the tRNS key
    /// (packed like `PNGRawImage` pixels, alpha ignored).
    let transparentKey: UInt64?

    init(colorType: PNGColorType, bitDepth: Int, palette: [UInt64] = [], transparentKey: UInt64? = nil) {
        precondition(colorType.allows(bitDepth: bitDepth))
        precondition((colorType == .indexed) == !palette.isEmpty && palette.count <= 1 << bitDepth)
        self.colorType = colorType
        self.bitDepth = bitDepth
        self.palette = palette
        self.transparentKey = transparentKey
    }

    /// E.g. `"indexed 2-bit (3 colours)"`, `"gray 8-bit + tRNS"`.
    var description: String {
        let extra = colorType == .indexed ? " (\(palette.count) colours)" : transparentKey != nil ? " + tRNS" : ""
        return "\(colorType.name) \(bitDepth)-bit\(extra)"
    }

    /// A header's format in words, e.g. `"RGBA 16-bit, interlaced"`.
    static func describe(_ header: PNGHeader) -> String {
        "\(header.colorType.name) \(header.bitDepth)-bit" + (header.isInterlaced ? ", interlaced" : "")
    }

    /// The IHDR for a non-interlaced image of this format.
    func header(width: Int, height: Int) -> PNGHeader {
        PNGHeader(width: width, height: height, bitDepth: bitDepth, colorType: colorType, isInterlaced: false)
    }

    /// The PLTE payload (indexed formats only).
    var paletteChunk: [UInt8]? {
        guard colorType == .indexed else { return nil }
        return palette.flatMap { p in [UInt8(truncatingIfNeeded: p >> 56), UInt8(truncatingIfNeeded: p >> 40), UInt8(truncatingIfNeeded: p >> 24)] }
    }

    /// The tRNS payload, if the format needs one: palette alphas up to the last translucent
    /// entry, or the colour key at the format's bit depth.
    var transparencyChunk: [UInt8]? {
        if colorType == .indexed {
            guard let last = palette.lastIndex(where: { $0 & 0xFFFF != 0xFFFF }) else { return nil }
            return palette[...last].map { UInt8(truncatingIfNeeded: $0 >> 8) }
        }
        guard let key = transparentKey else { return nil }
        var out: [UInt8] = []
        for shift: UInt64 in colorType == .gray ? [16] : [48, 32, 16] {
            let sample = UInt16(truncatingIfNeeded: key >> shift)
            let value = bitDepth == 16 ? sample : UInt16(sample >> 8) >> (8 - bitDepth)
            out += [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
        }
        return out
    }

    /// The bytes the PLTE and tRNS chunks take in a file (12 bytes of framing each).
    var chunkByteCount: Int {
        [paletteChunk, transparencyChunk].reduce(0) { $0 + ($1.map { 12 + $0.count } ?? 0) }
    }

    /// Packs every row of `image` into `output`, `rowBytes` bytes per row with no filter byte.
    ///
    /// - Precondition: the format holds the image exactly (see `PNGReduction`).
    func pack(_ image: PNGRawImage) -> [UInt8] {
        let header = header(width: image.width, height: image.height)
        let rowBytes = header.scanlineByteCount(pixels: image.width)
        var output = [UInt8](repeating: 0, count: rowBytes * image.height)
        var indices: [UInt64: UInt8] = [:]
        for (i, p) in palette.enumerated() { indices[p] = UInt8(i) }
        image.pixels.withUnsafeBufferPointer { pixels in
            output.withUnsafeMutableBufferPointer { output in
                var lastPixel = pixels[0], lastIndex = indices[lastPixel] ?? 0
                for y in 0..<image.height {
                    let row = output.baseAddress! + y * rowBytes
                    let source = pixels.baseAddress! + y * image.width
                    switch (colorType, bitDepth) {
                    case (.indexed, _), (.gray, 1), (.gray, 2), (.gray, 4):
                        let isIndexed = colorType == .indexed, depth = bitDepth, divisor = 255 / ((1 << depth) - 1)
                        for x in 0..<image.width {
                            let p = source[x]
                            let v: UInt8
                            if isIndexed {
                                if p != lastPixel { lastPixel = p; lastIndex = indices[p]! }
                                v = lastIndex
                            } else {
                                v = UInt8(truncatingIfNeeded: p >> 24) / UInt8(divisor)
                            }
                            if depth == 8 {
                                row[x] = v
                            } else {
                                let bit = x * depth
                                row[bit >> 3] |= v << (8 - depth - (bit & 7))
                            }
                        }
                    default:
                        Self.packDirect(source, count: image.width, channels: colorType, sixteenBits: bitDepth == 16, into: row)
                    }
                }
            }
        }
        return output
    }

    /// Packs 8- or 16-bit samples of gray, gray + alpha, RGB or RGBA, big-endian.
    private static func packDirect(_ source: UnsafePointer<UInt64>, count: Int, channels colorType: PNGColorType,
                                   sixteenBits: Bool, into row: UnsafeMutablePointer<UInt8>) {
        let shifts: [UInt64]
        switch colorType {
        case .gray: shifts = [16]
        case .grayAlpha: shifts = [16, 0]
        case .rgb: shifts = [48, 32, 16]
        default: shifts = [48, 32, 16, 0]
        }
        shifts.withUnsafeBufferPointer { shifts in
            var out = row
            for x in 0..<count {
                let p = source[x]
                for shift in shifts {
                    let sample = p >> shift
                    if sixteenBits {
                        out[0] = UInt8(truncatingIfNeeded: sample >> 8)
                        out[1] = UInt8(truncatingIfNeeded: sample)
                        out += 2
                    } else {
                        out[0] = UInt8(truncatingIfNeeded: sample >> 8)
                        out += 1
                    }
                }
            }
        }
    }
}
