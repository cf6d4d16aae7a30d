import Foundation

// Repeated draws of one image at one place and size — a photo inside a control drawn again on
// every frame of an animation around it — sample the image the same way each time: the same
// bilinear or trilinear taps at the same device pixel centres. CoreGraphics keeps resampled
// copies of images for this; Crisp keeps, per image, the raw samples of the last two mappings
// drawn twice lately (among the last four seen), over the device pixels the image covers, and
// serves spans from them.
//
// Exactness: a sample depends only on its own pixel centre (the samplers never carry state
// along a span), so a span served from the kept samples has exactly the bits `ImagePaint`
// would compute; only raw samples are kept, and the paint mode (stencil, mask) and the global
// alpha are applied per draw as before. `ResampledImageTests` draws through the cache and without
// it and compares.
//
// When: on the second draw with one mapping among the image's recent ones (a one-off draw
// pays nothing; a photo drawn in two places per frame finds both), only if the
// draw's clip shows most of the image's box (a small dirty-rectangle repaint must not shade
// the whole box), for boxes up to 4 Mpx, within one byte budget for all images together.
// Nearest sampling at one image pixel per device pixel needs no copy: the image's own rows
// serve (`ImagePaint.unmodifiedRow`).
//
// Rejected: pre-scaled images kept by the views that draw them (a UIKit-era habit): every
// caller would need its own, and each must notice when the scale or the placement changes.

/// How an image is sampled: everything that decides the raw samples of a device pixel.
struct ResampleKey: Equatable {
    /// Raster pixel → level-0 image coordinates.
    let toImage: CGAffineTransform
    let nearest: Bool
    /// The pyramid level sampled, and the weight of the next one (trilinear), 0…255.
    let level: Int
    let secondaryWeight: UInt32
}

/// An image's raw samples (before paint mode and alpha) under one mapping, for the device
/// pixels of `box`, row by row.
final class ResampledSamples: @unchecked Sendable {
    let key: ResampleKey
    let box: PixelRect
    private let pixels: UnsafeMutablePointer<UInt32>
    private let bytes: Int

    /// The most pixels one image's box may have to be kept.
    static let maximumPixels = 4 << 20
    /// Bytes of samples kept for all images together.
    static let budget = ResampleBudget(limitInBytes: 48 << 20)

    /// Samples `box` with `sample(x, y, count, into:)`; nil when the budget has no room.
    init?(key: ResampleKey, box: PixelRect, sample: (Int, Int, Int, UnsafeMutablePointer<UInt32>) -> Void) {
        let count = box.width * box.height
        guard count > 0, count <= Self.maximumPixels, Self.budget.reserve(count * 4) else { return nil }
        self.key = key
        self.box = box
        bytes = count * 4
        pixels = .allocate(capacity: count)
        for row in 0..<box.height {
            sample(box.x, box.y + row, box.width, pixels + row * box.width)
        }
    }

    deinit {
        pixels.deallocate()
        Self.budget.release(bytes)
    }

    /// The samples of pixels `x..<x+count` of row `y`, when the box holds all of them.
    @inline(__always)
    func row(x: Int, y: Int, count: Int) -> UnsafePointer<UInt32>? {
        guard y >= box.y, y < box.maxY, x >= box.x, x &+ count <= box.maxX else { return nil }
        return UnsafePointer(pixels + (y - box.y) * box.width + (x - box.x))
    }
}

/// A byte budget shared by every image's kept samples.
final class ResampleBudget: @unchecked Sendable {
    let limitInBytes: Int
    private let lock = NSLock()
    private var used = 0

    init(limitInBytes: Int) { self.limitInBytes = limitInBytes }

    /// Bytes reserved now.
    var bytesInUse: Int {
        lock.lock()
        defer { lock.unlock() }
        return used
    }

    /// Takes `bytes` from the budget if they fit.
    func reserve(_ bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard used + bytes <= limitInBytes else { return false }
        used += bytes
        return true
    }

    /// Gives `bytes` back.
    func release(_ bytes: Int) {
        lock.lock()
        used -= bytes
        lock.unlock()
    }
}

/// What one image remembers of how it was drawn: the mappings seen lately, and the samples kept.
struct ResampleHistory {
    /// Samples kept per image: a photo shown in two places, or at two sizes in turn.
    static let capacity = 2
    /// Mappings remembered: a photo drawn in a few places per frame finds its own among them.
    static let keysRemembered = 4
    /// Most recently seen first.
    var recentKeys: [ResampleKey] = []
    /// Most recently used first.
    var kept: [ResampledSamples] = []

    /// The kept samples for `key` covering `box`, made when `key` was seen lately and `canMake`
    /// holds; nil otherwise. Records `key` as seen.
    mutating func samples(for key: ResampleKey, box: PixelRect, canMake: Bool,
                          make: () -> ResampledSamples?) -> ResampledSamples? {
        if let i = kept.firstIndex(where: { $0.key == key && $0.box == box }) {
            let hit = kept.remove(at: i)
            kept.insert(hit, at: 0)
            return hit
        }
        let seen = recentKeys.firstIndex(of: key)
        if let seen { recentKeys.remove(at: seen) }
        recentKeys.insert(key, at: 0)
        if recentKeys.count > Self.keysRemembered { recentKeys.removeLast() }
        guard canMake, seen != nil, let made = make() else { return nil }
        if kept.count >= Self.capacity { kept.removeLast() }
        kept.insert(made, at: 0)
        return made
    }
}
