// Turns unfiltered PNG scanlines into Crisp's premultiplied 0xAARRGGBB pixels, for every
// colour type and bit depth.
//
// Samples of 1, 2 and 4 bits and all of indexed colour go through a 256-entry table of
// finished pixels (palette entries with their tRNS alpha, or gray levels scaled to 8 bits
// by replication: v·255/(2^d − 1)), so those inner loops are a lookup. 16-bit samples are
// reduced to 8 bits with correct rounding, round(v·255/65535) = round(v/257), computed
// exactly in integers as (v + 128) / 257. Transparency keys (tRNS for gray and RGB) are
// compared against the full-precision samples before any reduction, as the spec requires.
// Straight alpha is premultiplied with `Pixel.premultiplied`, whose rounding makes
// premultiply ∘ unpremultiply the identity on valid premultiplied pixels.

/// Converts unfiltered scanlines of one PNG image to premultiplied pixels.
struct PNGPixelConverter {
    private let colorType: PNGColorType
    private let bitDepth: Int
    /// Finished pixels indexed by sample value, for indexed colour and gray below 16 bits.
    private let table: [UInt32]
    /// How many table entries are valid (the palette size for indexed colour).
    private let tableCount: Int
    /// The tRNS colour key for gray (`r == g == b`) or RGB, at the image's bit depth.
    private let transparentKey: (r: UInt16, g: UInt16, b: UInt16)?

    /// The number of palette entries (meaningful for indexed colour).
    var paletteCount: Int { tableCount }

    /// Prepares a converter, validating the palette and tRNS payloads against the header.
    ///
    /// - Parameters:
    ///   - palette: the PLTE payload (RGB triples), required for indexed colour.
    ///   - transparency: the tRNS payload, if present.
    init(header: PNGHeader, palette: ArraySlice<UInt8>?, transparency: ArraySlice<UInt8>?) throws(PNGError) {
        colorType = header.colorType
        bitDepth = header.bitDepth
        var key: (r: UInt16, g: UInt16, b: UInt16)?
        var table: [UInt32] = []
        var tableCount = 0

        func sample16(_ bytes: ArraySlice<UInt8>, _ index: Int) -> UInt16 {
            UInt16(bytes[bytes.startIndex + 2 * index]) << 8 | UInt16(bytes[bytes.startIndex + 2 * index + 1])
        }

        switch header.colorType {
        case .indexed:
            guard let palette else { throw .missingChunk("PLTE") }
            let entries = palette.count / 3
            let alphas = transparency ?? []
            guard alphas.count <= entries else {
                throw .invalidChunkData(chunk: "tRNS", reason: "\(alphas.count) alpha values for a palette of \(entries) entries")
            }
            table = [UInt32](repeating: 0, count: 256)
            for i in 0..<entries {
                let base = palette.startIndex + 3 * i
                let alpha = i < alphas.count ? alphas[alphas.startIndex + i] : 255
                table[i] = Pixel.premultiplied(r: palette[base], g: palette[base + 1], b: palette[base + 2], a: alpha)
            }
            tableCount = entries
        case .gray:
            if let transparency {
                guard transparency.count == 2 else {
                    throw .invalidChunkData(chunk: "tRNS", reason: "length is \(transparency.count), must be 2 for grayscale")
                }
                let v = sample16(transparency, 0)
                key = (v, v, v)
            }
            if header.bitDepth <= 8 {
                let levels = 1 << header.bitDepth
                let scale = 255 / (levels - 1)
                table = (0..<256).map { v in
                    if v >= levels || key.map({ Int($0.r) == v }) == true { return 0 }
                    let g = UInt32(v * scale)
                    return Pixel.pack(a: 255, r: g, g: g, b: g)
                }
                tableCount = levels
            }
        case .rgb:
            if let transparency {
                guard transparency.count == 6 else {
                    throw .invalidChunkData(chunk: "tRNS", reason: "length is \(transparency.count), must be 6 for RGB")
                }
                key = (sample16(transparency, 0), sample16(transparency, 1), sample16(transparency, 2))
            }
        case .grayAlpha, .rgba:
            if transparency != nil {
                throw .misplacedChunk("tRNS", reason: "not allowed in an image with an alpha channel")
            }
        }
        self.table = table
        self.tableCount = tableCount
        self.transparentKey = key
    }

