// What `crisp png info` shows: a PNG file's header and chunk list, read and checked without
// decoding the pixels.

/// The structure of a PNG file.
public struct PNGInfo: Sendable {
    /// One chunk of the file.
    public struct Chunk: Sendable, Equatable {
        /// The four-letter type, e.g. `"IDAT"`.
        public let type: String
        /// The data length in bytes (without the 12 bytes of length, type and CRC).
        public let byteCount: Int
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The IHDR colour type code (0, 2, 3, 4 or 6).
    public let colorTypeCode: Int
    /// The colour type in words, e.g. `"RGBA"`, `"indexed"`, `"gray + alpha"`.
    public let colorType: String
    /// Bits per sample (per palette index for indexed colour).
    public let bitDepth: Int
    /// Whether the image data is Adam7-interlaced.
    public let isInterlaced: Bool
    /// Every chunk from IHDR to IEND, in file order.
    public let chunks: [Chunk]
    /// The size of the file in bytes.
    public let fileByteCount: Int
    /// The compressed image data: all IDAT payloads.
    public let compressedByteCount: Int
    /// The image data once inflated: filtered scanlines with their filter bytes.
    public let rawByteCount: Int
    /// The number of animation frames of an APNG (from `acTL`), `nil` for a still image.
    public let animationFrameCount: Int?
    /// An APNG's frames (rectangle, delay, dispose and blend ops, bytes), `nil` for a still image.
    public let animationFrames: [APNGAnimation.Frame]?
    /// How many times an APNG plays (0: forever), `nil` for a still image.
    public let animationPlays: Int?

    /// Reads the chunk stream of a PNG file, checking it as the decoder does (CRCs, chunk
    /// order, header values, size limit), without inflating the image data.
    ///
    /// An APNG's frame structure is checked as `APNGAnimation` checks it.
    ///
    /// - Throws: the `PNGError` the decoder would throw for the chunk stream.
    public init(pngData: some Collection<UInt8>, maximumPixelCount: Int = 1 << 28) throws(PNGError) {
        let bytes = Array(pngData)
        let contents = try bytes.withUnsafeBufferPointer { (file) throws(PNGError) in
            try PNGContents(bytes, file, maximumPixelCount: maximumPixelCount)
        }
        let header = contents.header
        width = header.width
        height = header.height
        colorTypeCode = Int(header.colorType.rawValue)
        colorType = header.colorType.name
        bitDepth = header.bitDepth
        isInterlaced = header.isInterlaced
        chunks = contents.chunks.map { Chunk(type: $0.type, byteCount: $0.data.count) }
        fileByteCount = bytes.count
        compressedByteCount = contents.imageData.count
        rawByteCount = header.decompressedByteCount
        animationFrameCount = contents.chunks.first { $0.type == "acTL" && $0.data.count == 8 }.map { chunk in
            Int(bytes.withUnsafeBufferPointer { PNGChunk.readUInt32($0, at: chunk.data.lowerBound) })
        }
        if contents.chunks.contains(where: { $0.type == "acTL" }) {
            let animation = try APNGAnimation(pngData: bytes, maximumPixelCount: maximumPixelCount)
            animationFrames = animation.frames
            animationPlays = animation.plays
        } else {
            animationFrames = nil
            animationPlays = nil
        }
    }
}
