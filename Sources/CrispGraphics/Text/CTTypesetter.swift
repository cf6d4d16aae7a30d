import CFribidi
import CICU
import Foundation

// Line breaking (UAX #14) and multi-line layout.
//
// ICU's line break iterator gives the break opportunities (Unicode's rules, current data: ICU 72
// is Unicode 15); CTTypesetter chooses among them. The text is cut once at every opportunity
// into segments, each measured once (its content and its trailing white space apart, each a
// cached shaping), so choosing the lines of a paragraph is one walk over the segments: no
// prefix is shaped again per candidate break. Words are measured on their own: kerning across a
// space is not counted while choosing, and a chosen line is shaped whole and checked once more
// against the width (a segment is given back when it overflows).
//
// Each line is then a CTLine of its own text in the paragraph's direction: the bidi algorithm's
// reordering (rule L2) is per line, after breaking, as UAX #9 asks. Trailing white space hangs:
// it neither counts towards the width nor is drawn. A word wider than the line breaks between
// grapheme clusters (no hyphen), as CoreText's emergency breaks do.

/// How a line that does not fit is broken or cut, as UIKit's `NSLineBreakMode`.
public enum NSLineBreakMode: Int, Sendable {
    /// Wrap at word boundaries (UAX #14 break opportunities); a word wider than the line breaks
    /// between characters.
    case byWordWrapping = 0
    /// Wrap between characters (grapheme clusters).
    case byCharWrapping = 1
    /// Wrap at words; the last line that fits is not cut, text beyond the bounds is clipped.
    case byClipping = 2
    /// The last line's start is replaced by "…" (single-line labels).
    case byTruncatingHead = 3
    /// Wrap at words; the last line ends with "…" when text is left over.
    case byTruncatingTail = 4
    /// The last line's middle is replaced by "…" (single-line labels).
    case byTruncatingMiddle = 5

    /// Whether the mode cuts text with "…".
    public var truncates: Bool { self == .byTruncatingHead || self == .byTruncatingTail || self == .byTruncatingMiddle }

    /// `characters` cut to `kept` of them with "…" where this mode puts it: at the start for
    /// `.byTruncatingHead`, in the middle for `.byTruncatingMiddle` (the extra character, if
    /// any, at the start), otherwise at the end; whitespace beside the "…" is dropped. The
    /// candidates a truncating layout measures, longest fitting first.
    ///
    /// - Parameters:
    ///   - characters: the text, as grapheme clusters.
    ///   - kept: how many of them to keep, `0...characters.count`.
    /// - Returns: the kept characters with the "…".
    public func truncated(_ characters: [Character], keeping kept: Int) -> String {
        switch self {
        case .byTruncatingHead:
            return "…" + String(characters[(characters.count - kept)...]).trimmingCharacters(in: .whitespaces)
        case .byTruncatingMiddle:
            let head = (kept + 1) / 2
            return String(characters[0..<head]).trimmingCharacters(in: .whitespaces) + "…"
                + String(characters[(characters.count - (kept - head))...]).trimmingCharacters(in: .whitespaces)
        default:
            return String(characters[0..<kept]).trimmingCharacters(in: .whitespaces) + "…"
        }
    }
}

/// One laid-out line of a `CTTextLayout`.
public struct CTTextLayoutLine: Sendable {
    /// The line, shaped and in visual order (bidi reordering is per line).
    public let line: CTLine
    /// The UTF-16 range of the string the line shows (trailing white space and the line
    /// separator included; truncated lines: the range they stand for).
    public let range: Range<Int>
    /// The paragraph's direction (natural alignment follows it).
    public let direction: TextDirection
    /// Whether the line was cut with "…".
    public let isTruncated: Bool
}

/// Lines of text broken to a width: what `String.draw(with:…)`, `boundingRect(with:…)` and a
/// multi-line `Label` draw. Lines are `lineHeight` apart, the first baseline `ascent` below the
/// top.
public struct CTTextLayout: Sendable {
    /// The lines, top to bottom.
    public let lines: [CTTextLayoutLine]
    /// The distance between baselines (the font's ascent + descent + leading).
    public let lineHeight: CGFloat
    /// The font's ascent.
    public let ascent: CGFloat
    /// Whether text was left out (the line limit was reached); with a truncating mode the last
    /// line then ends in "…".
    public let isTruncated: Bool

