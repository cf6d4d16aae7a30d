import CICU

/// How a character stands in vertical text, by Unicode's Vertical_Orientation property
/// (UAX #50, from the system's ICU): CSS's `text-orientation: mixed` sets the upright ones
/// upright and turns the rest 90° clockwise with the line.
public enum VerticalOrientation: Int, Sendable {
    /// Turned with the line (Latin, Arabic, most symbols): `R`.
    case rotated
    /// Turned, unless the font has a vertical form (some brackets and dashes): `Tr`.
    case transformedOrRotated
    /// Upright, in the font's vertical form where it has one (the ideographic comma and full
    /// stop, small kana): `Tu`.
    case transformedOrUpright
    /// Upright (Han, kana, Hangul, fullwidth forms): `U`.
    case upright

    /// Whether the character stands upright in `text-orientation: mixed` (U and Tu).
    public var isUpright: Bool { self == .upright || self == .transformedOrUpright }
}

extension Unicode.Scalar {
    /// The character's Unicode Vertical_Orientation (UAX #50).
    public var verticalOrientation: VerticalOrientation {
        VerticalOrientation(rawValue: Int(crisp_icu_vertical_orientation(value))) ?? .rotated
    }
}
