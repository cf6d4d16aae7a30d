import CrispGraphics
import Foundation

// An SVG gradient made ready for CGContext's gradient drawing, once, when the document is read.
//
// CoreGraphics gradients know only "pad" (extend the end colours). SVG's reflect and repeat are
// expressed by unrolling: the periods of t that the painted area can reach are laid side by
// side into one CGGradient (each period padded with its own end colours, reversed on odd
// periods for reflect), and the gradient's geometry is stretched over the same number of
// periods. The reach is computed from the area's bounding box mapped into gradient space: t is
// affine for a linear gradient (so its extremes are at the corners) and, for a radial gradient
// whose focal circle lies inside the end circle, grows at most as fast as the distance from the
// focal point. At most `maximumPeriods` are unrolled (each keeps 1024 / periods table entries).
//
// Radial gradients follow SVG 1.1 where fr is 0: a focal point outside the end circle is moved
// onto it (to 0.999 of the radius, as the peers' reader does), so the gradient never becomes a
// cone. Degenerate gradients paint the last stop's colour, as SVG specifies: a linear gradient
// whose ends coincide, a radial gradient of zero radius.

/// A gradient fill or stroke as CGContext draws it.
struct SVGGradientPlan {
    enum Geometry {
        case linear(start: CGPoint, end: CGPoint)
        case radial(startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint, endRadius: CGFloat)
    }

    var gradient: CGGradient
    var geometry: Geometry
    /// Gradient space to the shape's user space (gradientTransform, then the bounding box).
    var toUser: CGAffineTransform

    static let maximumPeriods = 64

    /// The paint for `g` over a shape whose object bounding box is `boundingBox` and whose
    /// painted area lies within `coverBox` (both in user space); nil when nothing is painted.
    static func paint(for g: SVGGradient, boundingBox: CGRect, coverBox: CGRect) -> SVGResolvedPaint? {
        guard let last = g.stops.last else { return nil }
        var toUser = g.transform
        if g.units == .objectBoundingBox {
            toUser = toUser.concatenating(CGAffineTransform(a: boundingBox.width, b: 0, c: 0, d: boundingBox.height,
                                                             tx: boundingBox.minX, ty: boundingBox.minY))
        }
        let det = toUser.determinant
        guard det != 0, det.isFinite else { return nil }
        let toGradient = toUser.inverted()
        let corners = [CGPoint(x: coverBox.minX, y: coverBox.minY), CGPoint(x: coverBox.maxX, y: coverBox.minY),
                       CGPoint(x: coverBox.minX, y: coverBox.maxY), CGPoint(x: coverBox.maxX, y: coverBox.maxY)]
            .map { $0.applying(toGradient) }

        var periods = 0..<1
        let geometry: Geometry
        switch g.kind {
        case .linear(let x1, let y1, let x2, let y2):
            let dx = x2 - x1, dy = y2 - y1
            let length2 = dx * dx + dy * dy
            guard length2 > 0 else { return .color(last.color) }
            if g.spread != .pad {
                let ts = corners.map { (($0.x - x1) * dx + ($0.y - y1) * dy) / length2 }
                periods = clampedPeriods(lower: ts.min()!, upper: ts.max()!)
            }
            let k0 = CGFloat(periods.lowerBound), k1 = CGFloat(periods.upperBound)
            geometry = .linear(start: CGPoint(x: x1 + k0 * dx, y: y1 + k0 * dy), end: CGPoint(x: x1 + k1 * dx, y: y1 + k1 * dy))
        case .radial(let cx, let cy, let r, var fx, var fy, let fr):
            guard r > 0 else { return .color(last.color) }
            if fr == 0 {
                let dx = fx - cx, dy = fy - cy
                let distance = (dx * dx + dy * dy).squareRoot()
                if distance > r * 0.999 {
                    let k = r * 0.999 / distance
                    fx = cx + dx * k
                    fy = cy + dy * k
                }
            }
            let offset = ((cx - fx) * (cx - fx) + (cy - fy) * (cy - fy)).squareRoot()
            let growth = r - fr - offset   // how much faster the circles grow than they move
            if g.spread != .pad, growth > 0 {
                let reach = corners.map { (($0.x - fx) * ($0.x - fx) + ($0.y - fy) * ($0.y - fy)).squareRoot() }.max()!
                periods = clampedPeriods(lower: 0, upper: (reach - fr) / growth)
            }
            let k1 = CGFloat(periods.upperBound)
            geometry = .radial(startCenter: CGPoint(x: fx, y: fy), startRadius: fr,
                               endCenter: CGPoint(x: fx + k1 * (cx - fx), y: fy + k1 * (cy - fy)), endRadius: fr + k1 * (r - fr))
        }
        guard let gradient = unrolled(g.stops, spread: g.spread, periods: periods) else { return nil }
        return .gradient(SVGGradientPlan(gradient: gradient, geometry: geometry, toUser: toUser))
    }

    private static func clampedPeriods(lower: CGFloat, upper: CGFloat) -> Range<Int> {
        guard lower.isFinite, upper.isFinite else { return 0..<1 }
        var k0 = Int(max(min(lower.rounded(.down), 1e6), -1e6))
        var k1 = Int(max(min(upper.rounded(.up), 1e6), -1e6))
        if k1 <= k0 { k1 = k0 + 1 }
        if k1 - k0 > maximumPeriods {
            // Keep the periods nearest the gradient's own 0…1.
            k0 = max(k0, -maximumPeriods / 2)
            k1 = k0 + maximumPeriods
        }
        return k0..<k1
    }

    /// The stops of `periods` laid side by side in 0…1.
    private static func unrolled(_ stops: [SVGGradient.Stop], spread: SVGGradient.Spread, periods: Range<Int>) -> CGGradient? {
        var colors: [CGColor] = []
        var locations: [CGFloat] = []
        let count = CGFloat(periods.count)
        func cg(_ c: SVGColor) -> CGColor { CGColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha) }
        if periods.count == 1 && spread == .pad {
            for s in stops {
                colors.append(cg(s.color))
                locations.append(s.offset)
            }
        } else {
            var local = stops
            if let first = local.first, first.offset > 0 { local.insert(.init(offset: 0, color: first.color), at: 0) }
            if let last = local.last, last.offset < 1 { local.append(.init(offset: 1, color: last.color)) }
            for k in periods {
                let reversed = spread == .reflect && k & 1 != 0
                let sequence = reversed ? local.reversed().map { SVGGradient.Stop(offset: 1 - $0.offset, color: $0.color) } : local
                for s in sequence {
                    colors.append(cg(s.color))
                    locations.append((CGFloat(k - periods.lowerBound) + s.offset) / count)
                }
            }
        }
        return locations.withUnsafeBufferPointer { CGGradient(colorsSpace: nil, colors: colors, locations: $0.baseAddress) }
    }
}
