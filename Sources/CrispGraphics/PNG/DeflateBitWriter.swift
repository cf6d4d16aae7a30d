// Deflate's bit packing (RFC 1951 §3.1.1): values are written least significant bit first,
// filling each byte from its low bit; Huffman codes are therefore stored bit-reversed
// (see `DeflateHuffman.codes`). Bits gather in a 64-bit accumulator and leave it a whole
// 32-bit word at a time, so a write is a shift and an or, with a store every fourth byte.

/// Appends bit fields to a byte array in deflate's bit order.
struct DeflateBitWriter {
    /// The finished bytes.
    private(set) var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var pending = 0

    /// The number of bits written so far.
    var bitCount: Int { bytes.count * 8 + pending }

    /// Writes the low `count` (0…32) bits of `value`.
    @inline(__always)
    mutating func write(_ value: Int, _ count: Int) {
        accumulator |= (UInt64(truncatingIfNeeded: value) & ((1 << UInt64(count)) &- 1)) << UInt64(pending)
        pending += count
        if pending >= 32 {
            let word = UInt32(truncatingIfNeeded: accumulator)
            bytes.append(UInt8(truncatingIfNeeded: word))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            bytes.append(UInt8(truncatingIfNeeded: word >> 24))
            accumulator >>= 32
            pending -= 32
        }
    }

    /// Pads with zero bits to a byte boundary and flushes everything written.
    mutating func alignToByte() {
        pending = (pending + 7) & ~7
        while pending > 0 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            pending -= 8
        }
    }

    /// Appends whole bytes; the writer must be byte-aligned (after `alignToByte`).
    mutating func append(_ data: UnsafeBufferPointer<UInt8>) {
        precondition(pending == 0, "bytes appended off a byte boundary")
        bytes.append(contentsOf: data)
    }

    /// Reserves room for `count` more bytes.
    mutating func reserve(_ count: Int) { bytes.reserveCapacity(bytes.count + count) }
}
