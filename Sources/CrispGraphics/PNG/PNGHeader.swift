// The IHDR chunk: image size, pixel format and interlace method, validated on the way in,
// plus the geometry derived from it (scanline sizes, Adam7 passes). All arithmetic that sizes
// a buffer is done here, after the dimensions have been checked against the pixel limit.

/// PNG colour types (the IHDR byte).
enum PNGColorType: UInt8 {
    case gray = 0, rgb = 2, indexed = 3, grayAlpha = 4, rgba = 6

    /// Samples per pixel.
    var channels: Int {
        switch self {
        case .gray, .indexed: return 1
        case .grayAlpha: return 2
        case .rgb: return 3
        case .rgba: return 4
        }
    }

    /// The colour type in words: `"gray"`, `"RGB"`, `"indexed"`, `"gray + alpha"`, `"RGBA"`.
    var name: String {
        switch self {
        case .gray: return "gray"
        case .rgb: return "RGB"
        case .indexed: return "indexed"
        case .grayAlpha: return "gray + alpha"
        case .rgba: return "RGBA"
        }
    }

    /// Whether `bitDepth` is legal for this colour type (PNG spec, table 11.1).
    func allows(bitDepth: Int) -> Bool {
        switch self {
        case .gray: return [1, 2, 4, 8, 16].contains(bitDepth)
        case .indexed: return [1, 2, 4, 8].contains(bitDepth)
        case .rgb, .grayAlpha, .rgba: return bitDepth == 8 || bitDepth == 16
        }
    }
}

/// One sub-image of an interlaced (or, as a single pass, non-interlaced) PNG.
struct PNGPass {
    /// 1…7 for Adam7, 0 for a non-interlaced image (used in error messages).
    let number: Int
    /// Position of the pass's first pixel and the step between its pixels, in the full image.
    let x0: Int, y0: Int, dx: Int, dy: Int
    /// Size of the pass's sub-image in pixels (either may be 0: the pass is then empty).
    let width: Int, height: Int
}

/// A validated IHDR.
struct PNGHeader {
    /// The largest width or height PNG allows.
    static let maximumDimension = Int(Int32.max)

    let width: Int
    let height: Int
    let bitDepth: Int
    let colorType: PNGColorType
    let isInterlaced: Bool

    /// Builds a header, checking every field PNG constrains.
    init(width: Int, height: Int, bitDepth: Int, colorType: PNGColorType, isInterlaced: Bool) {
        precondition(width >= 1 && width <= Self.maximumDimension && height >= 1 && height <= Self.maximumDimension)
        precondition(colorType.allows(bitDepth: bitDepth))
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.isInterlaced = isInterlaced
    }

    /// Parses the 13-byte IHDR payload, rejecting every value PNG does not define.
    init(parsing data: UnsafeBufferPointer<UInt8>) throws(PNGError) {
        guard data.count == 13 else {
            throw .invalidChunkData(chunk: "IHDR", reason: "length is \(data.count), must be 13")
        }
        let width = Int(PNGChunk.readUInt32(data, at: 0))
        let height = Int(PNGChunk.readUInt32(data, at: 4))
        guard width >= 1 && width <= Self.maximumDimension else { throw .invalidHeaderValue(field: "width", value: width) }
        guard height >= 1 && height <= Self.maximumDimension else { throw .invalidHeaderValue(field: "height", value: height) }
        let bitDepth = Int(data[8])
        guard let colorType = PNGColorType(rawValue: data[9]), colorType.allows(bitDepth: bitDepth) else {
            throw .invalidColorTypeAndBitDepth(colorType: Int(data[9]), bitDepth: bitDepth)
        }
        guard data[10] == 0 else { throw .invalidHeaderValue(field: "compression method", value: Int(data[10])) }
        guard data[11] == 0 else { throw .invalidHeaderValue(field: "filter method", value: Int(data[11])) }
        guard data[12] <= 1 else { throw .invalidHeaderValue(field: "interlace method", value: Int(data[12])) }
        self.init(width: width, height: height, bitDepth: bitDepth, colorType: colorType, isInterlaced: data[12] == 1)
    }

    /// The 13-byte IHDR payload.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        PNGChunk.appendUInt32(UInt32(width), to: &out)
        PNGChunk.appendUInt32(UInt32(height), to: &out)
        out += [UInt8(bitDepth), colorType.rawValue, 0, 0, isInterlaced ? 1 : 0]
        return out
    }

    /// Bits per pixel: channels × bit depth.
    var bitsPerPixel: Int { colorType.channels * bitDepth }

    /// The filters' byte distance: bytes per complete pixel, at least 1.
    var filterDistance: Int { max(1, bitsPerPixel / 8) }

    /// Bytes in a scanline of `pixels` pixels, without the filter-type byte.
    func scanlineByteCount(pixels: Int) -> Int { (pixels * bitsPerPixel + 7) / 8 }

    /// The passes the image data is stored in: one for a plain image, seven for Adam7.
    var passes: [PNGPass] {
        guard isInterlaced else {
            return [PNGPass(number: 0, x0: 0, y0: 0, dx: 1, dy: 1, width: width, height: height)]
        }
        let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return adam7.enumerated().map { index, step in
            let (x0, y0, dx, dy) = step
            return PNGPass(number: index + 1, x0: x0, y0: y0, dx: dx, dy: dy,
                           width: width > x0 ? (width - x0 + dx - 1) / dx : 0,
                           height: height > y0 ? (height - y0 + dy - 1) / dy : 0)
        }
    }

    /// The exact size of the decompressed image data: every non-empty pass's scanlines, each
    /// with its filter-type byte.
    ///
    /// - Precondition: `width × height` has been checked against a sane pixel limit, so the
    ///   sum cannot overflow (it is at most 8 bytes per pixel plus one byte per row).
    var decompressedByteCount: Int {
        passes.reduce(0) { total, pass in
            pass.width == 0 || pass.height == 0 ? total : total + pass.height * (1 + scanlineByteCount(pixels: pass.width))
        }
    }
}
