import Foundation

/// Whether a gradient also paints before its start and after its end, as
/// `CGGradientDrawingOptions`.
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Extend the start colour before the start point (linear) or inside/behind the start circle (radial).
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
    /// Extend the end colour past the end point (linear) or outside the end circle (radial).
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)
}

/// A smooth colour transition between stops, as `CGGradient`.
///
/// Colours are interpolated component-wise on straight (non-premultiplied) sRGB values, then
/// premultiplied — as CoreGraphics, SVG and the peer renderers do. Stops are sanitized: NaN
/// locations are dropped, locations are clamped to 0…1 and sorted (stably), missing locations
/// are spread evenly, and a single stop paints one colour.
public final class CGGradient: @unchecked Sendable {
    /// A colour stop: straight RGBA in 0…1 at a location in 0…1.
    @_spi(Testing) public struct Stop: Hashable {
        /// Where the stop lies.
        @_spi(Testing) public internal(set) var location: CGFloat
        /// The colour's components.
        @_spi(Testing) public internal(set) var r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat
    }

    /// The stops, sorted by location (a hook for tests).
    @_spi(Testing) public let stops: [Stop]

    /// Tables already sampled, by the alpha they were sampled with (a gradient is immutable, so
    /// a table stays valid for its lifetime).
    private let tablesLock = NSLock()
    private var tables: [CGFloat: GradientTable] = [:]

    /// The premultiplied table for drawing with an extra `alpha` factor, sampled on first use
    /// and then shared by every draw. At most a few alphas are kept.
    func table(alpha: CGFloat) -> GradientTable {
        tablesLock.lock()
        defer { tablesLock.unlock() }
        if let table = tables[alpha] { return table }
        let table = GradientTable.shared(self, alpha: alpha)
        if tables.count >= 4 { tables.removeAll(keepingCapacity: true) }
        tables[alpha] = table
        return table
    }

    /// Creates a gradient from colours and optional locations (one per colour); nil when there
    /// are no colours or no usable location.
    public init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: UnsafePointer<CGFloat>?) {
        let comps = colors.map { $0.rgba }
        var stops: [Stop] = []
        for (i, c) in comps.enumerated() {
            let loc: CGFloat = locations.map { $0[i] } ?? (comps.count == 1 ? 0 : CGFloat(i) / CGFloat(comps.count - 1))
            stops.append(Stop(location: loc, r: c.r, g: c.g, b: c.b, a: c.a))
        }
        guard let clean = CGGradient.sanitize(stops) else { return nil }
        self.stops = clean
    }

    /// Creates a gradient from colour components (`count` colours of the space's components
    /// plus alpha each) and optional locations.
    public init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
                 locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count > 0 else { return nil }
        let n = space.numberOfComponents + 1
        var stops: [Stop] = []
        for i in 0..<count {
            let c = (0..<n).map { components[i * n + $0] }
            let color = c.withUnsafeBufferPointer { CGColor(colorSpace: space, components: $0.baseAddress!) }
            guard let rgba = color?.rgba else { return nil }
            let loc: CGFloat = locations.map { $0[i] } ?? (count == 1 ? 0 : CGFloat(i) / CGFloat(count - 1))
            stops.append(Stop(location: loc, r: rgba.r, g: rgba.g, b: rgba.b, a: rgba.a))
        }
        guard let clean = CGGradient.sanitize(stops) else { return nil }
        self.stops = clean
    }

    static func sanitize(_ stops: [Stop]) -> [Stop]? {
        let usable = stops.filter { !$0.location.isNaN }.map { s -> Stop in
            var s = s
            s.location = min(max(s.location, 0), 1)
            return s
        }
        guard !usable.isEmpty else { return nil }
        return usable.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
    }

    /// Straight RGBA at `t` in 0…1.
    func color(at t: CGFloat) -> (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat) {
        let first = stops[0], last = stops[stops.count - 1]
        if t <= first.location { return (first.r, first.g, first.b, first.a) }
        if t >= last.location { return (last.r, last.g, last.b, last.a) }
        var i = 1
        while i < stops.count - 1 && stops[i].location < t { i += 1 }
        let s0 = stops[i - 1], s1 = stops[i]
        let span = s1.location - s0.location
        let f = span > 0 ? (t - s0.location) / span : 1
        return (s0.r + (s1.r - s0.r) * f, s0.g + (s1.g - s0.g) * f, s0.b + (s1.b - s0.b) * f, s0.a + (s1.a - s0.a) * f)
    }
}

/// A gradient's colours sampled into a premultiplied table for drawing. Immutable once built;
/// its gradient caches it (`CGGradient.table(alpha:)`).
final class GradientTable: @unchecked Sendable {
    /// Entries in the table: adjacent entries differ by less than a quarter of an 8-bit level.
    static let size = 1024
    let entries: UnsafeMutablePointer<UInt32>
    let isOpaque: Bool