    /// The widest line's width and the lines' height, rounded up to whole units (UIKit's
    /// `boundingRect(with:options:…).size` rounded up, as views size themselves).
    public var size: CGSize {
        let width = lines.reduce(CGFloat(0)) { max($0, $1.line.width) }
        return CGSize(width: width.rounded(.up), height: (CGFloat(lines.count) * lineHeight).rounded(.up))
    }
}

/// A paragraph's break opportunities and measured segments, ready to be broken into lines, as
/// CoreText's `CTTypesetter`.
///
/// Offsets are UTF-16 offsets into the string, as CoreText's `CFIndex`es are. Break
/// opportunities follow the Unicode Line Breaking Algorithm (UAX #14) through ICU: after spaces,
/// after hyphens, between ideographs, never before closing punctuation or inside a number; a
/// line feed, carriage return, U+2028 or U+2029 (and vertical tab, form feed, NEL) must break.
public final class CTTypesetter: @unchecked Sendable {
    /// The text.
    public let string: String
    /// The font its lines are drawn in.
    public let font: CTFont
    /// Characters `font` lacks come from here (nil: drawn as .notdef).
    public let fallback: FontSource?
    private let utf16: [UInt16]
    private let direction: TextDirection?
    private let lock = NSLock()
    private var wordSegments: [Segment]?
    private var clusterSegments: [Segment]?

    /// A stretch between two break opportunities: its content (up to the trailing white space)
    /// and that white space, measured apart.
    struct Segment {
        var start: Int
        var contentEnd: Int
        var end: Int
        var contentWidth: CGFloat
        var whitespaceWidth: CGFloat
        /// The stretch ends with a line separator.
        var mandatory: Bool
        var rightToLeft: Bool
    }

    /// A typesetter for `string` in `font`, as `CTTypesetterCreateWithAttributedString`.
    /// `direction` is every paragraph's direction; nil takes each paragraph's from its first
    /// strong character. Characters `font` lacks are drawn from `fallback`
    /// (`FontSource.drawingFallback` by default, as labels do).
    public init(string: String, font: CTFont, direction: TextDirection? = nil,
                fallback: FontSource? = FontSource.drawingFallback) {
        self.string = string
        self.font = font
        self.direction = direction
        self.fallback = fallback
        self.utf16 = Array(string.utf16)
    }

    /// The string's length in UTF-16 code units.
    public var length: Int { utf16.count }

    /// The break opportunities of the string by UAX #14: every UTF-16 offset a line may end at
    /// (the string's end included), with whether the break is mandatory. Empty for an empty
    /// string.
    public var lineBreakOpportunities: [(offset: Int, isMandatory: Bool)] {
        CTTypesetter.breakOpportunities(utf16)
    }

    static func breakOpportunities(_ utf16: [UInt16]) -> [(offset: Int, isMandatory: Bool)] {
        let n = utf16.count
        guard n > 0, n < Int(Int32.max) - 1 else { return n > 0 ? [(n, false)] : [] }
        var offsets = [Int32](repeating: 0, count: n + 1)
        var mandatory = [UInt8](repeating: 0, count: n + 1)
        var error: Int32 = 0
        let count = utf16.withUnsafeBufferPointer {
            crisp_icu_line_breaks($0.baseAddress, Int32(n), &offsets, &mandatory, Int32(n + 1), &error)
        }
        // ICU failing (no data) leaves one segment: the text is then broken only where it must
        // be, between clusters.
        guard count > 0 else { return [(n, false)] }
        var result: [(offset: Int, isMandatory: Bool)] = []
        result.reserveCapacity(Int(count))
        for i in 0..<Int(count) { result.append((Int(offsets[i]), mandatory[i] != 0)) }
        if result.last?.offset != n { result.append((n, false)) }
        return result
    }

    // MARK: Segments

    private func text(_ range: Range<Int>) -> String {
        String(decoding: utf16[range], as: UTF16.self)
    }

