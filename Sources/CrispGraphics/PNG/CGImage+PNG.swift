import Foundation

// Conveniences that connect CGImage to the PNG codec and to files (read and written by
// `PNGFile`, atomically).

extension CGImage {
    /// Decodes an image from the bytes of a PNG file, with `PNGDecoder`'s default limits.
    ///
    /// - Throws: a `PNGError` describing why the data is not a valid PNG.
    ///
    /// The image keeps the layout Apple's decoder gives the file (see `PNGDecoder`): its
    /// `bitsPerPixel`, `alphaInfo`, `colorSpace` and `dataProvider` describe 8-bit grey, grey +
    /// alpha, RGB or straight RGBA bytes.
    public convenience init(pngData: some Collection<UInt8>) throws(PNGError) {
        let image = try PNGDecoder().decode(pngData)
        if let bytes = image.layoutBytes {
            self.init(width: image.width, height: image.height, pixels: image.pixels, format: image.format, bytes: bytes)
        } else {
            self.init(width: image.width, height: image.height, pixels: image.pixels)
        }
    }

    /// Reads and decodes the PNG file at `path`, with `PNGDecoder`'s default limits.
    ///
    /// - Throws: `PNGError.readFailed` if the file cannot be read, otherwise a decoding `PNGError`.
    public convenience init(contentsOfPNGFile path: String) throws(PNGError) {
        try self.init(pngData: try PNGFile.contents(ofFileAt: path))
    }

    /// The optimizer level `pngData()` and `writePNG(to:)` encode at: four filter strategies
    /// ranked with a fast zlib setting, the best compressed once at zlib's level 9.
    public static let pngEncodingLevel = 1

    /// The image encoded as a PNG file.
    ///
    /// With `.automatic`, the image goes through `PNGOptimizer` at `pngEncodingLevel`: the
    /// smallest lossless format (gray, RGB, palette with tRNS, low bit depths, …) and the
    /// best of several filter strategies, so every PNG Crisp writes is small. Decoding the
    /// result gives back exactly these premultiplied pixels.
    ///
    /// - Parameter colorType: the pixel format; default `.automatic`; `.rgba` always writes
    ///   8-bit RGBA with `PNGEncoder`.
    /// - Throws: `PNGError.emptyImage` for an image without pixels.
    public func pngData(colorType: PNGEncoder.ColorType = .automatic) throws(PNGError) -> [UInt8] {
        guard colorType == .automatic, width >= 1, height >= 1, width <= PNGHeader.maximumDimension,
              height <= PNGHeader.maximumDimension else {
            return try PNGEncoder(colorType: colorType).encode(self)
        }
        return try PNGOptimizer(level: Self.pngEncodingLevel, maximumPixelCount: .max).encode(PNGRawImage(self))
    }

    /// Encodes the image and writes it to `path`, replacing any existing file atomically.
    ///
    /// The data goes to a temporary file in the same directory, which is then renamed to
    /// `path`; on failure the temporary file is removed and `path` is left untouched. The new
    /// file gets the default permissions (`0666` masked by the umask).
    ///
    /// - Parameters:
    ///   - path: the file to write.
    ///   - colorType: the pixel format; default `.automatic` (smallest lossless).
    /// - Throws: `PNGError.writeFailed` naming the failing step, or `.emptyImage`.
    public func writePNG(to path: String, colorType: PNGEncoder.ColorType = .automatic) throws(PNGError) {
        let data = try pngData(colorType: colorType)
        try PNGFile.writeAtomically(data, to: path)
    }
}
