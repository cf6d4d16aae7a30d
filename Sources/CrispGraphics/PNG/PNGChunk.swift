// PNG chunk framing (PNG spec §5.3): after the 8-byte signature, a file is a sequence of
//
//     length (4 bytes, big-endian, ≤ 2³¹ − 1) · type (4 ASCII letters) · data · CRC-32 of type + data
//
// Reading checks every field against the bytes actually present before touching the data,
// so a lying length can only produce an error, never an out-of-bounds read or an allocation.

/// One chunk located in a PNG file: its type and where its data lies.
struct PNGChunk {
    /// The 8 bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The four-letter type, e.g. `"IHDR"`.
    let type: String
    /// Offset of the chunk's length field in the file.
    let offset: Int
    /// The data bytes' range in the file.
    let data: Range<Int>

    /// Whether a decoder must understand the chunk (bit 5 of the first type byte is clear,
    /// i.e. the first letter is upper case).
    var isCritical: Bool { type.utf8.first! & 0x20 == 0 }

    /// Offset of the next chunk: after the data and the 4-byte CRC.
    var end: Int { data.upperBound + 4 }

    /// Reads and verifies the chunk starting at `offset` in `file`.
    ///
    /// - Throws: `.truncatedChunk` if the file ends inside it, `.invalidChunkLength`,
    ///   `.invalidChunkType`, or `.crcMismatch`.
    init(in file: UnsafeBufferPointer<UInt8>, at offset: Int) throws(PNGError) {
        guard file.count - offset >= 8 else { throw .truncatedChunk(offset: offset) }
        let length = Self.readUInt32(file, at: offset)
        guard length <= UInt32(Int32.max) else { throw .invalidChunkLength(length: length, offset: offset) }
        let typeBytes = file[(offset + 4)..<(offset + 8)]
        guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
            throw .invalidChunkType(offset: offset)
        }
        let type = String(decoding: typeBytes, as: UTF8.self)
        let dataStart = offset + 8
        guard file.count - dataStart >= Int(length) + 4 else { throw .truncatedChunk(offset: offset) }
        let dataEnd = dataStart + Int(length)
        let stored = Self.readUInt32(file, at: dataEnd)
        let computed = Zlib.crc32(UnsafeBufferPointer(rebasing: file[(offset + 4)..<dataEnd]))
        guard stored == computed else {
            throw .crcMismatch(chunk: type, offset: offset, stored: stored, computed: computed)
        }
        self.type = type
        self.offset = offset
        self.data = dataStart..<dataEnd
    }

    /// The big-endian 32-bit value at `offset`.
    ///
    /// - Precondition: four bytes are available there.
    @inline(__always)
    static func readUInt32(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// Appends `value` big-endian.
    static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// Appends a complete chunk — length, type, data, CRC — to `out`.
    ///
    /// - Precondition: `type` is four ASCII letters and `data` is at most 2³¹ − 1 bytes.
    static func append(type: String, data: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        precondition(typeBytes.count == 4 && data.count <= Int(Int32.max), "invalid PNG chunk \(type)")
        appendUInt32(UInt32(data.count), to: &out)
        out += typeBytes
        out += data
        let crc = typeBytes.withUnsafeBufferPointer { Zlib.crc32(data, continuing: Zlib.crc32($0)) }
        appendUInt32(crc, to: &out)
    }
}