    /// Samples `gradient` with an extra alpha factor.
    init(_ gradient: CGGradient, alpha: CGFloat) {
        entries = .allocate(capacity: GradientTable.size)
        var opaque = true
        for i in 0..<GradientTable.size {
            let c = gradient.color(at: CGFloat(i) / CGFloat(GradientTable.size - 1))
            let p = Pixel.premultiplied(red: c.r, green: c.g, blue: c.b, alpha: c.a * alpha)
            if p >> 24 != 255 { opaque = false }
            entries[i] = p
        }
        isOpaque = opaque
    }

    deinit { entries.deallocate() }

    /// Recently built tables by content (stops and alpha): views build a new `CGGradient` from
    /// the same colours every time they draw, and sampling 1024 entries costs more than the
    /// drawing of a small control.
    private static let recent = RecentTables()

    /// The table for `gradient`'s stops with `alpha`, from the recent ones when the same content
    /// was sampled lately.
    static func shared(_ gradient: CGGradient, alpha: CGFloat) -> GradientTable {
        recent.table(for: RecentTables.Key(stops: gradient.stops, alpha: alpha)) { GradientTable(gradient, alpha: alpha) }
    }

    @inline(__always)
    func lookup(_ t: Float) -> UInt32 {
        entries[Int(t * Float(GradientTable.size - 1) + 0.5)]
    }
}

/// The last few gradient tables built, by content; the least recently used one is dropped.
private final class RecentTables: @unchecked Sendable {
    struct Key: Hashable {
        let stops: [CGGradient.Stop]
        let alpha: CGFloat
    }

    /// Tables kept: more than a screen's worth of distinct gradients.
    static let capacity = 64
    private let lock = NSLock()
    private var tables: [Key: (table: GradientTable, used: UInt64)] = [:]
    private var clock: UInt64 = 0

    func table(for key: Key, build: () -> GradientTable) -> GradientTable {
        lock.lock()
        defer { lock.unlock() }
        clock &+= 1
        if let hit = tables[key] {
            tables[key] = (hit.table, clock)
            return hit.table
        }
        if tables.count >= RecentTables.capacity, let oldest = tables.min(by: { $0.value.used < $1.value.used }) {
            tables[oldest.key] = nil
        }
        let table = build()
        tables[key] = (table, clock)
        return table
    }
}

