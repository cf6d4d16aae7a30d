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
/// out premultiplied. Ancillary chunks, including gAMA and other colour-space information,
/// are ignored. Bytes after the zlib stream and after IEND are ignored.
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

    /// The facts gathered from the chunk stream.
    private struct Contents {
        var header: PNGHeader
        var palette: ArraySlice<UInt8>?
        var transparency: ArraySlice<UInt8>?
        var imageData: [UInt8] = []
    }

    private func decode(_ bytes: [UInt8], _ file: UnsafeBufferPointer<UInt8>) throws(PNGError) -> CGImage {
        let contents = try readChunks(bytes, file)
        let header = contents.header
        let converter = try PNGPixelConverter(header: header, palette: contents.palette, transparency: contents.transparency)
        var data = try contents.imageData.withUnsafeBufferPointer { (compressed) throws(PNGError) in
            try Zlib.inflate(compressed, expectedCount: header.decompressedByteCount)
        }
        var pixels = [UInt32](repeating: 0, count: header.width * header.height)
        let failure: PNGError? = data.withUnsafeMutableBufferPointer { data in
            pixels.withUnsafeMutableBufferPointer { pixels in
                reconstruct(data, into: pixels, header: header, converter: converter)
            }
        }
        if let failure { throw failure }
        return CGImage(width: header.width, height: header.height, pixels: pixels)
    }

    /// Walks the chunk stream (`file` views `bytes`) up to IEND, checking the chunk rules and collecting what decoding needs.
    private func readChunks(_ bytes: [UInt8], _ file: UnsafeBufferPointer<UInt8>) throws(PNGError) -> Contents {
        guard file.count >= 8, file.prefix(8).elementsEqual(PNGChunk.signature) else { throw .notPNG }
        var contents: Contents?
        var idatState = 0  // 0: none seen, 1: in the IDAT run, 2: run finished
        var offset = 8
        while true {
            if offset == file.count {
                throw .missingChunk(contents == nil ? "IHDR" : idatState == 0 ? "IDAT" : "IEND")
            }
            let chunk = try PNGChunk(in: file, at: offset)
            let data = bytes[chunk.data]
            if idatState == 1 && chunk.type != "IDAT" { idatState = 2 }
            guard var found = contents else {
                guard chunk.type == "IHDR" else { throw .missingChunk("IHDR") }
                let header = try PNGHeader(parsing: UnsafeBufferPointer(rebasing: file[chunk.data]))
                try checkSize(header)
                contents = Contents(header: header)
                offset = chunk.end
                continue
            }
            let colorType = found.header.colorType
            switch chunk.type {
            case "IHDR":
                throw .misplacedChunk("IHDR", reason: "a second IHDR at offset \(chunk.offset)")
            case "PLTE":
                guard found.palette == nil else { throw .misplacedChunk("PLTE", reason: "a second PLTE at offset \(chunk.offset)") }
                guard idatState == 0 else { throw .misplacedChunk("PLTE", reason: "PLTE must come before IDAT") }
                guard found.transparency == nil else { throw .misplacedChunk("PLTE", reason: "PLTE must come before tRNS") }
                guard colorType != .gray && colorType != .grayAlpha else {
                    throw .misplacedChunk("PLTE", reason: "not allowed in a grayscale image")
                }
                let entries = data.count / 3
                guard data.count % 3 == 0, entries >= 1, entries <= 256 else {
                    throw .invalidChunkData(chunk: "PLTE", reason: "length \(data.count) is not 3 × (1…256)")
                }
                found.palette = data
            case "tRNS":
                guard found.transparency == nil else { throw .misplacedChunk("tRNS", reason: "a second tRNS at offset \(chunk.offset)") }
                guard idatState == 0 else { throw .misplacedChunk("tRNS", reason: "tRNS must come before IDAT") }
                if colorType == .indexed && found.palette == nil {
                    throw .misplacedChunk("tRNS", reason: "tRNS must come after PLTE")
                }
                found.transparency = data
            case "IDAT":
                guard idatState != 2 else { throw .misplacedChunk("IDAT", reason: "IDAT chunks must be consecutive") }
                if colorType == .indexed && found.palette == nil { throw .missingChunk("PLTE") }
                idatState = 1
                found.imageData += data
            case "IEND":
                guard idatState != 0 else { throw .missingChunk("IDAT") }
                return found
            default:
                if chunk.isCritical { throw .unknownCriticalChunk(chunk.type) }
            }
            contents = found
            offset = chunk.end
        }
    }

    /// Rejects images whose pixel count exceeds the limit (or would overflow buffer sizes).
    private func checkSize(_ header: PNGHeader) throws(PNGError) {
        let (count, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        // 8 bytes per pixel plus filter bytes must fit comfortably in an Int.
        guard !overflow, count <= maximumPixelCount, count <= Int.max / 16 else {
            throw .imageTooLarge(width: header.width, height: header.height, limit: min(maximumPixelCount, Int.max / 16))
        }
    }

    /// Unfilters every scanline of every pass in place and converts it into `pixels`.
    ///
    /// - Returns: the first error found, or `nil`.
    private func reconstruct(_ data: UnsafeMutableBufferPointer<UInt8>, into pixels: UnsafeMutableBufferPointer<UInt32>,
                             header: PNGHeader, converter: PNGPixelConverter) -> PNGError? {
        let zeros = [UInt8](repeating: 0, count: header.scanlineByteCount(pixels: header.width))
        return zeros.withUnsafeBufferPointer { zeros -> PNGError? in
            let distance = header.filterDistance
            var offset = 0
            for pass in header.passes where pass.width > 0 && pass.height > 0 {
                let rowBytes = header.scanlineByteCount(pixels: pass.width)
                for r in 0..<pass.height {
                    guard let filter = PNGFilter(rawValue: data[offset]) else {
                        return .invalidFilterType(Int(data[offset]), row: r, pass: pass.number)
                    }
                    let row = data.baseAddress! + offset + 1
                    let prior = r == 0 ? zeros.baseAddress! : UnsafePointer(row - (rowBytes + 1))
                    filter.unfilter(row, prior: prior, count: rowBytes, distance: distance)
                    let y = pass.y0 + r * pass.dy
                    let start = pixels.baseAddress! + y * header.width + pass.x0
                    if let bad = converter.convert(row, count: pass.width, into: start, stride: pass.dx) {
                        return .paletteIndexOutOfRange(index: bad.index, paletteCount: converter.paletteCount,
                                                       x: pass.x0 + bad.position * pass.dx, y: y)
                    }
                    offset += rowBytes + 1
                }
            }
            return nil
        }
    }
}
