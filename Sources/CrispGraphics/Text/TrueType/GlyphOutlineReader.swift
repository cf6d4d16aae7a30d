import Foundation

// Reading 'glyf' outlines through 'loca'.
//
// A simple glyph is a list of contours of points, each on or off the curve; consecutive
// off-curve points imply an on-curve point halfway between them (TrueType's quadratic
// B-splines). A composite glyph is a list of other glyphs, each placed with an offset (or by
// matching one of its points to a point already placed) and optionally a scale or 2×2 matrix;
// components may themselves be composites.
//
// Composite expansion is where hostile files bite: a glyph may name itself (directly or through
// a chain), nest absurdly deep, or fan out so that a few bytes expand into billions of points.
// The reader keeps the chain of glyphs being expanded (a repeat is a loop), caps the depth, and
// counts every point and component it emits against fixed budgets, so expansion always ends
// quickly with either an outline or a `FontError`. Hinting instructions are skipped: Crisp
// draws unhinted outlines, as CoreText does.

/// One point of a TrueType outline, in font units.
@_spi(Testing) public struct GlyphPoint: Equatable, Sendable {
    /// x in font units.
    @_spi(Testing) public internal(set) var x: Double
    /// y in font units, up.
    @_spi(Testing) public internal(set) var y: Double
    /// Whether the point is on the curve (else a quadratic control point).
    @_spi(Testing) public internal(set) var isOnCurve: Bool
}

/// A glyph's contours in font units (y up): `points`, split after each index in `contourEnds`.
@_spi(Testing) public struct GlyphOutline: Equatable, Sendable {
    /// The points of every contour, in order.
    @_spi(Testing) public internal(set) var points: [GlyphPoint] = []
    /// The index of the last point of each contour, ascending.
    @_spi(Testing) public internal(set) var contourEnds: [Int] = []

    var isEmpty: Bool { points.isEmpty }
}

/// Reads glyph outlines from 'loca' and 'glyf'.
@_spi(Testing) public struct GlyphOutlineReader: Sendable {
    /// Deepest composite nesting accepted (fonts in the wild use 1–3 levels).
    @_spi(Testing) public static let maximumDepth = 8
    /// Most points one expanded glyph may have.
    static let maximumPoints = 1 << 16
    /// Most components one expanded glyph may have, counted over all levels.
    static let maximumComponents = 1 << 12

    private let loca: FontTable
    private let glyf: FontTable
    private let hasLongOffsets: Bool
    let glyphCount: Int

    init(loca: FontTable, glyf: FontTable, hasLongOffsets: Bool, glyphCount: Int) throws(FontError) {
        try loca.require(0, (glyphCount + 1) * (hasLongOffsets ? 4 : 2))
        self.loca = loca
        self.glyf = glyf
        self.hasLongOffsets = hasLongOffsets
        self.glyphCount = glyphCount
    }

    /// The outline of `glyph`, composites expanded.
    func outline(of glyph: Int) throws(FontError) -> GlyphOutline {
        guard glyph >= 0, glyph < glyphCount else { throw .glyphOutOfRange(glyph: glyph, glyphCount: glyphCount) }
        var budget = Budget()
        var outline = GlyphOutline()
        var chain: [Int] = []
        try append(glyph, to: &outline, transform: .identity, chain: &chain, budget: &budget)
        return outline
    }

    /// The number of points of `glyph` as stored (for a composite: the expanded count).
    func pointCount(of glyph: Int) throws(FontError) -> Int { try outline(of: glyph).points.count }

    /// The glyph's bytes in 'glyf'; an empty table for a glyph with no outline (a space).
    func data(of glyph: Int) throws(FontError) -> FontTable {
        let start: Int, end: Int
        if hasLongOffsets {
            start = Int(try loca.u32(glyph * 4))
            end = Int(try loca.u32(glyph * 4 + 4))
        } else {
            start = Int(try loca.u16(glyph * 2)) * 2
            end = Int(try loca.u16(glyph * 2 + 2)) * 2
        }
        guard end >= start else { throw .invalidValue(table: "loca", field: "offset of glyph \(glyph + 1)", value: end) }
        return try glyf.slice(start, end - start)
    }

    private struct Budget {
        var points = 0
        var components = 0
    }

    private struct Matrix {
        var a = 1.0, b = 0.0, c = 0.0, d = 1.0, tx = 0.0, ty = 0.0
        static let identity = Matrix()

        func apply(_ p: GlyphPoint) -> GlyphPoint {
            GlyphPoint(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty, isOnCurve: p.isOnCurve)
        }

