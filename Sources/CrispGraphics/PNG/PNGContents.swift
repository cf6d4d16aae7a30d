// The chunk stream of a PNG file, read and checked once, and its image data turned back into
// scanlines: what every decoder of the file needs, whatever pixels it makes from them.
//
// `PNGDecoder` (premultiplied 8-bit `CGImage`s) and `PNGRawImage` (exact straight 16-bit
// samples, for the optimizer) share this reader, so both accept and reject exactly the same
// files. The reading rules are those described atop PNGDecoder.swift: dimensions are checked
// against the pixel limit before anything is allocated from them, inflation is bounded by
// the size the header implies, and every CRC is verified.

/// The facts of one PNG file's chunk stream, up to IEND.
struct PNGContents {
    /// The validated IHDR.
    var header: PNGHeader
    /// The PLTE payload, if any.
    var palette: ArraySlice<UInt8>?
    /// The tRNS payload, if any.
    var transparency: ArraySlice<UInt8>?
    /// The IDAT payloads concatenated: one zlib stream.
    var imageData: [UInt8] = []
    /// Every chunk from IHDR to IEND, in file order.
    var chunks: [PNGChunk] = []

    /// The contents of one APNG frame: the file's palette and transparency with the frame's
    /// size and image data.
    init(frameOf file: PNGContents, width: Int, height: Int, imageData: [UInt8]) {
        header = PNGHeader(width: width, height: height, bitDepth: file.header.bitDepth,
                           colorType: file.header.colorType, isInterlaced: file.header.isInterlaced)
        palette = file.palette
        transparency = file.transparency
        self.imageData = imageData
    }

    private init(header: PNGHeader, chunks: [PNGChunk]) {
        self.header = header
        self.chunks = chunks
    }

    /// Walks the chunk stream (`file` views `bytes`) up to IEND, checking the chunk rules.
    ///
    /// - Throws: the first `PNGError` found; `.imageTooLarge` when `width × height` exceeds
    ///   `maximumPixelCount`.
    init(_ bytes: [UInt8], _ file: UnsafeBufferPointer<UInt8>, maximumPixelCount: Int) throws(PNGError) {
        guard file.count >= 8, file.prefix(8).elementsEqual(PNGChunk.signature) else { throw .notPNG }
        var contents: PNGContents?
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
                try Self.checkSize(header, maximumPixelCount: maximumPixelCount)
                contents = PNGContents(header: header, chunks: [chunk])
                offset = chunk.end
                continue
            }
            found.chunks.append(chunk)
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
                self = found
                return
            default:
                if chunk.isCritical { throw .unknownCriticalChunk(chunk.type) }
            }
            contents = found
            offset = chunk.end
        }
    }

    /// Rejects images whose pixel count exceeds the limit (or would overflow buffer sizes).
    private static func checkSize(_ header: PNGHeader, maximumPixelCount: Int) throws(PNGError) {
        let (count, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        // 8 bytes per pixel plus filter bytes must fit comfortably in an Int.
        guard !overflow, count <= maximumPixelCount, count <= Int.max / 16 else {
            throw .imageTooLarge(width: header.width, height: header.height, limit: min(maximumPixelCount, Int.max / 16))
        }
    }

    /// Inflates the image data and hands every unfiltered scanline of every pass to `body`,
    /// in file order, with its pass and its row number within the pass.
    ///
    /// `body` returns `nil` to go on or an error to stop with; the row pointer is valid only
    /// during the call and holds `header.scanlineByteCount(pixels: pass.width)` bytes.
    ///
    /// - Throws: zlib and size errors from inflation, `.invalidFilterType`, or `body`'s error.
    func forEachScanline(_ body: (UnsafePointer<UInt8>, PNGPass, Int) -> PNGError?) throws(PNGError) {
        let header = self.header
        var data = try imageData.withUnsafeBufferPointer { (compressed) throws(PNGError) in
            try Zlib.inflate(compressed, expectedCount: header.decompressedByteCount)
        }
        let zeros = [UInt8](repeating: 0, count: header.scanlineByteCount(pixels: header.width))
        let failure: PNGError? = data.withUnsafeMutableBufferPointer { data in
            zeros.withUnsafeBufferPointer { zeros -> PNGError? in
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
                        if let failure = body(row, pass, r) { return failure }
                        offset += rowBytes + 1
                    }
                }
                return nil
            }
        }
        if let failure { throw failure }
    }
}
