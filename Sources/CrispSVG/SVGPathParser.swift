import CrispGraphics
import Foundation

// SVG path data ("d") to CGMutablePath, following the grammar of SVG 1.1 §8.3 / SVG 2 §9.3
// to the letter: absolute and relative M L H V C S Q T A Z, implicit repetition of the last
// command (after M/m the repeats are L/l), numbers without separators where the grammar
// allows it (`M.5.5-1-2`), arc flags as single characters (`a1 1 0 1050 50`).
//
// Points stay in the path's own user space; the drawing transform is applied when drawn.
// A drawing command right after Z starts its subpath at the closed subpath's start point, as
// SVG says. Smooth curves reflect the previous control point only after a curve of the same
// family (C/S for S, Q/T for T), else the control point is the current point.
//
// SVG asks renderers to draw a path up to the first error: `pathUpToError` does (a segment is
// added only once all its numbers have parsed, so the path holds exactly the complete segments
// before the error) and reports where the error is; `path(from:)` is the strict form.

/// Parses SVG path data into a `CGMutablePath`.
public enum SVGPathParser {
    /// A parse failure: what was expected and the byte offset into the path data.
    public struct Failure: Error, Equatable, Sendable {
        /// What went wrong.
        public var message: String
        /// Byte offset into the path data.
        public var offset: Int

        /// Creates a failure.
        public init(message: String, offset: Int) {
            self.message = message
            self.offset = offset
        }
    }

    /// The path up to the first error of `data` (all of it when there is none), and the error.
    public static func pathUpToError(from data: String) -> (path: CGMutablePath, failure: Failure?) {
        var parser = Parser(scanner: SVGValueScanner(data))
        do {
            try parser.parse()
            return (parser.path, nil)
        } catch {
            return (parser.path, error)
        }
    }

    /// The path described by `data`, in the data's own coordinates (y down as in SVG).
    ///
    /// An empty or all-white-space string gives an empty path.
    /// - Throws: `Failure` with the offset of the first error.
    public static func path(from data: String) throws(Failure) -> CGMutablePath {
        var parser = Parser(scanner: SVGValueScanner(data))
        try parser.parse()
        return parser.path
    }

    /// The path up to the first error of `data` as segments with their end directions (for
    /// markers: an arc is one segment, though it is several curves in the path).
    static func segmentsUpToError(from data: String) -> [SVGPathSegment] {
        var parser = Parser(scanner: SVGValueScanner(data))
        parser.segments = []
        _ = try? parser.parse()
        return parser.segments ?? []
    }

    private struct Parser {
        var scanner: SVGValueScanner
        let path = CGMutablePath()
        /// The commands as segments, when asked for (nil: not recorded).
        var segments: [SVGPathSegment]?
        var current = CGPoint.zero
        var subpathStart = CGPoint.zero
        var lastControl = CGPoint.zero
        /// The previous command, upper-cased ("M", "C", …), or 0 at the start.
        var previous: UInt8 = 0
        var isClosed = false

        mutating func fail(_ message: String) -> Failure { Failure(message: message, offset: scanner.i) }

        mutating func number() throws(Failure) -> CGFloat {
            scanner.skipSeparator()
            guard let v = scanner.number() else {
                throw fail(scanner.isAtEnd ? "expected a number, found the end" : "expected a number")
            }
            return CGFloat(v)
        }

        mutating func flag() throws(Failure) -> Bool {
            scanner.skipSeparator()
            guard let f = scanner.flag() else { throw fail("expected an arc flag (0 or 1)") }
            return f
        }

        mutating func point(relative: Bool) throws(Failure) -> CGPoint {
            let x = try number(), y = try number()
            return relative ? CGPoint(x: current.x + x, y: current.y + y) : CGPoint(x: x, y: y)
        }

        /// After Z, a drawing command starts a new subpath at the closed one's start.
        mutating func reopenIfClosed() {
            if isClosed {
                path.move(to: subpathStart)
                segments?.append(SVGPathSegment(kind: .move, start: subpathStart, end: subpathStart))
                isClosed = false
            }
        }

        /// Records a drawn segment from `current` to `end` whose directions at its ends follow
        /// the points given (a curve's control points, the first that differs from the end).
        /// The points are an autoclosure: when segments are not recorded, no array is made.
        mutating func record(_ kind: SVGPathSegment.Kind = .draw, to end: CGPoint, via controls: @autoclosure () -> [CGPoint] = []) {
            guard segments != nil else { return }
            segments!.append(SVGPathSegment(kind: kind, start: current, end: end, controls: controls()))
        }