        /// `self` applied first, then `outer`.
        func then(_ outer: Matrix) -> Matrix {
            Matrix(a: a * outer.a + b * outer.c, b: a * outer.b + b * outer.d,
                   c: c * outer.a + d * outer.c, d: c * outer.b + d * outer.d,
                   tx: tx * outer.a + ty * outer.c + outer.tx, ty: tx * outer.b + ty * outer.d + outer.ty)
        }
    }

    private func append(_ glyph: Int, to outline: inout GlyphOutline, transform: Matrix,
                        chain: inout [Int], budget: inout Budget) throws(FontError) {
        guard glyph < glyphCount else { throw .glyphOutOfRange(glyph: glyph, glyphCount: glyphCount) }
        if chain.contains(glyph) { throw .compositeLoop(glyph: chain.first ?? glyph) }
        guard chain.count <= GlyphOutlineReader.maximumDepth else {
            throw .compositeTooDeep(glyph: chain.first ?? glyph, limit: GlyphOutlineReader.maximumDepth)
        }
        let t = try data(of: glyph)
        guard t.length > 0 else { return }
        let contours = Int(try t.i16(0))
        if contours >= 0 {
            try appendSimple(t, contours: contours, to: &outline, transform: transform, budget: &budget,
                             root: chain.first ?? glyph)
        } else {
            chain.append(glyph)
            try appendComposite(t, to: &outline, transform: transform, chain: &chain, budget: &budget)
            chain.removeLast()
        }
    }

    private func appendSimple(_ t: FontTable, contours: Int, to outline: inout GlyphOutline, transform: Matrix,
                              budget: inout Budget, root: Int) throws(FontError) {
        guard contours > 0 else { return }
        var ends: [Int] = []
        ends.reserveCapacity(contours)
        var previous = -1
        for i in 0..<contours {
            let end = Int(try t.u16(10 + i * 2))
            guard end > previous else { throw .invalidValue(table: "glyf", field: "endPtsOfContours[\(i)]", value: end) }
            ends.append(end)
            previous = end
        }
        let count = previous + 1
        budget.points += count
        guard budget.points <= GlyphOutlineReader.maximumPoints else {
            throw .glyphTooComplex(glyph: root, limit: GlyphOutlineReader.maximumPoints)
        }
        let instructionLength = Int(try t.u16(10 + contours * 2))
        var p = 12 + contours * 2 + instructionLength

        // Flags, run-length encoded.
        var flags = [UInt8](repeating: 0, count: count)
        var i = 0
        while i < count {
            let f = try t.u8(p); p += 1
            flags[i] = f; i += 1
            if f & 0x08 != 0 {
                var repeats = Int(try t.u8(p)); p += 1
                guard repeats <= count - i else { throw .invalidValue(table: "glyf", field: "flag repeat count", value: repeats) }
                while repeats > 0 { flags[i] = f; i += 1; repeats -= 1 }
            }
        }
        // Coordinates: deltas, short (1 byte + sign flag) or long (2 bytes) or repeated.
        var xs = [Int](repeating: 0, count: count), ys = [Int](repeating: 0, count: count)
        var v = 0
        for k in 0..<count {
            let f = flags[k]
            if f & 0x02 != 0 {
                let d = Int(try t.u8(p)); p += 1
                v += f & 0x10 != 0 ? d : -d
            } else if f & 0x10 == 0 {
                v += Int(try t.i16(p)); p += 2
            }
            xs[k] = v
        }
        v = 0
        for k in 0..<count {
            let f = flags[k]
            if f & 0x04 != 0 {
                let d = Int(try t.u8(p)); p += 1
                v += f & 0x20 != 0 ? d : -d
            } else if f & 0x20 == 0 {
                v += Int(try t.i16(p)); p += 2
            }
            ys[k] = v
        }
        let base = outline.points.count
        outline.points.reserveCapacity(base + count)
        for k in 0..<count {
            outline.points.append(transform.apply(GlyphPoint(x: Double(xs[k]), y: Double(ys[k]), isOnCurve: flags[k] & 1 != 0)))
        }
        for e in ends { outline.contourEnds.append(base + e) }
    }

