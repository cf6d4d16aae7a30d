import CrispGraphics
import CrispUI
import Foundation

/// A colour sample of one theme: a rounded square in the theme's bar gradient with a dot of its
/// glow; the current theme's swatch wears a white ring. A tap asks for the theme.
public final class ThemeSwatchView: View {
    /// The theme shown.
    public let swatchTheme: Theme
    /// Whether this is the current theme (the ring shows).
    public var isSelected = false { didSet { if isSelected != oldValue { setNeedsDisplay() } } }
    /// Called when the swatch is tapped.
    public var onSelect: ((Theme) -> Void)?

    /// Creates a swatch of `theme`.
    public init(theme: Theme) {
        swatchTheme = theme
        super.init()
        addGestureRecognizer(TapGestureRecognizer { [unowned self] _ in self.onSelect?(self.swatchTheme) })
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let side = min(bounds.width, bounds.height)
        let outer = CGRect(x: bounds.midX - side / 2, y: bounds.midY - side / 2, width: side, height: side)
        let ring = max(side * 0.06, 1)
        let tile = outer.insetBy(dx: ring * 2, dy: ring * 2)
        let corner = tile.width * 0.22
        ctx.saveGState()
        ctx.addPath(CGPath(roundedRect: tile, cornerWidth: corner, cornerHeight: corner))
        ctx.clip()
        ctx.drawLinearGradient(.between(swatchTheme.barTop, swatchTheme.barBottom), start: CGPoint(x: 0, y: tile.minY),
                               end: CGPoint(x: 0, y: tile.maxY), options: [])
        let c = CGPoint(x: tile.midX, y: tile.midY)
        let glow = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                              colors: [swatchTheme.glow, swatchTheme.glow.copy(alpha: 0)!], locations: [0.3, 1])!
        ctx.drawRadialGradient(glow, startCenter: c, startRadius: 0, endCenter: c, endRadius: tile.width * 0.32, options: [])
        ctx.restoreGState()
        if isSelected {
            let r = outer.insetBy(dx: ring / 2, dy: ring / 2)
            ctx.addPath(CGPath(roundedRect: r, cornerWidth: corner + ring * 1.5, cornerHeight: corner + ring * 1.5))
            ctx.setStrokeColor(.white)
            ctx.setLineWidth(ring)
            ctx.strokePath()
        }
    }
}