        mutating func parse() throws(Failure) {
            scanner.skipWhiteSpace()
            var command: UInt8 = 0
            var first = true
            while true {
                scanner.skipWhiteSpace()
                guard let b = scanner.peek else { return }
                if Parser.isCommand(b) {
                    command = b
                    scanner.i += 1
                } else if first {
                    throw fail("path data must start with M or m")
                } else if scanner.isAtNumber || b == UInt8(ascii: ",") {
                    // Implicit repetition of the previous command.
                    guard command != 0, command != UInt8(ascii: "Z"), command != UInt8(ascii: "z") else {
                        throw fail("a number after Z needs a command")
                    }
                    if b == UInt8(ascii: ",") { scanner.i += 1 }
                    if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
                    if command == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
                } else {
                    throw fail("unexpected character '\(Character(Unicode.Scalar(b)))'")
                }
                if first, command != UInt8(ascii: "M"), command != UInt8(ascii: "m") {
                    scanner.i -= 1
                    throw fail("path data must start with M or m")
                }
                first = false
                try perform(command)
            }
        }

        static func isCommand(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: "M"), UInt8(ascii: "m"), UInt8(ascii: "L"), UInt8(ascii: "l"), UInt8(ascii: "H"),
                 UInt8(ascii: "h"), UInt8(ascii: "V"), UInt8(ascii: "v"), UInt8(ascii: "C"), UInt8(ascii: "c"),
                 UInt8(ascii: "S"), UInt8(ascii: "s"), UInt8(ascii: "Q"), UInt8(ascii: "q"), UInt8(ascii: "T"),
                 UInt8(ascii: "t"), UInt8(ascii: "A"), UInt8(ascii: "a"), UInt8(ascii: "Z"), UInt8(ascii: "z"):
                return true
            default: return false
            }
        }

        mutating func perform(_ command: UInt8) throws(Failure) {
            let relative = command >= UInt8(ascii: "a")
            let upper = relative ? command - 32 : command
            switch upper {
            case UInt8(ascii: "M"):
                let p = try point(relative: relative && previous != 0)
                path.move(to: p)
                segments?.append(SVGPathSegment(kind: .move, start: p, end: p))
                current = p
                subpathStart = p
                isClosed = false
            case UInt8(ascii: "L"):
                let p = try point(relative: relative)
                reopenIfClosed()
                path.addLine(to: p)
                record(to: p)
                current = p
            case UInt8(ascii: "H"):
                let x = try number()
                let p = CGPoint(x: relative ? current.x + x : x, y: current.y)
                reopenIfClosed()
                path.addLine(to: p)
                record(to: p)
                current = p
            case UInt8(ascii: "V"):
                let y = try number()
                let p = CGPoint(x: current.x, y: relative ? current.y + y : y)
                reopenIfClosed()
                path.addLine(to: p)
                record(to: p)
                current = p
            case UInt8(ascii: "C"):
                let c1 = try point(relative: relative), c2 = try point(relative: relative), p = try point(relative: relative)
                reopenIfClosed()
                path.addCurve(to: p, control1: c1, control2: c2)
                record(to: p, via: [c1, c2])
                lastControl = c2
                current = p
            case UInt8(ascii: "S"):
                let c1 = previous == UInt8(ascii: "C") || previous == UInt8(ascii: "S") ? reflectedControl : current
                let c2 = try point(relative: relative), p = try point(relative: relative)
                reopenIfClosed()
                path.addCurve(to: p, control1: c1, control2: c2)
                record(to: p, via: [c1, c2])
                lastControl = c2
                current = p
            case UInt8(ascii: "Q"):
                let c = try point(relative: relative), p = try point(relative: relative)
                reopenIfClosed()
                path.addQuadCurve(to: p, control: c)
                record(to: p, via: [c])
                lastControl = c
                current = p
            case UInt8(ascii: "T"):
                let c = previous == UInt8(ascii: "Q") || previous == UInt8(ascii: "T") ? reflectedControl : current
                let p = try point(relative: relative)
                reopenIfClosed()
                path.addQuadCurve(to: p, control: c)
                record(to: p, via: [c])
                lastControl = c
                current = p
            case UInt8(ascii: "A"):
                let rx = try number(), ry = try number(), rotation = try number()
                let largeArc = try flag(), sweep = try flag()
                let p = try point(relative: relative)
                reopenIfClosed()
                let arc = SVGArc(from: current, to: p, radiusX: rx, radiusY: ry, rotationDegrees: rotation,
                                 largeArc: largeArc, sweep: sweep)
                arc.append(to: path)
                if segments != nil {
                    // The arc's directions at its ends: those of its first and last curves.
                    let pieces = CGMutablePath()
                    pieces.move(to: current)
                    arc.append(to: pieces)
                    var controls: [CGPoint] = []
                    let elements = pieces.elements
                    if elements.count > 1, case .curveTo(_, let c1, _) = elements[1] { controls.append(c1) }
                    if case .curveTo(_, _, let c2) = elements[elements.count - 1] { controls.append(c2) }
                    record(to: p, via: controls)
                }
                current = p
            default: // Z
                if !isClosed {
                    path.closeSubpath()
                    record(.close, to: subpathStart)
                    isClosed = true
                }
                current = subpathStart
            }
            previous = upper
        }

        var reflectedControl: CGPoint {
            CGPoint(x: 2 * current.x - lastControl.x, y: 2 * current.y - lastControl.y)
        }
    }
}
