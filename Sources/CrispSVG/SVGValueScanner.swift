import Foundation

// The lexer every SVG micro-syntax shares (path data, points, transforms, lengths, lists): a
// cursor over the UTF-8 bytes of one attribute value.
//
// Numbers follow SVG's grammar exactly: an optional sign, digits with an optional fraction or
// a fraction alone (`.5`, `5.`), an optional exponent (`1e-3`); a number ends where the grammar
// stops, so `.5.5` is two numbers and `-1-2` is two numbers. An `e` not followed by digits is
// not an exponent (`1em` is 1 with the unit `em`). The mantissa is accumulated in an integer
// and scaled once by a power of ten — exact for up to 15 significant digits and 22 places of
// exponent (a single correctly rounded multiplication or division), within an ulp beyond, which
// is far below anything a rasterizer can show. Non-finite results are errors.

/// A cursor over an attribute value's bytes.
struct SVGValueScanner {
    let bytes: [UInt8]
    var i = 0

    init(_ string: String) { bytes = Array(string.utf8) }

    var isAtEnd: Bool { i >= bytes.count }
    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    static func isWhiteSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x0C }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    mutating func skipWhiteSpace() {
        while i < bytes.count, SVGValueScanner.isWhiteSpace(bytes[i]) { i += 1 }
    }

    /// Skips white space, at most one comma, and white space again.
    mutating func skipSeparator() {
        skipWhiteSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
            i += 1
            skipWhiteSpace()
        }
    }

    /// Whether a number can start at the cursor.
    var isAtNumber: Bool {
        guard let b = peek else { return false }
        return SVGValueScanner.isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
    }

    /// Consumes `b` if it is next.
    mutating func consume(_ b: UInt8) -> Bool {
        if peek == b { i += 1; return true }
        return false
    }

    /// Reads a number; nil (cursor unchanged) when none starts here or it is not finite.
    mutating func number() -> Double? {
        let start = i
        var negative = false
        if let b = peek, b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
            negative = b == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0          // significant digits kept in the mantissa
        var scale = 0           // decimal exponent adjustment
        var sawDigit = false
        while let b = peek, SVGValueScanner.isDigit(b) {
            sawDigit = true
            if digits < 19 {
                mantissa = mantissa * 10 + UInt64(b - 0x30)
                if mantissa != 0 { digits += 1 }
            } else {
                scale += 1
            }
            i += 1
        }
        if peek == UInt8(ascii: ".") {
            let dot = i
            i += 1
            var fractionDigits = false
            while let b = peek, SVGValueScanner.isDigit(b) {
                fractionDigits = true
                if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(b - 0x30)
                    if mantissa != 0 { digits += 1 }
                    scale -= 1
                }
                i += 1
            }
            if !fractionDigits && !sawDigit { i = dot }
            sawDigit = sawDigit || fractionDigits
        }
        guard sawDigit else { i = start; return nil }
        if let b = peek, b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
            var j = i + 1
            var expNegative = false
            if j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") {
                expNegative = bytes[j] == UInt8(ascii: "-")
                j += 1
            }
            if j < bytes.count, SVGValueScanner.isDigit(bytes[j]) {
                var exponent = 0
                while j < bytes.count, SVGValueScanner.isDigit(bytes[j]) {
                    if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[j] - 0x30) }
                    j += 1
                }
                scale += expNegative ? -exponent : exponent
                i = j
            }
        }
        var value = Double(mantissa)
        if mantissa != 0 && scale != 0 {
            if scale > 0 {
                value = scale <= 22 ? value * SVGValueScanner.powersOfTen[scale] : value * pow(10, Double(scale))
            } else {
                value = -scale <= 22 ? value / SVGValueScanner.powersOfTen[-scale] : value / pow(10, Double(-scale))
            }
        }
        guard value.isFinite else { i = start; return nil }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// Reads a path-data flag: exactly one `0` or `1` (no separator needed after it).
    mutating func flag() -> Bool? {
        guard let b = peek, b == UInt8(ascii: "0") || b == UInt8(ascii: "1") else { return nil }
        i += 1
        return b == UInt8(ascii: "1")
    }

    /// Reads an identifier made of letters (a unit, a keyword, a function name).
    mutating func letters() -> String {
        let start = i
        while let b = peek, (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }
}