    private func appendComposite(_ t: FontTable, to outline: inout GlyphOutline, transform: Matrix,
                                 chain: inout [Int], budget: inout Budget) throws(FontError) {
        let argsAreWords: UInt16 = 0x0001, argsAreXY: UInt16 = 0x0002, haveScale: UInt16 = 0x0008
        let moreComponents: UInt16 = 0x0020, haveXYScale: UInt16 = 0x0040, haveTwoByTwo: UInt16 = 0x0080
        let scaledOffset: UInt16 = 0x0800, unscaledOffset: UInt16 = 0x1000
        var p = 10
        var flags: UInt16
        repeat {
            budget.components += 1
            guard budget.components <= GlyphOutlineReader.maximumComponents else {
                throw .glyphTooComplex(glyph: chain[0], limit: GlyphOutlineReader.maximumComponents)
            }
            flags = try t.u16(p)
            let component = Int(try t.u16(p + 2))
            p += 4
            let arg1: Int, arg2: Int
            if flags & argsAreWords != 0 {
                if flags & argsAreXY != 0 {
                    arg1 = Int(try t.i16(p)); arg2 = Int(try t.i16(p + 2))
                } else {
                    arg1 = Int(try t.u16(p)); arg2 = Int(try t.u16(p + 2))
                }
                p += 4
            } else {
                if flags & argsAreXY != 0 {
                    arg1 = Int(try t.i8(p)); arg2 = Int(try t.i8(p + 1))
                } else {
                    arg1 = Int(try t.u8(p)); arg2 = Int(try t.u8(p + 1))
                }
                p += 2
            }
            var m = Matrix()
            if flags & haveScale != 0 {
                m.a = try t.f2dot14(p); m.d = m.a; p += 2
            } else if flags & haveXYScale != 0 {
                m.a = try t.f2dot14(p); m.d = try t.f2dot14(p + 2); p += 4
            } else if flags & haveTwoByTwo != 0 {
                m.a = try t.f2dot14(p); m.b = try t.f2dot14(p + 2)
                m.c = try t.f2dot14(p + 4); m.d = try t.f2dot14(p + 6); p += 8
            }

            if flags & argsAreXY != 0 {
                var dx = Double(arg1), dy = Double(arg2)
                // Microsoft's default: offsets are not scaled by the component's matrix.
                if flags & scaledOffset != 0, flags & unscaledOffset == 0 {
                    (dx, dy) = (m.a * dx + m.c * dy, m.b * dx + m.d * dy)
                }
                m.tx = dx; m.ty = dy
                try append(component, to: &outline, transform: m.then(transform), chain: &chain, budget: &budget)
            } else {
                // Point matching: the component's point arg2 lands on the compound's point arg1.
                // Both are compared in the compound's (already transformed) space.
                let anchorIndex = arg1
                guard anchorIndex < outline.points.count else {
                    throw .invalidValue(table: "glyf", field: "composite anchor point", value: anchorIndex)
                }
                let anchor = outline.points[anchorIndex]
                var piece = GlyphOutline()
                try append(component, to: &piece, transform: m.then(transform), chain: &chain, budget: &budget)
                guard arg2 < piece.points.count else {
                    throw .invalidValue(table: "glyf", field: "component anchor point", value: arg2)
                }
                let dx = anchor.x - piece.points[arg2].x, dy = anchor.y - piece.points[arg2].y
                let base = outline.points.count
                for q in piece.points { outline.points.append(GlyphPoint(x: q.x + dx, y: q.y + dy, isOnCurve: q.isOnCurve)) }
                for e in piece.contourEnds { outline.contourEnds.append(base + e) }
            }
        } while flags & moreComponents != 0
    }
}

extension GlyphOutline {
    /// The outline as a path in font units: each contour a closed subpath of lines and
    /// quadratic curves, with the on-curve points that TrueType leaves implied made explicit.
    func makePath(transform: CGAffineTransform = .identity) -> CGPath {
        let path = CGMutablePath()
        var first = 0
        for end in contourEnds {
            defer { first = end + 1 }
            guard end >= first, end < points.count else { continue }
            let contour = points[first...end]
            let n = contour.count
            guard n >= 2 else { continue }
            func pt(_ p: GlyphPoint) -> CGPoint { CGPoint(x: p.x, y: p.y) }
            func mid(_ p: GlyphPoint, _ q: GlyphPoint) -> CGPoint { CGPoint(x: (p.x + q.x) / 2, y: (p.y + q.y) / 2) }
            let head = contour[first], last = contour[end]
            // Start on a real on-curve point when there is one, else on the implied midpoint.
            let start: CGPoint
            var indices: [Int]
            if head.isOnCurve {
                start = pt(head); indices = Array((first + 1)...end)
            } else if last.isOnCurve {
                start = pt(last); indices = Array(first..<end)
            } else {
                start = mid(last, head); indices = Array(first...end)
            }
            path.move(to: start, transform: transform)
            var control: GlyphPoint?
            for i in indices {
                let q = points[i]
                if q.isOnCurve {
                    if let c = control {
                        path.addQuadCurve(to: pt(q), control: pt(c), transform: transform)
                    } else {
                        path.addLine(to: pt(q), transform: transform)
                    }
                    control = nil
                } else {
                    if let c = control { path.addQuadCurve(to: mid(c, q), control: pt(c), transform: transform) }
                    control = q
                }
            }
            if let c = control { path.addQuadCurve(to: start, control: pt(c), transform: transform) }
            path.closeSubpath()
        }
        return path
    }
}
