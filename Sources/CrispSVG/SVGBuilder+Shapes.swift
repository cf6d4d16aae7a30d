import CrispGraphics
import Foundation

// The basic shapes as paths, in the order and direction SVG 2 §10 defines them (which matters
// for where a dash pattern starts): rect from (x + rx, y) clockwise on screen, circle and
// ellipse from (cx + rx, cy) through (cx, cy + ry). Quarter ellipses are cubics with handles of
// 4/3·(√2 − 1) ≈ 0.5523 of the radius (the classic approximation; radial error 0.027 %).
//
// Errors follow SVG 2's rules: an invalid length is as if absent (its initial value, 0 or auto);
// a negative width, height, r, or ellipse rx/ry disables the element (a rect's negative rx/ry
// is as if absent: auto); path data draws up to its first error; a `points` list with an odd
// count drops the last coordinate. Each is a warning with its place.

extension SVGBuilder {
    static let quarterArcHandle: CGFloat = 0.552_284_749_830_793_4

    /// The outline of a shape element in its user space; nil when it draws nothing (a zero
    /// width, an empty `d`, …).
    func geometry(of e: XMLElement, _ attributes: [SVGDeclaration]) -> CGPath? {
        // A few attributes each: a search costs less than hashing them into a dictionary.
        struct Values {
            let attributes: [SVGDeclaration]
            subscript(_ name: Substring) -> SVGDeclaration? { attributes.last { $0.name == name } }
        }
        let values = Values(attributes: attributes)
        func length(_ name: Substring, _ axis: Axis, default fallback: CGFloat? = 0) -> CGFloat? {
            guard let d = values[name] else { return fallback }
            if name == "rx" || name == "ry", d.value.trimmingWhiteSpace() == "auto" { return nil }
            do {
                return try self.length(d, axis: axis)
            } catch {
                warn(error)
                return fallback
            }
        }
        /// False (with a warning) when the value is negative: an error that disables the element.
        func nonNegative(_ name: Substring, _ v: CGFloat?) -> Bool {
            guard let v, v < 0, let d = values[name] else { return true }
            warn(invalid(d, "must not be negative (the element is not drawn)"))
            return false
        }
        /// The value, or nil (with a warning) when it is negative: as if absent.
        func absentIfNegative(_ name: Substring, _ v: CGFloat?) -> CGFloat? {
            guard let v, v < 0, let d = values[name] else { return v }
            warn(invalid(d, "must not be negative (treated as auto)"))
            return nil
        }
        switch e.name {
        case "path":
            guard let d = values["d"] else { return nil }
            if values["pathLength"] != nil {
                warn("pathLength is ignored (dashes are measured along the real length)", at: values["pathLength"]!.offset)
            }
            let (path, failure) = SVGPathParser.pathUpToError(from: String(d.value))
            if let failure {
                warn(SVGError(.invalidPathData(failure.message + " (drawn up to here)"), at: location(d.offset + failure.offset)))
            }
            return path.isEmpty ? nil : path
        case "rect":
            let x = length("x", .horizontal)!, y = length("y", .vertical)!
            let w = length("width", .horizontal)!, h = length("height", .vertical)!
            var rx = absentIfNegative("rx", length("rx", .horizontal, default: nil))
            var ry = absentIfNegative("ry", length("ry", .vertical, default: nil))
            guard nonNegative("width", w), nonNegative("height", h), w > 0, h > 0 else { return nil }
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            let cx = min(rx ?? 0, w / 2), cy = min(ry ?? 0, h / 2)
            return SVGBuilder.roundedRect(x: x, y: y, width: w, height: h, rx: cx, ry: cy)
        case "circle":
            let cx = length("cx", .horizontal)!, cy = length("cy", .vertical)!, r = length("r", .diagonal)!
            guard nonNegative("r", r), r > 0 else { return nil }
            return SVGBuilder.ellipse(cx: cx, cy: cy, rx: r, ry: r)
        case "ellipse":
            let cx = length("cx", .horizontal)!, cy = length("cy", .vertical)!
            var rx = length("rx", .horizontal, default: nil), ry = length("ry", .vertical, default: nil)
            guard nonNegative("rx", rx), nonNegative("ry", ry) else { return nil }
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            guard let rx, let ry, rx > 0, ry > 0 else { return nil }
            return SVGBuilder.ellipse(cx: cx, cy: cy, rx: rx, ry: ry)
        case "line":
            let path = CGMutablePath()
            path.move(to: CGPoint(x: length("x1", .horizontal)!, y: length("y1", .vertical)!))
            path.addLine(to: CGPoint(x: length("x2", .horizontal)!, y: length("y2", .vertical)!))
            return path
        default: // polyline, polygon
            guard let d = values["points"] else { return nil }
            var scanner = SVGValueScanner(String(d.value))
            var numbers: [CGFloat] = []
            scanner.skipWhiteSpace()
            while !scanner.isAtEnd {
                guard let v = scanner.number() else {
                    warn(SVGError(.invalidPathData("expected a number in points (drawn up to here)"), at: location(d.offset + scanner.i)))
                    break
                }
                numbers.append(CGFloat(v))
                scanner.skipSeparator()
            }
            if numbers.count % 2 != 0 {
                warn(SVGError(.invalidPathData("points has an odd number of coordinates (\(numbers.count)); the last is dropped"),
                              at: location(d.offset)))
                numbers.removeLast()
            }
            guard numbers.count >= 4 else { return nil }
            let path = CGMutablePath()
            path.move(to: CGPoint(x: numbers[0], y: numbers[1]))
            var k = 2
            while k < numbers.count {
                path.addLine(to: CGPoint(x: numbers[k], y: numbers[k + 1]))
                k += 2
            }
            if e.name == "polygon" { path.closeSubpath() }
            return path
        }
    }

