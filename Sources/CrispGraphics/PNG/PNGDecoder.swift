// PNG decoding: chunk stream → validated header → inflated image data → unfiltered scanlines
// → premultiplied pixels.
//
// The decoder is written for hostile input. Nothing is allocated from a header value until
// the dimensions are checked (non-zero, ≤ 2³¹ − 1, width × height ≤ `maximumPixelCount`);
// the image data is inflated into a buffer of exactly the size the header implies, so a
// decompression bomb stops there; every chunk length is checked against the bytes present;
// every CRC is verified. Every failure is a `PNGError` that names what and where.
//
// Following libpng's model, the chunk rules enforced are those that make the image
// ambiguous when broken (IHDR first, PLTE before IDAT, consecutive IDATs, tRNS sizes,
// unknown critical chunks); a palette longer than the bit depth can index is accepted, as
// libpng does, since its extra entries can never be used. CRCs are checked on every chunk,
// ancillary ones included (libpng only warns about those). Ancillary chunks are skipped after their CRC is checked: the
// colour-space chunks (gAMA, cHRM, sRGB, iCCP, sBIT) are ignored — samples are taken as
// sRGB, the only colour space Crisp has — as are bKGD, pHYs, text and time chunks.

/// Decodes PNG files into `CGImage`s.
///
/// Supports every colour type (gray, RGB, indexed, gray + alpha, RGBA) at every legal bit
/// depth, PLTE and tRNS transparency, Adam7 interlacing and image data split over any number
/// of IDAT chunks. 16-bit samples are reduced to 8 bits rounding to nearest
/// (`round(v / 257)`); 1-, 2- and 4-bit gray is scaled to the full 0…255 range. Pixels come
/// out premultiplied; the image also keeps the layout Apple's decoder would give it (8-bit grey,
/// grey + alpha, RGB, straight RGBA; `bitsPerPixel`, `alphaInfo`, `colorSpace`, `dataProvider`),
/// so a mask can be made from a grey PNG's bytes as on iOS. Ancillary chunks, including gAMA and other colour-space information,
/// are ignored. Bytes after the zlib stream and after IEND are ignored. An animated PNG (APNG)
/// decodes to its default image; `PNGOptimizer` refuses it rather than drop the animation.
public struct PNGDecoder: Sendable {
    /// The largest `width × height` the decoder accepts; larger images throw
    /// `PNGError.imageTooLarge` before anything is allocated. Default 2²⁸ (a 16384 × 16384 image).
    public var maximumPixelCount: Int

    /// Creates a decoder.
    ///
    /// - Parameter maximumPixelCount: the largest `width × height` accepted; default 2²⁸.
    public init(maximumPixelCount: Int = 1 << 28) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// Decodes a complete PNG file.
    ///
    /// - Throws: a `PNGError` describing the first problem found.
    public func decode(_ bytes: some Collection<UInt8>) throws(PNGError) -> CGImage {
        let file = Array(bytes)
        return try file.withUnsafeBufferPointer { (buffer) throws(PNGError) in try decode(file, buffer) }
    }

    private func decode(_ bytes: [UInt8], _ file: UnsafeBufferPointer<UInt8>) throws(PNGError) -> CGImage {
        let contents = try PNGContents(bytes, file, maximumPixelCount: maximumPixelCount)
        let header = contents.header
        let pixels = try Self.pixels(of: contents)
        return try CGImage(width: header.width, height: header.height, pixels: pixels,
                           format: Self.format(of: contents), bytes: Self.bytes(of: contents, pixels: pixels))
    }

    /// The premultiplied pixels of a file's (or an APNG frame's) image data.
    static func pixels(of contents: PNGContents) throws(PNGError) -> [UInt32] {
        let header = contents.header
        let converter = try PNGPixelConverter(header: header, palette: contents.palette, transparency: contents.transparency)
        var pixels = [UInt32](repeating: 0, count: header.width * header.height)
        try pixels.withUnsafeMutableBufferPointer { (pixels) throws(PNGError) in
            try contents.forEachScanline { row, pass, r in
                let y = pass.y0 + r * pass.dy
                let start = pixels.baseAddress! + y * header.width + pass.x0
                guard let bad = converter.convert(row, count: pass.width, into: start, stride: pass.dx) else { return nil }
                return .paletteIndexOutOfRange(index: bad.index, paletteCount: converter.paletteCount,
                                               x: pass.x0 + bad.position * pass.dx, y: y)
            }
        }
        return pixels
    }

    /// The layout Apple's decoder gives a file: 8-bit grey for grey, grey + alpha when grey has
    /// alpha (a channel or a tRNS key), 24-bit RGB for RGB and opaque palettes, straight RGBA
    /// when RGB or a palette has alpha.
    static func format(of contents: PNGContents) -> CGImageByteFormat {
        let hasTransparency = contents.transparency != nil
        switch contents.header.colorType {
        case .gray:
            if !hasTransparency, let gray = PixelLayout(bitsPerComponent: 8, space: CGColorSpaceCreateDeviceGray(),
                                                         bitmapInfo: CGImageAlphaInfo.none.rawValue) {
                return CGImageByteFormat(kind: .context(gray))
            }
            return CGImageByteFormat(kind: .grayAlpha)
        case .grayAlpha: return CGImageByteFormat(kind: .grayAlpha)
        case .rgb, .indexed: return CGImageByteFormat(kind: hasTransparency ? .rgbaStraight : .rgb)
        case .rgba: return CGImageByteFormat(kind: .rgbaStraight)
        }
    }

    /// The file's pixels in `format(of:)`: from the premultiplied pixels when they are opaque
    /// (exact), otherwise from the straight samples (so translucent colours lose nothing).
    static func bytes(of contents: PNGContents, pixels: [UInt32]) throws(PNGError) -> [UInt8] {
        let format = format(of: contents)
        switch format.kind {
        case .context, .rgb:
            return format.bytes(of: pixels)
        case .grayAlpha, .rgbaStraight:
            let raw = try PNGRawImage(contents)
            let n = format.bytesPerPixel
            var out = [UInt8](repeating: 0, count: raw.pixels.count * n)
            for (i, p) in raw.pixels.enumerated() {
                // 16-bit straight channels to 8 bits, rounding to nearest (as the decoder does).
                let channel = { (shift: UInt64) in UInt8(((p >> shift) & 0xFFFF + 128) / 257) }
                if n == 2 {
                    out[2 * i] = channel(48)
                    out[2 * i + 1] = channel(0)
                } else {
                    out[4 * i] = channel(48)
                    out[4 * i + 1] = channel(32)
                    out[4 * i + 2] = channel(16)
                    out[4 * i + 3] = channel(0)
                }
            }
            return out
        }
    }
}
