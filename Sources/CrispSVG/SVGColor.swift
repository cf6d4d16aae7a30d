import Foundation

/// A straight (non-premultiplied) sRGB colour with components in 0…1, as SVG paint gives it.
public struct SVGColor: Equatable, Hashable, Sendable {
    /// Red, in 0…1.
    public var red: Double
    /// Green, in 0…1.
    public var green: Double
    /// Blue, in 0…1.
    public var blue: Double
    /// Alpha from the colour itself (`#rrggbbaa`, `rgba()`, `transparent`); opacities multiply it.
    public var alpha: Double

    /// Creates a colour from components in 0…1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black, SVG's initial fill.
    public static let black = SVGColor(red: 0, green: 0, blue: 0)

    /// Parses a CSS colour as SVG allows it: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`,
    /// `rgb()`/`rgba()` with numbers or percentages (commas or spaces, `/` before alpha),
    /// `hsl()`/`hsla()`, the 147 CSS named colours and `transparent`, in any letter case.
    /// `currentColor` is not a colour and is handled by the caller. Nil when `text` is not a
    /// colour.
    public init?(parsing text: String) {
        let s = text.trimmingWhiteSpaceAndNewlines()
        guard !s.isEmpty else { return nil }
        if s.hasPrefix("#") {
            guard let c = SVGColor.hex(s.dropFirst()) else { return nil }
            self = c
        } else if let open = s.firstIndex(of: "("), s.hasSuffix(")") {
            let name = s[..<open].trimmingWhiteSpace().lowercased()
            let inner = s[s.index(after: open)..<s.index(before: s.endIndex)]
            guard let c = SVGColor.function(name, String(inner)) else { return nil }
            self = c
        } else {
            let key = s.lowercased()
            if key == "transparent" {
                self = SVGColor(red: 0, green: 0, blue: 0, alpha: 0)
                return
            }
            guard let rgb = SVGColor.namedColors[key] else { return nil }
            self = SVGColor(red: Double(rgb >> 16) / 255, green: Double((rgb >> 8) & 0xFF) / 255, blue: Double(rgb & 0xFF) / 255)
        }
    }

    private static func hex(_ digits: Substring) -> SVGColor? {
        // The digit values in a vector, not an array (no allocation); more than 8 is no colour.
        var values = SIMD8<Double>()
        var count = 0
        for ch in digits.utf8 {
            guard count < 8 else { return nil }
            switch ch {
            case 0x30...0x39: values[count] = Double(ch - 0x30)
            case 0x61...0x66: values[count] = Double(ch - 0x61 + 10)
            case 0x41...0x46: values[count] = Double(ch - 0x41 + 10)
            default: return nil
            }
            count += 1
        }
        switch count {
        case 3, 4:
            let a = count == 4 ? values[3] * 17 / 255 : 1
            return SVGColor(red: values[0] * 17 / 255, green: values[1] * 17 / 255, blue: values[2] * 17 / 255, alpha: a)
        case 6, 8:
            func byte(_ k: Int) -> Double { (values[2 * k] * 16 + values[2 * k + 1]) / 255 }
            return SVGColor(red: byte(0), green: byte(1), blue: byte(2), alpha: count == 8 ? byte(3) : 1)
        default:
            return nil
        }
    }

    /// `rgb()`, `rgba()`, `hsl()`, `hsla()`.
    private static func function(_ name: String, _ arguments: String) -> SVGColor? {
        var scanner = SVGValueScanner(arguments)
        var parts: [(value: Double, isPercent: Bool)] = []
        scanner.skipWhiteSpace()
        while !scanner.isAtEnd {
            guard let v = scanner.number() else { return nil }
            var isPercent = false
            if scanner.consume(UInt8(ascii: "%")) {
                isPercent = true
            } else if name.hasPrefix("hsl"), parts.isEmpty {
                let unit = scanner.letters()
                guard unit.isEmpty || unit == "deg" else { return nil }
            }
            parts.append((v, isPercent))
            scanner.skipWhiteSpace()
            if !scanner.consume(UInt8(ascii: ",")) { _ = scanner.consume(UInt8(ascii: "/")) }
            scanner.skipWhiteSpace()
        }
        guard parts.count == 3 || parts.count == 4 else { return nil }
        func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }
        let alpha = parts.count == 4 ? clamp(parts[3].isPercent ? parts[3].value / 100 : parts[3].value) : 1
        switch name {
        case "rgb", "rgba":
            let c = parts.prefix(3).map { clamp($0.isPercent ? $0.value / 100 : ($0.value / 255)) }
            return SVGColor(red: c[0], green: c[1], blue: c[2], alpha: alpha)
        case "hsl", "hsla":
            guard parts[1].isPercent, parts[2].isPercent else { return nil }
            let h = (parts[0].value.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 360
            let s = clamp(parts[1].value / 100), l = clamp(parts[2].value / 100)
            let q = l < 0.5 ? l * (1 + s) : l + s - l * s
            let p = 2 * l - q
            func hue(_ t0: Double) -> Double {
                var t = t0
                if t < 0 { t += 1 }
                if t > 1 { t -= 1 }
                if t < 1.0 / 6 { return p + (q - p) * 6 * t }
                if t < 0.5 { return q }
                if t < 2.0 / 3 { return p + (q - p) * (2.0 / 3 - t) * 6 }
                return p
            }
            return SVGColor(red: hue(h + 1.0 / 3), green: hue(h), blue: hue(h - 1.0 / 3), alpha: alpha)
        default:
            return nil
        }
    }
}