    /// Reduces a 16-bit sample to 8 bits, rounding to nearest: `round(v / 257)`.
    @inline(__always)
    static func reduce(_ v: UInt16) -> UInt8 { UInt8((UInt32(v) + 128) / 257) }

    /// Converts `count` pixels of an unfiltered scanline, writing them to `output[0]`,
    /// `output[stride]`, `output[2·stride]`, …
    ///
    /// - Returns: `nil`, or for an indexed image the position in the row and value of the
    ///   first palette index past the palette (conversion stops there).
    func convert(_ row: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt32>, stride: Int)
        -> (position: Int, index: Int)? {
        switch (colorType, bitDepth) {
        case (.indexed, _), (.gray, 1), (.gray, 2), (.gray, 4), (.gray, 8):
            return table.withUnsafeBufferPointer { table in
                let depth = bitDepth, mask = (1 << depth) - 1
                for i in 0..<count {
                    let v: Int
                    if depth == 8 {
                        v = Int(row[i])
                    } else {
                        let bit = i * depth
                        v = Int(row[bit >> 3] >> (8 - depth - (bit & 7))) & mask
                    }
                    guard v < tableCount else { return (i, v) }
                    output[i * stride] = table[v]
                }
                return nil
            }
        case (.gray, _):
            for i in 0..<count {
                let v = UInt16(row[2 * i]) << 8 | UInt16(row[2 * i + 1])
                if let key = transparentKey, key.r == v {
                    output[i * stride] = 0
                } else {
                    let g = UInt32(Self.reduce(v))
                    output[i * stride] = Pixel.pack(a: 255, r: g, g: g, b: g)
                }
            }
        case (.rgb, 8):
            for i in 0..<count {
                let r = row[3 * i], g = row[3 * i + 1], b = row[3 * i + 2]
                if let key = transparentKey, key.r == UInt16(r), key.g == UInt16(g), key.b == UInt16(b) {
                    output[i * stride] = 0
                } else {
                    output[i * stride] = Pixel.pack(a: 255, r: UInt32(r), g: UInt32(g), b: UInt32(b))
                }
            }
        case (.rgb, _):
            for i in 0..<count {
                let p = row + 6 * i
                let r = UInt16(p[0]) << 8 | UInt16(p[1]), g = UInt16(p[2]) << 8 | UInt16(p[3]), b = UInt16(p[4]) << 8 | UInt16(p[5])
                if let key = transparentKey, key.r == r, key.g == g, key.b == b {
                    output[i * stride] = 0
                } else {
                    output[i * stride] = Pixel.pack(a: 255, r: UInt32(Self.reduce(r)), g: UInt32(Self.reduce(g)), b: UInt32(Self.reduce(b)))
                }
            }
        case (.grayAlpha, 8):
            for i in 0..<count {
                let g = row[2 * i]
                output[i * stride] = Pixel.premultiplied(r: g, g: g, b: g, a: row[2 * i + 1])
            }
        case (.grayAlpha, _):
            for i in 0..<count {
                let p = row + 4 * i
                let g = Self.reduce(UInt16(p[0]) << 8 | UInt16(p[1]))
                output[i * stride] = Pixel.premultiplied(r: g, g: g, b: g, a: Self.reduce(UInt16(p[2]) << 8 | UInt16(p[3])))
            }
        case (.rgba, 8):
            for i in 0..<count {
                let p = row + 4 * i
                output[i * stride] = Pixel.premultiplied(r: p[0], g: p[1], b: p[2], a: p[3])
            }
        case (.rgba, _):
            for i in 0..<count {
                let p = row + 8 * i
                output[i * stride] = Pixel.premultiplied(
                    r: Self.reduce(UInt16(p[0]) << 8 | UInt16(p[1])), g: Self.reduce(UInt16(p[2]) << 8 | UInt16(p[3])),
                    b: Self.reduce(UInt16(p[4]) << 8 | UInt16(p[5])), a: Self.reduce(UInt16(p[6]) << 8 | UInt16(p[7])))
            }
        }
        return nil
    }
}
