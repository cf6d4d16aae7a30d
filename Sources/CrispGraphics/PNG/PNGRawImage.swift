// A lossless view of a PNG's pixels, for the optimizer and `crisp png info`.
//
// `PNGDecoder` makes premultiplied 8-bit pixels, which is what drawing wants but not what a
// lossless re-encoder can be judged on: 16-bit samples lose their low bytes and transparent
// pixels lose their colour. Here every pixel becomes straight (not premultiplied) 16-bit RGBA
// packed in one `UInt64`, the common denominator of every colour type and bit depth:
//
//     pixel = r << 48 | g << 32 | b << 16 | a        (each channel 0…65535)
//
// Samples of fewer bits are widened by bit replication (8-bit v → v · 257, 2-bit v → v · 21845),
// as the PNG spec recommends, so widening is exact and reversible; a tRNS colour key gives its
// pixels alpha 0 and keeps their colour. Two files hold the same image exactly when their
// `pixels` arrays are equal, whatever colour type, bit depth, palette order or interlacing
// each uses. The rejected alternative — comparing in each file's own sample format — needs a
// case for every pair of formats.

/// A PNG image decoded without loss: straight 16-bit RGBA per pixel.
public struct PNGRawImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels row by row, each `r << 48 | g << 32 | b << 16 | a` with 16-bit straight
    /// channels; lower bit depths are widened by bit replication (8-bit v → v · 257).
    public var pixels: [UInt64]

    /// An image from packed pixels.
    ///
    /// - Precondition: `pixels.count == width * height`, both dimensions ≥ 1.
    public init(width: Int, height: Int, pixels: [UInt64]) {
        precondition(width >= 1 && height >= 1 && pixels.count == width * height, "PNGRawImage needs width × height pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The straight colours of a premultiplied `CGImage` (exact: premultiplying them again
    /// gives back the image's pixels).
    public init(_ image: CGImage) {
        self.init(width: image.width, height: image.height, pixels: image.pixels.map { p in
            let s = Pixel.unpremultiplied(p)
            return Self.pack(r: UInt64(s.r) * 257, g: UInt64(s.g) * 257, b: UInt64(s.b) * 257, a: UInt64(s.a) * 257)
        })
    }

    /// Decodes a PNG file without loss.
    ///
    /// - Parameters:
    ///   - pngData: the bytes of the PNG file.
    ///   - maximumPixelCount: the largest `width × height` accepted (8 bytes per pixel are
    ///     allocated); default 2²⁵.
    /// - Throws: the `PNGError` `PNGDecoder` would throw for the same file.
    public init(pngData: some Collection<UInt8>, maximumPixelCount: Int = 1 << 25) throws(PNGError) {
        let bytes = Array(pngData)
        let contents = try bytes.withUnsafeBufferPointer { (file) throws(PNGError) in
            try PNGContents(bytes, file, maximumPixelCount: maximumPixelCount)
        }
        try self.init(contents)
    }

    /// Decodes the image data of a file whose chunks have been read.
    init(_ contents: PNGContents) throws(PNGError) {
        let header = contents.header
        // The CGImage decoder's converter checks the PLTE and tRNS payloads against the
        // header; both decoders accept the same files.
        let checked = try PNGPixelConverter(header: header, palette: contents.palette, transparency: contents.transparency)
        let table = Self.lookupTable(header, palette: contents.palette, transparency: contents.transparency)
        let key = contents.transparency.flatMap { Self.colorKey(header, $0) }
        var pixels = [UInt64](repeating: 0, count: header.width * header.height)
        try pixels.withUnsafeMutableBufferPointer { (pixels) throws(PNGError) in
            try table.withUnsafeBufferPointer { (table) throws(PNGError) in
                try contents.forEachScanline { row, pass, r in
                    let y = pass.y0 + r * pass.dy
                    let out = pixels.baseAddress! + y * header.width + pass.x0
                    guard let bad = Self.convert(row, count: pass.width, header: header, table: table, key: key,
                                                 into: out, stride: pass.dx) else { return nil }
                    return .paletteIndexOutOfRange(index: bad.index, paletteCount: checked.paletteCount,
                                                   x: pass.x0 + bad.position * pass.dx, y: y)
                }
            }
        }
        self.init(width: header.width, height: header.height, pixels: pixels)
    }

    /// Packs four 16-bit channels.
    @inline(__always)
    static func pack(r: UInt64, g: UInt64, b: UInt64, a: UInt64) -> UInt64 { r << 48 | g << 32 | b << 16 | a }

    /// The finished pixel for every sample value of an indexed or sub-16-bit gray image
    /// (index → palette entry; gray → widened gray, alpha 0 at the tRNS key); empty otherwise.
    /// Entries past an indexed image's palette are `nil`.
    private static func lookupTable(_ header: PNGHeader, palette: ArraySlice<UInt8>?,
                                    transparency: ArraySlice<UInt8>?) -> [UInt64?] {
        switch header.colorType {
        case .indexed:
            let palette = palette ?? [], alphas = transparency ?? []
            return (0..<256).map { i in
                guard i < palette.count / 3 else { return nil }
                let base = palette.startIndex + 3 * i
                let alpha = i < alphas.count ? alphas[alphas.startIndex + i] : 255
                return pack(r: UInt64(palette[base]) * 257, g: UInt64(palette[base + 1]) * 257,
                            b: UInt64(palette[base + 2]) * 257, a: UInt64(alpha) * 257)
            }
        case .gray where header.bitDepth < 16:
            let maximum = (1 << header.bitDepth) - 1
            let key = transparency.map { Int($0[$0.startIndex]) << 8 | Int($0[$0.startIndex + 1]) }
            return (0...maximum).map { v in
                let g = UInt64(v * (65535 / maximum))
                return pack(r: g, g: g, b: g, a: v == key ? 0 : 65535)
            }
        default:
            return []
        }
    }

    /// The tRNS colour key of a gray or RGB image as 16-bit samples at the image's depth
    /// (`r << 32 | g << 16 | b`; gray repeats its value); `nil` for other colour types.
    private static func colorKey(_ header: PNGHeader, _ trns: ArraySlice<UInt8>) -> UInt64? {
        func sample(_ i: Int) -> UInt64 { UInt64(trns[trns.startIndex + 2 * i]) << 8 | UInt64(trns[trns.startIndex + 2 * i + 1]) }
        switch header.colorType {
        case .gray: return sample(0) << 32 | sample(0) << 16 | sample(0)
        case .rgb: return sample(0) << 32 | sample(1) << 16 | sample(2)
        default: return nil
        }
    }

    /// Converts `count` pixels of an unfiltered scanline into `output[0]`, `output[stride]`, …
    ///
    /// - Returns: `nil`, or the position and value of the first palette index past the palette.
    private static func convert(_ row: UnsafePointer<UInt8>, count: Int, header: PNGHeader, table: UnsafeBufferPointer<UInt64?>,
                                key: UInt64?, into output: UnsafeMutablePointer<UInt64>, stride: Int) -> (position: Int, index: Int)? {
        let depth = header.bitDepth
        if !table.isEmpty {
            let mask = (1 << depth) - 1
            for i in 0..<count {
                let bit = i * depth
                let v = depth == 8 ? Int(row[i]) : Int(row[bit >> 3] >> (8 - depth - (bit & 7))) & mask
                guard let pixel = table[v] else { return (i, v) }
                output[i * stride] = pixel
            }
            return nil
        }
        // 8- and 16-bit samples of gray (16 only), gray + alpha, RGB and RGBA.
        let channels = header.colorType.channels, bytes = depth / 8
        for i in 0..<count {
            let p = row + i * channels * bytes
            func sample(_ c: Int) -> UInt64 {
                bytes == 1 ? UInt64(p[c]) * 257 : UInt64(p[2 * c]) << 8 | UInt64(p[2 * c + 1])
            }
            func raw(_ c: Int) -> UInt64 { bytes == 1 ? UInt64(p[c]) : sample(c) }
            let pixel: UInt64
            switch header.colorType {
            case .gray:
                let g = sample(0)
                pixel = pack(r: g, g: g, b: g, a: key == (g << 32 | g << 16 | g) ? 0 : 65535)
            case .grayAlpha:
                let g = sample(0)
                pixel = pack(r: g, g: g, b: g, a: sample(1))
            case .rgb:
                let opaque = key != (raw(0) << 32 | raw(1) << 16 | raw(2))
                pixel = pack(r: sample(0), g: sample(1), b: sample(2), a: opaque ? 65535 : 0)
            default:
                pixel = pack(r: sample(0), g: sample(1), b: sample(2), a: sample(3))
            }
            output[i * stride] = pixel
        }
        return nil
    }
}