    /// A rectangle with elliptical corners (rx, ry already clamped; zero for square corners).
    static func roundedRect(x: CGFloat, y: CGFloat, width w: CGFloat, height h: CGFloat, rx: CGFloat, ry: CGFloat) -> CGMutablePath {
        let path = CGMutablePath()
        guard rx > 0, ry > 0 else {
            path.move(to: CGPoint(x: x, y: y))
            path.addLine(to: CGPoint(x: x + w, y: y))
            path.addLine(to: CGPoint(x: x + w, y: y + h))
            path.addLine(to: CGPoint(x: x, y: y + h))
            path.closeSubpath()
            return path
        }
        let kx = rx * quarterArcHandle, ky = ry * quarterArcHandle
        let x1 = x + w, y1 = y + h
        path.move(to: CGPoint(x: x + rx, y: y))
        path.addLine(to: CGPoint(x: x1 - rx, y: y))
        path.addCurve(to: CGPoint(x: x1, y: y + ry), control1: CGPoint(x: x1 - rx + kx, y: y), control2: CGPoint(x: x1, y: y + ry - ky))
        path.addLine(to: CGPoint(x: x1, y: y1 - ry))
        path.addCurve(to: CGPoint(x: x1 - rx, y: y1), control1: CGPoint(x: x1, y: y1 - ry + ky), control2: CGPoint(x: x1 - rx + kx, y: y1))
        path.addLine(to: CGPoint(x: x + rx, y: y1))
        path.addCurve(to: CGPoint(x: x, y: y1 - ry), control1: CGPoint(x: x + rx - kx, y: y1), control2: CGPoint(x: x, y: y1 - ry + ky))
        path.addLine(to: CGPoint(x: x, y: y + ry))
        path.addCurve(to: CGPoint(x: x + rx, y: y), control1: CGPoint(x: x, y: y + ry - ky), control2: CGPoint(x: x + rx - kx, y: y))
        path.closeSubpath()
        return path
    }

    /// An ellipse from (cx + rx, cy) through (cx, cy + ry), (cx − rx, cy), (cx, cy − ry).
    static func ellipse(cx: CGFloat, cy: CGFloat, rx: CGFloat, ry: CGFloat) -> CGMutablePath {
        let path = CGMutablePath()
        let kx = rx * quarterArcHandle, ky = ry * quarterArcHandle
        path.move(to: CGPoint(x: cx + rx, y: cy))
        path.addCurve(to: CGPoint(x: cx, y: cy + ry), control1: CGPoint(x: cx + rx, y: cy + ky), control2: CGPoint(x: cx + kx, y: cy + ry))
        path.addCurve(to: CGPoint(x: cx - rx, y: cy), control1: CGPoint(x: cx - kx, y: cy + ry), control2: CGPoint(x: cx - rx, y: cy + ky))
        path.addCurve(to: CGPoint(x: cx, y: cy - ry), control1: CGPoint(x: cx - rx, y: cy - ky), control2: CGPoint(x: cx - kx, y: cy - ry))
        path.addCurve(to: CGPoint(x: cx + rx, y: cy), control1: CGPoint(x: cx + kx, y: cy - ry), control2: CGPoint(x: cx + rx, y: cy - ky))
        path.closeSubpath()
        return path
    }
}
