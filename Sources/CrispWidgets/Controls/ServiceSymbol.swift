import CrispGraphics
import Foundation

/// The symbols on the bar's switches, drawn into a square: what service a switch controls.
public enum ServiceSymbol: String, CaseIterable, Sendable {
    /// Satellite positioning: a target with cross hairs.
    case gps
    /// The data network: a fan of radio waves.
    case network
    /// Sound: a loudspeaker with two waves.
    case sound

    /// Draws the symbol into `rect` with the context's fill and stroke colours.
    public func draw(in rect: CGRect, context ctx: CGContext) {
        let s = min(rect.width, rect.height)
        let c = CGPoint(x: rect.midX, y: rect.midY)
        ctx.saveGState()
        ctx.setLineCap(.round)
        ctx.setLineWidth(s * 0.1)
        switch self {
        case .gps:
            ctx.strokeEllipse(in: CGRect(x: c.x - s * 0.3, y: c.y - s * 0.3, width: s * 0.6, height: s * 0.6))
            ctx.strokeLineSegments(between: [
                CGPoint(x: c.x, y: c.y - s * 0.48), CGPoint(x: c.x, y: c.y - s * 0.3),
                CGPoint(x: c.x, y: c.y + s * 0.3), CGPoint(x: c.x, y: c.y + s * 0.48),
                CGPoint(x: c.x - s * 0.48, y: c.y), CGPoint(x: c.x - s * 0.3, y: c.y),
                CGPoint(x: c.x + s * 0.3, y: c.y), CGPoint(x: c.x + s * 0.48, y: c.y),
            ])
            ctx.fillEllipse(in: CGRect(x: c.x - s * 0.1, y: c.y - s * 0.1, width: s * 0.2, height: s * 0.2))
        case .network:
            let base = CGPoint(x: c.x, y: c.y + s * 0.34)
            for (i, r) in [s * 0.3, s * 0.56].enumerated() {
                ctx.beginPath()
                ctx.addArc(center: base, radius: r, startAngle: -.pi * 0.78, endAngle: -.pi * 0.22, clockwise: false)
                ctx.setLineWidth(s * (i == 0 ? 0.1 : 0.11))
                ctx.strokePath()
            }
            ctx.fillEllipse(in: CGRect(x: base.x - s * 0.09, y: base.y - s * 0.09, width: s * 0.18, height: s * 0.18))
        case .sound:
            let x0 = c.x - s * 0.42
            ctx.beginPath()
            ctx.addLines(between: [CGPoint(x: x0, y: c.y - s * 0.13), CGPoint(x: x0 + s * 0.16, y: c.y - s * 0.13),
                                   CGPoint(x: x0 + s * 0.38, y: c.y - s * 0.34), CGPoint(x: x0 + s * 0.38, y: c.y + s * 0.34),
                                   CGPoint(x: x0 + s * 0.16, y: c.y + s * 0.13), CGPoint(x: x0, y: c.y + s * 0.13)])
            ctx.closePath()
            ctx.fillPath()
            for r in [s * 0.18, s * 0.34] {
                ctx.beginPath()
                ctx.addArc(center: CGPoint(x: x0 + s * 0.4, y: c.y), radius: r, startAngle: -.pi * 0.3, endAngle: .pi * 0.3, clockwise: false)
                ctx.setLineWidth(s * 0.08)
                ctx.strokePath()
            }
        }
        ctx.restoreGState()
    }
}
