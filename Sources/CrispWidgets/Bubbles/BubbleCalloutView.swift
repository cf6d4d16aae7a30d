import CrispGraphics
import CrispUI
import Foundation

/// The little label a tapped bubble shows: its value as a locale-formatted percent ("42%",
/// "42 %" in German and Spanish) on a dark rounded plate with a light border and a soft shadow
/// — all Core Animation layer properties (corner radius, border, shadow with a path).
public final class BubbleCalloutView: View {
    /// The text shown.
    public let label = Label(text: "", fontSize: 15)

    /// Creates a hidden callout.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        backgroundColor = CGColor(gray: 0.12, alpha: 0.92)
        layer.cornerRadius = 8
        layer.borderWidth = 1
        layer.borderColor = CGColor(gray: 1, alpha: 0.7)
        layer.shadowOpacity = 0.4
        layer.shadowOffset = CGSize(width: 0, height: 2)
        layer.shadowRadius = 3
        isUserInteractionEnabled = false
        isHidden = true
        label.isBold = true
        label.textColor = .white
        label.alignment = .center
        addSubview(label)
    }

    /// `value` (0…1) as a percent with no decimals in `locale`'s way ("42%", "42 %").
    public static func text(for value: CGFloat, locale: Locale) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .percent
        formatter.maximumFractionDigits = 0
        return formatter.string(from: NSNumber(value: Double(value))) ?? "\(Int((value * 100).rounded()))%"
    }

    /// Shows `text` centred above `anchor` (the top centre of the bubble, superview
    /// coordinates), kept inside `area` (superview coordinates).
    public func show(_ text: String, above anchor: CGPoint, in area: CGRect) {
        label.text = text
        let textSize = label.sizeThatFits(CGSize(width: 200, height: 40))
        let size = CGSize(width: (textSize.width + 20).rounded(.up), height: (textSize.height + 10).rounded(.up))
        var origin = CGPoint(x: (anchor.x - size.width / 2).rounded(), y: (anchor.y - size.height - 6).rounded())
        origin.x = min(max(origin.x, area.minX + 4), area.maxX - size.width - 4)
        origin.y = min(max(origin.y, area.minY + 4), area.maxY - size.height - 4)
        frame = CGRect(origin: origin, size: size)
        isHidden = false
    }

    public override func layoutSubviews() {
        label.frame = bounds
        layer.shadowPath = CGPath(roundedRect: bounds, cornerWidth: layer.cornerRadius, cornerHeight: layer.cornerRadius, transform: nil)
    }
}
