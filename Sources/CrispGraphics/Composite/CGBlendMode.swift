/// How a drawing operation's colour combines with what is already in the context,
/// as `CGBlendMode`.
///
/// In the formulas, S and D are the premultiplied source and destination, Sa and Da their
/// alphas. Every mode is bounded by the shape: pixels the shape does not cover are unchanged,
/// and partially covered pixels interpolate between the old value and the blended one.
public enum CGBlendMode: Int32, Sendable, CaseIterable {
    /// Source over: `S + D·(1 − Sa)`. The default.
    case normal = 0
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
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