extension CGContext {
    /// Paints an axial gradient from `start` to `end` (user space) across the clip. Beyond the
    /// ends nothing is painted unless `options` says so.
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint,
                                   options: CGGradientDrawingOptions) {
        guard !gstate.clip.bounds.isEmpty, gstate.ctm.determinant != 0,
              start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite else { return }
        let d = CGPoint(x: end.x - start.x, y: end.y - start.y)
        let length2 = d.x * d.x + d.y * d.y
        guard length2 > 0 else { return }
        let m = userToRaster.inverted()   // raster → user
        let a = (m.a * d.x + m.b * d.y) / length2
        let b = (m.c * d.x + m.d * d.y) / length2
        let c = ((m.tx - start.x) * d.x + (m.ty - start.y) * d.y) / length2
        guard a.isFinite, b.isFinite, c.isFinite else { return }
        let extendBefore = options.contains(.drawsBeforeStartLocation), extendAfter = options.contains(.drawsAfterEndLocation)
        let paintSource = LinearGradientPaint(table: gradient.table(alpha: gstate.alpha), a: Double(a), b: Double(b), c: Double(c),
                                              extendBefore: extendBefore, extendAfter: extendAfter)
        // Without extensions nothing is painted outside 0 ≤ t ≤ 1 (t = a·x + b·y + c in raster
        // space). When t varies along one raster axis only (the common vertical or horizontal
        // gradient) that band is a rectangle: shade only it, not the whole clip.
        var area = clipRect
        if !extendBefore, !extendAfter {
            if b == 0, a != 0 {
                area = area.intersection(CGContext.painted(band: -c / a, (1 - c) / a, horizontal: true))
            } else if a == 0, b != 0 {
                area = area.intersection(CGContext.painted(band: -c / b, (1 - c) / b, horizontal: false))
            }
        }
        guard !area.isNull, !area.isEmpty else { return }
        // A horizontal gradient's rows are all the same: shade the columns drawn once.
        let clip = gstate.clip.bounds
        let x0 = max(Int(max(area.minX, CGFloat(clip.x)).rounded(.down)), clip.x)
        let x1 = min(Int(min(area.maxX, CGFloat(clip.maxX)).rounded(.up)), clip.maxX)
        let rows = min(area.maxY, CGFloat(clip.maxY)) - max(area.minY, CGFloat(clip.y))
        let shaded = rows > 1 && x1 > x0 ? paintSource.withRow(x: x0, count: x1 - x0) : paintSource
        if area == clipRect {
            paintAcrossClip(.linearGradient(shaded))
        } else {
            paint(RectCoverage(rect: area, antialias: true), with: .linearGradient(shaded))
        }
    }

    /// Paints a radial gradient between two circles (user space) across the clip. Negative
    /// radii count as 0; nothing is painted beyond the circles unless `options` says so.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        guard !gstate.clip.bounds.isEmpty, gstate.ctm.determinant != 0,
              startCenter.x.isFinite, startCenter.y.isFinite, endCenter.x.isFinite, endCenter.y.isFinite,
              startRadius.isFinite, endRadius.isFinite else { return }
        let r0 = max(startRadius, 0), r1 = max(endRadius, 0)
        let dc = CGPoint(x: endCenter.x - startCenter.x, y: endCenter.y - startCenter.y)
        guard r0 > 0 || r1 > 0 || dc != .zero else { return }
        let extendBefore = options.contains(.drawsBeforeStartLocation), extendAfter = options.contains(.drawsAfterEndLocation)
        let paintSource = RadialGradientPaint(table: gradient.table(alpha: gstate.alpha), toUser: userToRaster.inverted(),
                                              c0: startCenter, r0: r0, dc: dc, dr: r1 - r0,
                                              extendBefore: extendBefore, extendAfter: extendAfter)
        // Without extensions the gradient paints only the circles between the two (their convex
        // hull, inside the union of the two circles' boxes): shade that box, not the whole clip.
        var area = clipRect
        if !extendBefore, !extendAfter {
            let start = CGRect(x: startCenter.x - r0, y: startCenter.y - r0, width: 2 * r0, height: 2 * r0)
            let end = CGRect(x: endCenter.x - r1, y: endCenter.y - r1, width: 2 * r1, height: 2 * r1)
            // Foundation's rectangle operations trap on NaN: only finite boxes are narrowed to.
            if start.isFiniteRect, end.isFiniteRect {
                let device = start.union(end).applying(userToRaster)
                if device.isFiniteRect { area = area.intersection(CGContext.wholePixels(around: device)) }
            }
        }
        guard !area.isNull, !area.isEmpty else { return }
        if area == clipRect {
            paintAcrossClip(.radialGradient(paintSource))
        } else {
            paint(RectCoverage(rect: area, antialias: true), with: .radialGradient(paintSource))
        }
    }

    /// Paints a conic gradient around `center` (user space) across the clip: location 0 lies
    /// along `angle` (radians) and the locations grow with the angle, in the positive direction
    /// of user space (counterclockwise where y points up, clockwise in a flipped, UIKit-style
    /// context), to 1 a full turn later, where the gradient meets its start again.
    public func drawConicGradient(_ gradient: CGGradient, center: CGPoint, angle: CGFloat) {
        drawSweepGradient(gradient, center: center, origin: Double(angle), scale: 0.5 / .pi, offset: 0, extend: .pad)
    }

    /// Paints a conic gradient around `center` whose table position is θ·`scale` + `offset`,
    /// θ the angle from `origin` in 0…2π (radians, user space), extended beyond 0…1 as `extend`
    /// says: `drawConicGradient` and COLR's sweep gradients.
    func drawSweepGradient(_ gradient: CGGradient, center: CGPoint, origin: Double, scale: Double, offset: Double,
                           extend: ConicGradientPaint.Extend) {
        guard !gstate.clip.bounds.isEmpty, gstate.ctm.determinant != 0, center.x.isFinite, center.y.isFinite,
              origin.isFinite, scale.isFinite, offset.isFinite else { return }
        let paintSource = ConicGradientPaint(table: gradient.table(alpha: gstate.alpha), toUser: userToRaster.inverted(),
                                             center: center, origin: origin, scale: scale, offset: offset, extend: extend)
        paintAcrossClip(.conicGradient(paintSource))
    }

    /// The whole-pixel rectangle around `rect`, grown by two pixels: a superset of the pixels a
    /// gradient bounded by `rect` can reach, end anti-aliasing and rounding included. Whole
    /// pixels keep the rectangle's coverage 1 everywhere, so shading less changes no pixel.
    static func wholePixels(around rect: CGRect) -> CGRect {
        let x0 = (rect.minX - 2).rounded(.down), y0 = (rect.minY - 2).rounded(.down)
        let x1 = (rect.maxX + 2).rounded(.up), y1 = (rect.maxY + 2).rounded(.up)
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The raster band where a linear gradient's t lies in 0…1, from the raster coordinates
    /// `p0` and `p1` (either order) along x (`horizontal`) or y, as whole pixels with a margin.
    static func painted(band p0: CGFloat, _ p1: CGFloat, horizontal: Bool) -> CGRect {
        let lo = min(p0, p1), hi = max(p0, p1)
        guard lo.isFinite, hi.isFinite, hi - lo < 1e9, abs(lo) < 1e9 else { return .infinite }
        let huge: CGFloat = 1_099_511_627_776   // 2^40: beyond any canvas, exact in a CGFloat
        let band = horizontal ? CGRect(x: lo, y: -huge, width: hi - lo, height: 2 * huge)
                              : CGRect(x: -huge, y: lo, width: 2 * huge, height: hi - lo)
        return wholePixels(around: band)
    }
}
