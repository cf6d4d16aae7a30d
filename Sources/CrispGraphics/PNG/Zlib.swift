import CZlib

// The zlib calls the PNG codec needs: one-shot deflate, bounded one-shot inflate, and CRC-32.
//
// Inflation is bounded by exactly the size the PNG header implies plus one byte. The extra
// byte is the tripwire for over-long data: a decompression bomb (a few kilobytes that inflate
// to gigabytes) costs at most the expected size in memory and time, and is reported as soon
// as it produces one byte too many. The rejected alternative — inflating everything and
// checking afterwards — lets the bomb allocate first. Within the bound the buffer grows by
// doubling from a size proportional to the compressed input, so a tiny file claiming a huge
// image costs little before it fails as "too short". zlib's counters and buffer sizes are 32-bit (`uInt`), so both directions feed the
// stream in slices of at most `UInt32.max` bytes.

/// One-shot zlib compression and bounded decompression.
enum Zlib {
    /// The largest slice handed to zlib at once (its `avail_in`/`avail_out` are 32-bit).
    private static let maximumSlice = Int(UInt32.max)

    /// Compresses `input` into a complete zlib stream.
    ///
    /// - Parameters:
    ///   - level: zlib compression level 0…9.
    ///   - strategy: a zlib strategy such as `Z_DEFAULT_STRATEGY` or `Z_FILTERED`.
    ///   - windowBits: base-2 logarithm of the window, 9…15; default 15.
    ///   - memLevel: the size of zlib's match-finding state, 1…9; default 9.
    static func deflate(_ input: UnsafeBufferPointer<UInt8>, level: Int32 = 9, strategy: Int32 = Z_DEFAULT_STRATEGY,
                        windowBits: Int32 = 15, memLevel: Int32 = 9) -> [UInt8] {
        var stream = z_stream()
        let status = deflateInit2_(&stream, level, Z_DEFLATED, windowBits, memLevel, strategy, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit2 failed with status \(status)")
        defer { deflateEnd(&stream) }

        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let produced = output.withUnsafeMutableBufferPointer { out -> Int in
            var inputOffset = 0, outputOffset = 0
            while true {
                if stream.avail_in == 0 && inputOffset < input.count {
                    let slice = min(input.count - inputOffset, maximumSlice)
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + inputOffset)
                    stream.avail_in = uInt(slice)
                    inputOffset += slice
                }
                if stream.avail_out == 0 {
                    let slice = min(out.count - outputOffset, maximumSlice)
                    stream.next_out = out.baseAddress! + outputOffset
                    stream.avail_out = uInt(slice)
                    outputOffset += slice
                }
                let flush = inputOffset == input.count ? Z_FINISH : Z_NO_FLUSH
                let status = CZlib.deflate(&stream, flush)
                if status == Z_STREAM_END { return Int(stream.total_out) }
                precondition(status == Z_OK || status == Z_BUF_ERROR, "deflate failed with status \(status)")
                precondition(stream.avail_out == 0 || stream.avail_in == 0, "deflate made no progress")
            }
        }
        output.removeLast(output.count - produced)
        return output
    }

    /// The smallest window (`windowBits` 9…15) in which zlib finds every match a 32 KiB
    /// window would for `count` bytes of input: the same compressed data, less decoder memory.
    static func smallestWindowBits(for count: Int) -> Int32 {
        var bits: Int32 = 9
        // zlib keeps MIN_LOOKAHEAD (262) bytes of the window free.
        while bits < 15 && (1 << bits) - 262 < count { bits += 1 }
        return bits
    }

    /// A reusable deflate stream that measures compressed sizes (for choosing filters by
    /// trial compression), without the cost of setting up zlib for every trial.
    final class SizeMeter {
        private var stream = z_stream()
        private var output: [UInt8] = []

