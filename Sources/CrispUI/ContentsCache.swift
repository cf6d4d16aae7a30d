import CrispGraphics
import Foundation

// A window's cache of views' drawn contents (`Layer.cachesContents`), as Core Animation keeps
// a layer's backing store: the view's background and `draw(_:)` output, rendered once into a
// bitmap of the view's bounds in device pixels and copied into each frame that passes over it,
// until the view calls `setNeedsDisplay()`, changes size, or the screen changes.
//
// Why per view and not one retained back buffer per window: the window already keeps its
// pixels between frames; what costs is a repaint that crosses views that did not change (a
// bubble dragged over its neighbours, an animation under a label), and only a copy of each
// view's own drawing lets the compositor put them back without drawing them.
//
// Memory is bounded by a byte limit; when a new bitmap would exceed it, the least recently
// used bitmaps go first (a linear scan: a window caches tens of views, not thousands).
// When a screen's views leave the window (another screen shown) or the screen changes, their
// bitmaps go at once and the freed heap is handed back to the system (glibc's `malloc_trim`):
// glibc otherwise keeps the many medium-sized blocks the bitmaps leave behind (a dragged
// bubble is a bitmap of a new size each frame), and resident memory would only ever grow.
//
// Rejected: caching every view by default — the large background views of a screen would
// double the screen's memory for no gain, as they are repainted only when they change.

/// A byte-bounded, least-recently-used store of views' cached contents, one per window.
public final class ContentsCache {
    struct Entry {
        weak var view: View?
        var image: CGImage
        /// The bounds the image was drawn for (origin and size, points).
        var bounds: CGRect
        /// Pixels per point.
        var scale: CGFloat
        /// The fraction of a device pixel the bounds' origin lies at (zero on whole pixels).
        var phase: CGPoint
        var lastUse: UInt64
        var bytes: Int { image.width * image.height * 4 }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var clock: UInt64 = 0

    /// The most bytes of bitmaps kept; beyond it the least recently used are dropped. Default
    /// 32 MiB (a retina iPad screen is 12 MiB).
    public var limitInBytes = 32 << 20 { didSet { evict(toFit: 0) } }
    /// The bytes of bitmaps kept now.
    public private(set) var bytes = 0
    /// How many times a view's contents were copied from the cache.
    public private(set) var hits = 0
    /// How many times a view's contents had to be drawn into the cache.
    public private(set) var misses = 0
    /// The number of views whose contents are kept.
    public var count: Int { entries.count }

    /// Whether `view`'s contents are kept.
    public func contains(_ view: View) -> Bool { entries[ObjectIdentifier(view)] != nil }

    /// The contents of `view` for `bounds` at `scale`, its origin at `phase` (the fraction of a
    /// device pixel it lies at): the kept bitmap when it was drawn for them, otherwise a new one
    /// from `render` (kept if it fits the limit).
    func image(for view: View, bounds: CGRect, scale: CGFloat, phase: CGPoint, render: () -> CGImage?) -> CGImage? {
        clock &+= 1
        let key = ObjectIdentifier(view)
        if let entry = entries[key], entry.view === view, entry.bounds == bounds, entry.scale == scale, entry.phase == phase {
            entries[key]?.lastUse = clock
            hits += 1
            return entry.image
        }
        remove(view)
        misses += 1
        guard let image = render() else { return nil }
        let entry = Entry(view: view, image: image, bounds: bounds, scale: scale, phase: phase, lastUse: clock)
        guard entry.bytes <= limitInBytes else { return image }
        evict(toFit: entry.bytes)
        entries[key] = entry
        bytes += entry.bytes
        return image
    }

    /// Forgets `view`'s contents.
    func remove(_ view: View) {
        if let entry = entries.removeValue(forKey: ObjectIdentifier(view)) { bytes -= entry.bytes }
    }

    /// Forgets `view`'s contents and those of every view below it.
    func removeSubtree(_ view: View) {
        guard !entries.isEmpty else { return }
        let before = bytes
        removeEntries(below: view)
        if bytes < before { returnFreedMemory() }
    }

    private func removeEntries(below view: View) {
        remove(view)
        for sub in view.subviews { removeEntries(below: sub) }
    }

    /// Forgets everything (the screen's size or scale changed).
    public func removeAll() {
        guard !entries.isEmpty else { return }
        entries.removeAll()
        bytes = 0
        returnFreedMemory()
    }

    /// Drops least recently used bitmaps until `extra` more bytes fit the limit.
    private func evict(toFit extra: Int) {
        while bytes + extra > limitInBytes, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= oldest.value.bytes
            entries.removeValue(forKey: oldest.key)
        }
    }
}

#if os(Linux)
/// glibc's `malloc_trim` (declared in `<malloc.h>`, which the Glibc module does not export).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif

/// Hands the heap's free memory back to the system where the C library allows it.
private func returnFreedMemory() {
    #if os(Linux)
    _ = glibcMallocTrim(0)
    #endif
}
