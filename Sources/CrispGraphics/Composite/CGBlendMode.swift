/// How a drawing operation's colour combines with what is already in the context,
/// as `CGBlendMode`.
///
/// In the formulas, S and D are the premultiplied source and destination, Sa and Da their
/// alphas. Every mode is bounded by the shape: pixels the shape does not cover are unchanged,
/// and partially covered pixels interpolate between the old value and the blended one.
public enum CGBlendMode: Int32, Sendable, CaseIterable {
    /// Source over: `S + D·(1 − Sa)`. The default.
    case normal = 0
    /// Multiply: the product of source and destination colours (darkens).
    case multiply
    /// Screen: the complement of the product of the complements (lightens).
    case screen
    /// Overlay: multiply or screen, depending on the destination colour.
    case overlay
    /// Darken: the darker of source and destination, per component.
    case darken
    /// Lighten: the lighter of source and destination, per component.
    case lighten
    /// Colour dodge: brightens the destination to reflect the source.
    case colorDodge
    /// Colour burn: darkens the destination to reflect the source.
    case colorBurn
    /// Soft light: darkens or lightens softly, depending on the source colour.
    case softLight
    /// Hard light: multiply or screen, depending on the source colour.
    case hardLight
    /// Difference: the absolute difference of source and destination colours.
    case difference
    /// Exclusion: like difference, with lower contrast.
    case exclusion
    /// Hue: the source's hue with the destination's saturation and luminosity.
    case hue
    /// Saturation: the source's saturation with the destination's hue and luminosity.
    case saturation
    /// Colour: the source's hue and saturation with the destination's luminosity.
    case color
    /// Luminosity: the source's luminosity with the destination's hue and saturation.
    case luminosity
    /// `R = 0`.
    case clear
    /// `R = S`.
    case copy
    /// `R = S·Da`.
    case sourceIn
    /// `R = S·(1 − Da)`.
    case sourceOut
    /// `R = S·Da + D·(1 − Sa)`.
    case sourceAtop
    /// `R = S·(1 − Da) + D`.
    case destinationOver
    /// `R = D·Sa`.
    case destinationIn
    /// `R = D·(1 − Sa)`.
    case destinationOut
    /// `R = S·(1 − Da) + D·Sa`.
    case destinationAtop
    /// `R = S·(1 − Da) + D·(1 − Sa)`.
    case xor
    /// `R = max(0, 1 − ((1 − D) + (1 − S)))`, per channel on premultiplied values.
    case plusDarker
    /// `R = min(1, S + D)`.
    case plusLighter
}