        /// Sets up a stream with the given zlib level, strategy and memLevel (window 32 KiB).
        init(level: Int32, strategy: Int32, memLevel: Int32 = 9) {
            let status = deflateInit2_(&stream, level, Z_DEFLATED, 15, memLevel, strategy, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            precondition(status == Z_OK, "deflateInit2 failed with status \(status)")
        }

        deinit { deflateEnd(&stream) }

        /// The size of `input` compressed as one complete stream, whose matches may also reach
        /// into `dictionary` (zlib's preset dictionary: its last 32 KiB, hashed but not encoded).
        ///
        /// - Precondition: `input.count` < 2³² (zlib's counters).
        func compressedSize(of input: UnsafeBufferPointer<UInt8>, dictionary: UnsafeBufferPointer<UInt8>? = nil) -> Int {
            deflateReset(&stream)
            if let dictionary, let base = dictionary.baseAddress, !dictionary.isEmpty {
                let status = deflateSetDictionary(&stream, base, uInt(dictionary.count))
                precondition(status == Z_OK, "deflateSetDictionary failed with status \(status)")
            }
            let bound = Int(deflateBound(&stream, uLong(input.count)))
            if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
            return output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = CZlib.deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflate failed with status \(status)")
                return Int(stream.total_out)
            }
        }
    }

    /// Inflates a complete zlib stream that must produce exactly `expectedCount` bytes.
    ///
    /// Bytes after the end of the zlib stream are ignored. The stream must be complete,
    /// including its Adler-32 checksum, which zlib verifies. The output grows geometrically
    /// from a size proportional to the input up to `expectedCount + 1`, so a file whose
    /// header promises a huge image but carries little data fails without a huge allocation.
    ///
    /// - Throws: `PNGError.zlibError` for corrupt or incomplete streams,
    ///   `.decompressedDataTooShort` / `.decompressedDataTooLong` for a size mismatch.
    static func inflate(_ input: UnsafeBufferPointer<UInt8>, expectedCount: Int) throws(PNGError) -> [UInt8] {
        var stream = z_stream()
        let status = inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .zlibError("inflateInit failed with status \(status)") }
        defer { inflateEnd(&stream) }

        // One spare byte detects data beyond the expected size.
        let capacity = expectedCount + 1
        var output = [UInt8](repeating: 0, count: min(capacity, (1 << 16) + 4 * input.count))
        var inputOffset = 0
        while true {
            if stream.avail_in == 0 && inputOffset < input.count {
                let slice = min(input.count - inputOffset, maximumSlice)
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + inputOffset)
                stream.avail_in = uInt(slice)
                inputOffset += slice
            }
            var produced = Int(stream.total_out)
            if produced == output.count {
                output += repeatElement(0, count: min(output.count, capacity - output.count))
            }
            let status = output.withUnsafeMutableBufferPointer { out in
                stream.next_out = out.baseAddress! + produced
                stream.avail_out = uInt(min(out.count - produced, maximumSlice))
                return CZlib.inflate(&stream, Z_NO_FLUSH)
            }
            produced = Int(stream.total_out)
            if produced > expectedCount { throw .decompressedDataTooLong(expected: expectedCount) }
            switch status {
            case Z_STREAM_END:
                if produced < expectedCount {
                    throw .decompressedDataTooShort(expected: expectedCount, actual: produced)
                }
                output.removeLast(output.count - produced)
                return output
            case Z_OK:
                continue
            case Z_BUF_ERROR:
                // No progress possible, and the output had room: the input ran out.
                if produced < expectedCount {
                    throw .decompressedDataTooShort(expected: expectedCount, actual: produced)
                }
                throw .zlibError("the zlib stream ends before its end marker and checksum")
            case Z_NEED_DICT:
                throw .zlibError("the zlib stream needs a preset dictionary, which PNG forbids")
            default:
                throw .zlibError(stream.msg.map { String(cString: $0) } ?? "inflate status \(status)")
            }
        }
    }

    /// The CRC-32 (ISO 3309, as used by PNG and zlib) of `bytes`, continuing from `crc`.
    static func crc32(_ bytes: UnsafeBufferPointer<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        var value = uLong(crc)
        var offset = 0
        while offset < bytes.count {
            let slice = min(bytes.count - offset, maximumSlice)
            value = CZlib.crc32(value, base + offset, uInt(slice))
            offset += slice
        }
        return UInt32(truncatingIfNeeded: value)
    }
}
