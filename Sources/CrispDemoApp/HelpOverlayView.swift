import CrispGraphics
import CrispUI
import Foundation

/// The `?` overlay: the keyboard shortcuts on a dark rounded panel over a dimmed screen.
public final class HelpOverlayView: View {
    /// The keys of each shortcut line, in bold.
    public let keyLabels: [Label]
    /// What each shortcut does, localized by its English text.
    public let lineLabels: [Label]

    /// The shortcuts, as (keys, what they do); the English actions are localization keys.
    public static let shortcuts: [(keys: String, action: String)] = [
        ("1–5", "Device: iPhone 3GS, 4, 5, iPad, iPad retina"),
        ("c", "Toggle the in-call status bar"),
        ("s", "Toggle 1× / 2×"),
        ("l", "Next language"),
        ("?", "Show or hide this help"),
        ("q, Esc", "Quit"),
    ]

    static let lineHeight: CGFloat = 22
    static let padding: CGFloat = 16
    static let keyColumnWidth: CGFloat = 64

    /// Creates the overlay (hidden).
    public init() {
        keyLabels = HelpOverlayView.shortcuts.map { Label(text: $0.keys, fontSize: 14) }
        lineLabels = HelpOverlayView.shortcuts.map { Label(localizationKey: $0.action, fontSize: 14) }
        super.init()
        backgroundColor = CGColor(gray: 0, alpha: 0.45)
        for label in keyLabels { label.isBold = true }
        for label in lineLabels {
            label.adjustsFontSizeToFitWidth = true
            label.minimumScaleFactor = 0.75
        }
        for label in keyLabels + lineLabels {
            label.textColor = .white
            addSubview(label)
        }
        isHidden = true
    }

    /// The panel's rectangle in the overlay's coordinates.
    public var panelRect: CGRect {
        let b = bounds
        let width = min(b.width - 24, 420)
        let height = CGFloat(lineLabels.count) * HelpOverlayView.lineHeight + 2 * HelpOverlayView.padding
        return CGRect(x: (b.midX - width / 2).rounded(), y: (b.midY - height / 2).rounded(), width: width, height: height)
    }

    public override func layoutSubviews() {
        let panel = panelRect
        let inner = panel.width - 2 * HelpOverlayView.padding
        for (i, (keys, action)) in zip(keyLabels, lineLabels).enumerated() {
            let y = panel.minY + HelpOverlayView.padding + CGFloat(i) * HelpOverlayView.lineHeight
            keys.frame = CGRect(x: panel.minX + HelpOverlayView.padding, y: y,
                                width: HelpOverlayView.keyColumnWidth, height: HelpOverlayView.lineHeight)
            action.frame = CGRect(x: keys.frame.maxX, y: y, width: max(inner - HelpOverlayView.keyColumnWidth, 0),
                                  height: HelpOverlayView.lineHeight)
        }
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.setFillColor(gray: 0.1, alpha: 0.9)
        ctx.addPath(CGPath(roundedRect: panelRect, cornerWidth: 12, cornerHeight: 12))
        ctx.fillPath()
    }
}
