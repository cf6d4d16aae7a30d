import Foundation

// Trimming white space off attribute values, which every property read does. Foundation's
// `trimmingCharacters(in:)` goes through NSString on Linux: about 9,000 instructions a call,
// 40 % of building a curves bench scene (a fill colour is trimmed three times). Values almost
// always begin and end in ASCII, so the trim is done on the UTF-8 bytes when both ends that
// remain are ASCII, and handed to Foundation otherwise: the result is the same String either
// way (Foundation's sets hold no other ASCII characters than those tested here, and a non-ASCII
// end, which may be Unicode white space, is left to it). Rejected: trimming only ASCII white
// space everywhere (SVG's own definition), since it would change what a value with a
// no-break space at its end reads as.

extension Substring {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation when both ends are ASCII.
    func trimmingWhiteSpaceAndNewlines() -> String {
        trimmedASCII { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) } ?? trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `trimmingCharacters(in: .whitespaces)` (space and tab), without Foundation when both ends are ASCII.
    func trimmingWhiteSpace() -> String {
        trimmedASCII { $0 == 0x20 || $0 == 0x09 } ?? trimmingCharacters(in: .whitespaces)
    }

    /// The text without the leading and trailing bytes `isSpace` accepts, or nil when a byte
    /// where trimming stops is not ASCII (or the text has no contiguous UTF-8 storage, which
    /// native strings always have). Works on that storage: Substring's index arithmetic cost
    /// more than the trim.
    @inline(__always)
    private func trimmedASCII(_ isSpace: (UInt8) -> Bool) -> String? {
        let trimmed = utf8.withContiguousStorageIfAvailable { b -> String? in
            var start = 0, end = b.count
            while start < end, isSpace(b[start]) { start += 1 }
            guard start < end else { return "" }
            guard b[start] < 0x80 else { return nil }
            while isSpace(b[end - 1]) { end -= 1 }
            guard b[end - 1] < 0x80 else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        }
        guard let trimmed else { return nil }
        return trimmed
    }
}

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation when both ends are ASCII.
    func trimmingWhiteSpaceAndNewlines() -> String { self[...].trimmingWhiteSpaceAndNewlines() }

    /// `trimmingCharacters(in: .whitespaces)` (space and tab), without Foundation when both ends are ASCII.
    func trimmingWhiteSpace() -> String { self[...].trimmingWhiteSpace() }
}
