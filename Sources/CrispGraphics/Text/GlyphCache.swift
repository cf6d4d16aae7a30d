import Foundation

// Rasterized glyphs, kept for reuse. Text is drawn again and again at the same few sizes (labels
// redraw on every frame), so a glyph's coverage is rasterized once per (face, glyph, device
// scale, quarter-pixel x phase) and afterwards only copied. The x phase is quantized to 1/4 px —
// below what the eye tells apart at text sizes, and it keeps a paragraph's spacing even — and
// the baseline is snapped to whole pixels, so four bitmaps cover every position.
//
// Only transforms that are a scale plus a translation use the cache; a rotated or skewed line's
// glyphs are filled as outlines (their coverage depends on the angle). Very large glyphs also
// go through outlines: their bitmaps would crowd the cache and rasterizing them is cheap
// relative to their area.
//
// Eviction is the clock algorithm (second chance): each entry has a "used since the hand last
// passed" bit; when the byte budget is exceeded, the hand clears set bits and evicts the first
// entry whose bit is already clear. It approximates LRU with no list to maintain on every hit.

/// A glyph's coverage: `width × height` bytes, row-major from the top, placed `left`/`top`
/// pixels from the glyph origin (raster space, y down).
final class GlyphBitmap: Sendable {
    let left: Int
    let top: Int
    let width: Int
    let height: Int
    let coverage: [UInt8]

    init(left: Int, top: Int, width: Int, height: Int, coverage: [UInt8]) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.coverage = coverage
    }

    static let empty = GlyphBitmap(left: 0, top: 0, width: 0, height: 0, coverage: [])

    /// Stands for a glyph whose outline reaches too far outside its em to be cached as a bitmap
    /// (a hostile or broken font): its run is drawn as outlines, clipped like any path.
    static let oversized = GlyphBitmap(left: 0, top: 0, width: 0, height: 0, coverage: [])

    var isEmpty: Bool { width == 0 || height == 0 }
}

/// A bounded cache of glyph bitmaps shared by every context (thread-safe).
@_spi(Testing) public final class GlyphCache: @unchecked Sendable {
    /// What identifies a bitmap.
    struct Key: Hashable, Sendable {
        var font: Int
        var glyph: CGGlyph
        /// Quarter pixels (0…3) of the glyph origin's x.
        var phase: UInt8
        /// Font units to raster pixels, x and y (y negative for upright text): bit patterns.
        var scaleX: UInt64
        var scaleY: UInt64
    }

    /// The cache every context uses unless told otherwise.
    static let shared = GlyphCache(byteBudget: 4 << 20)
    /// Ems above this many device pixels are drawn as outlines, not cached.
    static let maximumEmPixels: CGFloat = 256
    /// A cached glyph bitmap spans at most this many ems (and at least 64 pixels) each way.
    /// Real glyphs stay within about two ems; the glyph reader accepts coordinates far outside
    /// the em, which would otherwise ask for gigabytes (a 300-byte font with a 4000-em `.notdef`).
    static let maximumBitmapEms: CGFloat = 4
    /// Subdivisions of a pixel for the glyph origin's x.
    @_spi(Testing) public static let phases = 4
    /// The flattening tolerance, in device pixels, for glyph outlines (cached or not; a finer
    /// context flatness wins). Chords cut the convex side of curves, so a coarse tolerance makes
    /// small text measurably lighter: at 0.1 px, 17 px Roboto lost 1% of its ink against
    /// FreeType; at 0.025 px the difference is within ±1% at every size.
    @_spi(Testing) public static let flatness: CGFloat = 0.025

    private struct Slot {
        var key: Key
        var bitmap: GlyphBitmap
        var isReferenced: Bool
    }

    let byteBudget: Int
    private let lock = NSLock()
    private var slots: [Slot] = []
    private var index: [Key: Int] = [:]
    private var hand = 0
    private var bytes = 0
    private var hitCount = 0
    private var missCount = 0

    @_spi(Testing) public init(byteBudget: Int) {
        precondition(byteBudget > 0)
        self.byteBudget = byteBudget
    }

    /// The bitmap for `key`, made by `render` (outside the lock) when not cached.
    func bitmap(for key: Key, render: () -> GlyphBitmap) -> GlyphBitmap {
        let cached: GlyphBitmap? = lock.withLock {
            guard let i = index[key] else { missCount += 1; return nil }
            slots[i].isReferenced = true
            hitCount += 1
            return slots[i].bitmap
        }
        if let cached { return cached }
        let made = render()
        lock.withLock { insert(made, for: key) }
        return made
    }

    private static func cost(_ b: GlyphBitmap) -> Int { b.coverage.count + 64 }

    private func insert(_ bitmap: GlyphBitmap, for key: Key) {
        if index[key] != nil { return }           // another thread made it meanwhile
        let cost = GlyphCache.cost(bitmap)
        guard cost <= byteBudget else { return }  // larger than the whole cache: used once, not kept
        while bytes + cost > byteBudget, !slots.isEmpty {
            if hand >= slots.count { hand = 0 }
            if slots[hand].isReferenced {
                slots[hand].isReferenced = false
                hand += 1
                continue
            }
            let victim = slots[hand]
            index[victim.key] = nil
            bytes -= GlyphCache.cost(victim.bitmap)
            let last = slots.removeLast()
            if hand < slots.count {
                slots[hand] = last
                index[last.key] = hand
            }
        }
        index[key] = slots.count
        slots.append(Slot(key: key, bitmap: bitmap, isReferenced: false))
        bytes += cost
    }

    /// Lookups that found a bitmap, and lookups that had to rasterize one.
    @_spi(Testing) public var statistics: (hits: Int, misses: Int) { lock.withLock { (hitCount, missCount) } }
    /// Entries and bytes held.
    @_spi(Testing) public var usage: (entries: Int, bytes: Int) { lock.withLock { (slots.count, bytes) } }

    /// Forgets every bitmap (statistics are kept).
    func removeAll() {
        lock.withLock {
            slots.removeAll()
            index.removeAll()
            hand = 0
            bytes = 0
        }
    }
}

/// Writes rasterizer spans into a glyph bitmap under construction.
struct GlyphBitmapWriter: SpanBlitter {
    let buffer: UnsafeMutablePointer<UInt8>
    let originX: Int
    let originY: Int
    let width: Int

    @inline(__always)
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        (buffer + (y - originY) * width + (x - originX)).update(repeating: coverage, count: count)
    }

    @inline(__always)
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        (buffer + (y - originY) * width + (x - originX)).update(from: coverage, count: count)
    }
}

/// The coverage of a run of glyphs, merged into one mask over `rect` (raster pixels), so the
/// run composites once: overlapping glyphs add (saturating) like one non-zero outline, and blend
/// modes such as copy or xor treat the text as one shape.
struct GlyphRunCoverage: CoverageProducer {
    let mask: UnsafePointer<UInt8>
    let rect: PixelRect

    var bounds: CGRect? { CGRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height) }

    func produce<B: SpanBlitter>(into blitter: inout B, clip: PixelRect) {
        let area = rect.intersection(clip)
        guard !area.isEmpty else { return }
        let w = rect.width
        for y in area.y..<area.maxY {
            let line = mask + (y - rect.y) * w
            var first = area.x - rect.x, last = area.maxX - rect.x - 1
            while first <= last, line[first] == 0 { first += 1 }
            guard first <= last else { continue }
            while line[last] == 0 { last -= 1 }
            blitter.blitMask(x: rect.x + first, y: y, count: last - first + 1, coverage: line + first)
        }
    }
}
