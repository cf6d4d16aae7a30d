import CrispGraphics
import Foundation

// The `transform` attribute (and `gradientTransform`): a list of matrix, translate, scale,
// rotate (with an optional centre), skewX and skewY, separated by white space and/or commas.
// The list composes left to right as written — "A B" maps a point through B first, then A —
// so each new transform is prepended to the ones before it. SVG's matrix(a b c d e f) is
// x' = a·x + c·y + e, y' = b·x + d·y + f, exactly CGAffineTransform's fields.

/// Parses SVG transform lists.
enum SVGTransformParser {
    /// The transform `text` describes; `Failure` with the offset of the first error.
    static func transform(from text: String) throws(SVGPathParser.Failure) -> CGAffineTransform {
        var scanner = SVGValueScanner(text)
        var result = CGAffineTransform.identity
        scanner.skipWhiteSpace()
        while !scanner.isAtEnd {
            let nameStart = scanner.i
            let name = scanner.letters()
            scanner.skipWhiteSpace()
            guard !name.isEmpty, scanner.consume(UInt8(ascii: "(")) else {
                throw .init(message: name.isEmpty ? "expected a transform name" : "expected '(' after \(name)", offset: scanner.i)
            }
            var arguments: [CGFloat] = []
            scanner.skipWhiteSpace()
            while !scanner.consume(UInt8(ascii: ")")) {
                if !arguments.isEmpty { scanner.skipSeparator() }
                guard let v = scanner.number() else {
                    throw .init(message: scanner.isAtEnd ? "unterminated \(name)(" : "expected a number or ')'", offset: scanner.i)
                }
                arguments.append(CGFloat(v))
                scanner.skipWhiteSpace()
            }
            func need(_ counts: Int...) throws(SVGPathParser.Failure) {
                guard counts.contains(arguments.count) else {
                    throw .init(message: "\(name)() takes \(counts.map(String.init).joined(separator: " or ")) numbers, not \(arguments.count)",
                                offset: nameStart)
                }
            }
            let t: CGAffineTransform
            switch name {
            case "matrix":
                try need(6)
                t = CGAffineTransform(a: arguments[0], b: arguments[1], c: arguments[2], d: arguments[3],
                                      tx: arguments[4], ty: arguments[5])
            case "translate":
                try need(1, 2)
                t = CGAffineTransform(translationX: arguments[0], y: arguments.count == 2 ? arguments[1] : 0)
            case "scale":
                try need(1, 2)
                t = CGAffineTransform(scaleX: arguments[0], y: arguments.count == 2 ? arguments[1] : arguments[0])
            case "rotate":
                try need(1, 3)
                let r = CGAffineTransform(rotationAngle: radians(arguments[0]))
                if arguments.count == 3 {
                    let (cx, cy) = (arguments[1], arguments[2])
                    t = CGAffineTransform(translationX: -cx, y: -cy).concatenating(r)
                        .concatenating(CGAffineTransform(translationX: cx, y: cy))
                } else {
                    t = r
                }
            case "skewX":
                try need(1)
                t = CGAffineTransform(a: 1, b: 0, c: tan(radians(arguments[0])), d: 1, tx: 0, ty: 0)
            case "skewY":
                try need(1)
                t = CGAffineTransform(a: 1, b: tan(radians(arguments[0])), c: 0, d: 1, tx: 0, ty: 0)
            default:
                throw .init(message: "unknown transform \(name)()", offset: nameStart)
            }
            result = t.concatenating(result)
            scanner.skipSeparator()
        }
        return result
    }

    /// Degrees to radians.
    private static func radians(_ degrees: CGFloat) -> CGFloat {
        degrees * .pi / 180
    }
}