    private static func isHanging(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x2028, 0x2029, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    /// The offset where the trailing hanging white space of `range` starts.
    private func contentEnd(_ range: Range<Int>) -> Int {
        var end = range.upperBound
        while end > range.lowerBound {
            let u = utf16[end - 1]
            if UTF16.isTrailSurrogate(u) { break }          // no astral white space
            guard let s = Unicode.Scalar(u), CTTypesetter.isHanging(s) else { break }
            end -= 1
        }
        return end
    }

    private func lineDirection(_ text: String, rightToLeft: Bool) -> TextDirection? {
        if rightToLeft { return .rightToLeft }
        return text.unicodeScalars.contains(where: Bidi.mayNeedReordering) ? .leftToRight : nil
    }

    /// The width of `range`'s text shaped on its own (cached per string by CTLine and the shaper).
    private func width(_ range: Range<Int>, rightToLeft: Bool) -> CGFloat {
        guard !range.isEmpty else { return 0 }
        let t = text(range)
        return CTLine(string: t, font: font, direction: lineDirection(t, rightToLeft: rightToLeft), fallback: fallback).width
    }

    /// Whether the paragraph `range` is right to left (given, or from its first strong character).
    private func isRightToLeft(_ range: Range<Int>) -> Bool {
        if let direction { return direction == .rightToLeft }
        let scalars = Array(text(range).unicodeScalars)
        guard scalars.contains(where: Bidi.mayNeedReordering) else { return false }
        var types = [FriBidiCharType](repeating: FRIBIDI_TYPE_LTR, count: scalars.count)
        let codes = scalars.map { $0.value }
        codes.withUnsafeBufferPointer { fribidi_get_bidi_types($0.baseAddress, FriBidiStrIndex(scalars.count), &types) }
        let par = fribidi_get_par_direction(types, FriBidiStrIndex(scalars.count))
        return par.rawValue & crisp_fribidi_mask_rtl != 0 && par != FRIBIDI_PAR_ON
    }

    private func segments(clusters: Bool) -> [Segment] {
        lock.lock()
        defer { lock.unlock() }
        if clusters, let clusterSegments { return clusterSegments }
        if !clusters, let wordSegments { return wordSegments }
        var boundaries = CTTypesetter.breakOpportunities(utf16)
        if clusters { boundaries = clusterBoundaries(merging: boundaries) }
        // Paragraph directions: a paragraph ends at each mandatory break.
        var result: [Segment] = []
        result.reserveCapacity(boundaries.count)
        var start = 0
        var paragraphStart = 0
        var paragraphRTL: Bool?
        for (k, b) in boundaries.enumerated() {
            if paragraphRTL == nil {
                var paragraphEnd = utf16.count
                for later in boundaries[k...] where later.isMandatory { paragraphEnd = later.offset; break }
                paragraphRTL = isRightToLeft(paragraphStart..<paragraphEnd)
            }
            let rtl = paragraphRTL ?? false
            let end = contentEnd(start..<b.offset)
            result.append(Segment(start: start, contentEnd: end, end: b.offset,
                                  contentWidth: width(start..<end, rightToLeft: rtl),
                                  whitespaceWidth: width(end..<b.offset, rightToLeft: rtl),
                                  mandatory: b.isMandatory, rightToLeft: rtl))
            start = b.offset
            if b.isMandatory { paragraphStart = start; paragraphRTL = nil }
        }
        if clusters { clusterSegments = result } else { wordSegments = result }
        return result
    }

    /// Every grapheme cluster boundary, mandatory where `breaks` has a mandatory break.
    private func clusterBoundaries(merging breaks: [(offset: Int, isMandatory: Bool)]) -> [(offset: Int, isMandatory: Bool)] {
        let mandatory = Set(breaks.filter(\.isMandatory).map(\.offset))
        var result: [(offset: Int, isMandatory: Bool)] = []
        var offset = 0
        for character in string {
            offset += character.utf16.count
            result.append((offset, mandatory.contains(offset)))
        }
        return result
    }

    /// The index of the segment holding `offset`.
    private func segmentIndex(_ segments: [Segment], _ offset: Int) -> Int {
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if segments[mid].start <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    // MARK: Breaking

    /// How many UTF-16 units from `start` go on a line `width` wide, breaking at UAX #14
    /// opportunities (a word wider than the line breaks between grapheme clusters; at least
    /// one cluster per line); trailing white space hangs and the line separator is included.
    /// As `CTTypesetterSuggestLineBreak`.
    public func suggestLineBreak(startingAt start: Int, width: Double) -> Int {
        suggestBreak(start, CGFloat(width), clusters: false) - max(0, start)
    }

    /// As `suggestLineBreak(startingAt:width:)`, breaking between any grapheme clusters, as
    /// `CTTypesetterSuggestClusterBreak`.
    public func suggestClusterBreak(startingAt start: Int, width: Double) -> Int {
        suggestBreak(start, CGFloat(width), clusters: true) - max(0, start)
    }

    /// The end offset of the line starting at `start`.
    func suggestBreak(_ start: Int, _ available: CGFloat, clusters: Bool) -> Int {
        let start = min(max(start, 0), utf16.count)
        guard start < utf16.count else { return start }
        let segments = segments(clusters: clusters)
        var i = segmentIndex(segments, start)
        var used: CGFloat = 0
        var end = start
        while i < segments.count {
            var segment = segments[i]
            if segment.start < start {
                // A line starting inside a segment (after an emergency break).
                segment.start = start
                segment.contentWidth = width(start..<max(start, segment.contentEnd), rightToLeft: segment.rightToLeft)
            }
            if end == start {
                if segment.contentWidth > available {
                    return emergencyBreak(start, segment, available)
                }
            } else if used + segment.contentWidth > available {
                break
            }
            used += segment.contentWidth + segment.whitespaceWidth
            end = segment.end
            i += 1
            if segment.mandatory { break }
        }
        // The line shaped whole may be wider than its words measured apart (kerning across a
        // space): give back words until it fits.
        while end > start {
            let contentEnd = contentEnd(start..<end)
            let rtl = segments[segmentIndex(segments, start)].rightToLeft
            if width(start..<contentEnd, rightToLeft: rtl) <= available + 0.001 { break }
            let last = segmentIndex(segments, max(start, contentEnd - 1))
            if segments[last].start <= start { break }
            end = segments[last].start
        }
        return end
    }

    /// The end of the longest run of grapheme clusters of `segment` from `start` that fits, at
    /// least one cluster.
    private func emergencyBreak(_ start: Int, _ segment: Segment, _ available: CGFloat) -> Int {
        let piece = text(start..<segment.contentEnd)
        var offset = start
        var used: CGFloat = 0
        for character in piece {
            let w = width(offset..<(offset + character.utf16.count), rightToLeft: segment.rightToLeft)
            if offset > start, used + w > available { break }
            used += w
            offset += character.utf16.count
        }
        return offset
    }

    // MARK: Lines

    /// The line showing `range` (trailing white space and separators left out), laid out in its
    /// paragraph's direction, as `CTTypesetterCreateLine`.
    public func line(for range: Range<Int>) -> CTLine {
        makeLine(range).line
    }

    private func isRightToLeft(at offset: Int) -> Bool {
        let segments = segments(clusters: false)
        guard !segments.isEmpty else { return direction == .rightToLeft }
        return segments[segmentIndex(segments, min(offset, utf16.count - 1))].rightToLeft
    }

    private func makeLine(_ range: Range<Int>) -> CTTextLayoutLine {
        let range = max(0, range.lowerBound)..<min(utf16.count, max(range.upperBound, range.lowerBound))
        let rtl = isRightToLeft(at: range.lowerBound)
        let t = text(range.lowerBound..<contentEnd(range))
        let line = CTLine(string: t, font: font, direction: lineDirection(t, rightToLeft: rtl), fallback: fallback)
        return CTTextLayoutLine(line: line, range: range, direction: rtl ? .rightToLeft : .leftToRight, isTruncated: false)
    }

    /// The text of `range` on one line, cut with "…" by `mode` (tail: at its logical end, which
    /// is the left in a right-to-left paragraph) to fit `width`; at least the "…".
    func truncatedLine(_ range: Range<Int>, width available: CGFloat, mode: NSLineBreakMode) -> CTTextLayoutLine {
        let rtl = isRightToLeft(at: range.lowerBound)
        let characters = Array(text(range.lowerBound..<contentEnd(range)))
        func candidate(_ k: Int) -> String { mode.truncated(characters, keeping: k) }
        func make(_ s: String) -> CTLine {
            CTLine(string: s, font: font, direction: lineDirection(s, rightToLeft: rtl), fallback: fallback)
        }
        var best = make("…")
        var low = 0, high = characters.count
        while low <= high {
            let mid = (low + high) / 2
            let line = make(candidate(mid))
            if line.width <= available {
                best = line
                low = mid + 1
            } else {
                high = mid - 1
            }
        }
        return CTTextLayoutLine(line: best, range: range, direction: rtl ? .rightToLeft : .leftToRight, isTruncated: true)
    }

    /// The string broken into lines `width` wide.
    ///
    /// `maximumNumberOfLines` 0 is unlimited. When text is left over at the limit, a truncating
    /// `lineBreakMode` ends the last line with "…" (its remaining paragraph on one line, cut);
    /// `.byWordWrapping`, `.byCharWrapping` and `.byClipping` drop it. `.byCharWrapping` breaks
    /// between any grapheme clusters; the other modes at UAX #14 opportunities.
    public func layout(width: CGFloat, maximumNumberOfLines: Int = 0,
                       lineBreakMode: NSLineBreakMode = .byWordWrapping) -> CTTextLayout {
        let available = width.isFinite ? max(0, width) : CGFloat.greatestFiniteMagnitude
        var lines: [CTTextLayoutLine] = []
        var start = 0
        var truncated = false
        let limit = max(0, maximumNumberOfLines)
        while start < utf16.count {
            let end = suggestBreak(start, available, clusters: lineBreakMode == .byCharWrapping)
            if limit > 0, lines.count == limit - 1, end < utf16.count {
                truncated = true
                if lineBreakMode.truncates {
                    // The rest of this paragraph on the last line, cut.
                    let segments = segments(clusters: false)
                    var paragraphEnd = utf16.count
                    for s in segments[segmentIndex(segments, start)...] where s.mandatory { paragraphEnd = s.end; break }
                    lines.append(truncatedLine(start..<paragraphEnd, width: available, mode: lineBreakMode))
                } else {
                    lines.append(makeLine(start..<end))
                }
                break
            }
            lines.append(makeLine(start..<end))
            start = max(end, start + 1)
        }
        return CTTextLayout(lines: lines, lineHeight: font.lineHeight, ascent: font.ascent, isTruncated: truncated)
    }
}

/// A typesetter for `string` in `font`, as CoreText's `CTTypesetterCreateWithAttributedString`.
public func CTTypesetterCreateWithString(_ string: String, _ font: CTFont) -> CTTypesetter {
    CTTypesetter(string: string, font: font)
}

/// UTF-16 units from `startIndex` that fit `width`, as `CTTypesetterSuggestLineBreak`.
public func CTTypesetterSuggestLineBreak(_ typesetter: CTTypesetter, _ startIndex: Int, _ width: Double) -> Int {
    typesetter.suggestLineBreak(startingAt: startIndex, width: width)
}

/// The line for `range` (UTF-16 offsets), as `CTTypesetterCreateLine`.
public func CTTypesetterCreateLine(_ typesetter: CTTypesetter, _ range: Range<Int>) -> CTLine {
    typesetter.line(for: range)
}

/// The versions behind line breaking, for diagnostics.
extension TextLibraries {
    /// ICU's version, as "72.1".
    public static var icuVersion: String {
        var buffer = [CChar](repeating: 0, count: 32)
        crisp_icu_version(&buffer)
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    /// The Unicode version of ICU's character data (the line breaking rules' data), as "15.0".
    public static var icuUnicodeVersion: String {
        var buffer = [CChar](repeating: 0, count: 32)
        crisp_icu_unicode_version(&buffer)
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
