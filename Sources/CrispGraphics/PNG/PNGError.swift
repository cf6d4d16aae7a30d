import Foundation

/// Why a PNG could not be decoded, encoded, read or written.
///
/// Every case says what is wrong and where (a byte offset into the file, a chunk type, a row),
/// so a message is useful on its own. Offsets count bytes from the start of the file.
public enum PNGError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The data does not start with the 8-byte PNG signature `89 50 4E 47 0D 0A 1A 0A`.
    case notPNG
    /// The file ends inside the chunk that starts at `offset` (or where its header should be).
    case truncatedChunk(offset: Int)
    /// A chunk's length field exceeds 2³¹ − 1, which PNG forbids.
    case invalidChunkLength(length: UInt32, offset: Int)
    /// A chunk's type contains bytes other than ASCII letters.
    case invalidChunkType(offset: Int)
    /// The CRC stored after a chunk does not match the CRC of its type and data.
    case crcMismatch(chunk: String, offset: Int, stored: UInt32, computed: UInt32)
    /// A required chunk is absent: `IHDR`, `IDAT`, `PLTE` (for indexed colour) or `IEND`.
    case missingChunk(String)
    /// A chunk appears where PNG does not allow it (duplicated, after `IDAT`, `IHDR` not first, …).
    case misplacedChunk(String, reason: String)
    /// A chunk the decoder must understand (its type starts with an upper-case letter) is unknown.
    case unknownCriticalChunk(String)
    /// A known chunk has the wrong size or contents.
    case invalidChunkData(chunk: String, reason: String)
    /// An `IHDR` field holds a value PNG does not define (`field` is e.g. `"width"`,
    /// `"compression method"`, `"interlace method"`).
    case invalidHeaderValue(field: String, value: Int)
    /// The colour type and bit depth are not one of PNG's fifteen legal combinations.
    case invalidColorTypeAndBitDepth(colorType: Int, bitDepth: Int)
    /// `width × height` exceeds the decoder's `maximumPixelCount` (or the memory a process can address).
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// zlib rejected the compressed image data; `message` is zlib's own explanation.
    case zlibError(String)
    /// The image data inflates to fewer bytes than the header requires.
    case decompressedDataTooShort(expected: Int, actual: Int)
    /// The image data inflates to more bytes than the header allows; inflation stopped there.
    case decompressedDataTooLong(expected: Int)
    /// A scanline starts with a filter type other than 0…4. `row` counts from 0 within
    /// `pass` (1…7 for Adam7, 0 for a non-interlaced image).
    case invalidFilterType(Int, row: Int, pass: Int)
    /// An indexed pixel refers past the end of the palette. `x`, `y` are in the full image.
    case paletteIndexOutOfRange(index: Int, paletteCount: Int, x: Int, y: Int)
    /// The image has no pixels; PNG requires width and height of at least 1.
    case emptyImage(width: Int, height: Int)
    /// The file is an animated PNG (it has an `acTL` chunk), which the optimizer does not
    /// rewrite: keeping only the default image would silently drop the animation.
    case animatedPNGUnsupported(frames: Int)
    /// The optimized file did not decode to the input's pixels; nothing was written.
    case verificationFailed(String)
    /// A file could not be read.
    case readFailed(path: String, reason: String)
    /// A file could not be written; no partial file is left behind.
    case writeFailed(path: String, reason: String)

    /// A one-line explanation naming what is wrong and where.
    public var description: String {
        switch self {
        case .notPNG:
            return "not a PNG: the data does not start with the PNG signature"
        case .truncatedChunk(let offset):
            return "truncated PNG: the file ends inside the chunk at offset \(offset)"
        case .invalidChunkLength(let length, let offset):
            return "invalid chunk length \(length) at offset \(offset) (PNG allows at most 2^31 - 1)"
        case .invalidChunkType(let offset):
            return "invalid chunk type at offset \(offset + 4): chunk types are four ASCII letters"
        case .crcMismatch(let chunk, let offset, let stored, let computed):
            return "CRC mismatch in chunk \(chunk) at offset \(offset): stored 0x\(String(stored, radix: 16)), computed 0x\(String(computed, radix: 16))"
        case .missingChunk(let chunk):
            return "missing \(chunk) chunk"
        case .misplacedChunk(let chunk, let reason):
            return "misplaced \(chunk) chunk: \(reason)"
        case .unknownCriticalChunk(let chunk):
            return "unknown critical chunk \(chunk)"
        case .invalidChunkData(let chunk, let reason):
            return "invalid \(chunk) chunk: \(reason)"
        case .invalidHeaderValue(let field, let value):
            return "invalid IHDR \(field): \(value)"
        case .invalidColorTypeAndBitDepth(let colorType, let bitDepth):
            return "invalid PNG colour type \(colorType) with bit depth \(bitDepth)"
        case .imageTooLarge(let width, let height, let limit):
            return "PNG image \(width)×\(height) is too large (limit \(limit) pixels)"
        case .zlibError(let message):
            return "corrupt compressed image data: \(message)"
        case .decompressedDataTooShort(let expected, let actual):
            return "image data too short: \(actual) bytes after decompression, \(expected) expected"
        case .decompressedDataTooLong(let expected):
            return "image data too long: more than the \(expected) bytes expected after decompression"
        case .invalidFilterType(let type, let row, let pass):
            let place = pass == 0 ? "row \(row)" : "row \(row) of Adam7 pass \(pass)"
            return "invalid filter type \(type) on \(place)"
        case .paletteIndexOutOfRange(let index, let paletteCount, let x, let y):
            return "palette index \(index) at pixel (\(x), \(y)) is out of range (palette has \(paletteCount) entries)"
        case .emptyImage(let width, let height):
            return "cannot encode a \(width)×\(height) image as PNG: width and height must be at least 1"
        case .animatedPNGUnsupported(let frames):
            return "animated PNG (APNG, \(frames) frames) is not supported: optimizing would drop the animation"
        case .verificationFailed(let reason):
            return "optimized PNG failed verification, nothing written: \(reason)"
        case .readFailed(let path, let reason):
            return "cannot read PNG file \(path): \(reason)"
        case .writeFailed(let path, let reason):
            return "cannot write PNG file \(path): \(reason)"
        }
    }
}
