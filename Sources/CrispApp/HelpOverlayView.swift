import CrispGraphics
import CrispUI
import Foundation

/// The `?` overlay: the keyboard shortcuts on a dark rounded panel over a dimmed screen.
public final class HelpOverlayView: View {
    /// One line of the overlay: the keys, and what they do as an English localization key.
    public struct Shortcut: Equatable, Sendable {
        /// The keys, like "1–5" (shown as they are, in bold).
        public var keys: String
        /// What they do, in English; the localization key of the text shown.
        public var action: String

        /// Creates a line.
        public init(keys: String, action: String) {
            self.keys = keys
            self.action = action
        }
    }

    /// The keys of each shortcut line, in bold.
    public private(set) var keyLabels: [Label] = []
    /// What each shortcut does, localized by its English text.
    public private(set) var lineLabels: [Label] = []

    /// The app's shortcuts, which work on every screen.
    public static let appShortcuts: [Shortcut] = [
        Shortcut(keys: "1–5", action: "Device: iPhone 3GS, 4, 5, iPad, iPad retina"),
        Shortcut(keys: "c", action: "Toggle the in-call status bar"),
        Shortcut(keys: "s", action: "Toggle 1× / 2×"),
        Shortcut(keys: "l", action: "Next language"),
        Shortcut(keys: "t", action: "Next theme"),
        Shortcut(keys: "Tab", action: "Next screen (with Shift: previous)"),
        Shortcut(keys: "v", action: "Loupe (while held): bitmap / vector"),
        Shortcut(keys: "+, –", action: "Loupe zoom in / out"),
        Shortcut(keys: "f", action: "Frame-time overlay"),
        Shortcut(keys: "d", action: "Next debug overlay"),
        Shortcut(keys: "Ctrl+Left", action: "Rotate left (Ctrl+Right: right)"),
        Shortcut(keys: "Ctrl+T", action: "Slow animations (10×)"),
        Shortcut(keys: "Ctrl+S, R", action: "Screenshot / recording"),
        Shortcut(keys: "?", action: "Show or hide this help"),
        Shortcut(keys: "q, Esc", action: "Quit"),
    ]

    /// The lines shown: the app's shortcuts, then the current screen's. Setting them makes new
    /// labels (the app localizes them again).
    public var shortcuts: [Shortcut] { didSet { if shortcuts != oldValue { makeLabels() } } }

    static let maximumLineHeight: CGFloat = 22
    static let padding: CGFloat = 16
    static let keyColumnWidth: CGFloat = 64

    /// Creates the overlay (hidden), listing `shortcuts`.
    public init(shortcuts: [Shortcut] = HelpOverlayView.appShortcuts) {
        self.shortcuts = shortcuts
        super.init()
        backgroundColor = CGColor(gray: 0, alpha: 0.45)
        isHidden = true
        makeLabels()
    }

    private func makeLabels() {
        for label in keyLabels + lineLabels { label.removeFromSuperview() }
        keyLabels = shortcuts.map { Label(text: $0.keys, fontSize: 14) }
        lineLabels = shortcuts.map { Label(localizationKey: $0.action, fontSize: 14) }
        for label in keyLabels { label.isBold = true }
        for label in lineLabels {
            label.adjustsFontSizeToFitWidth = true
            label.minimumScaleFactor = 0.75
        }
        for label in keyLabels + lineLabels {
            label.textColor = .white
            label.alignment = .natural
            addSubview(label)
        }
        setNeedsLayout()
        setNeedsDisplay()
    }

    /// The height of a line: 22 points, less when the overlay is too short for every line.
    var lineHeight: CGFloat {
        let room = (bounds.height - 2 * HelpOverlayView.padding - 8) / CGFloat(max(lineLabels.count, 1))
        return max(min(HelpOverlayView.maximumLineHeight, room.rounded(.down)), 12)
    }

    /// The panel's rectangle in the overlay's coordinates.
    public var panelRect: CGRect {
        let b = bounds
        let width = min(b.width - 24, 420)
        let height = CGFloat(lineLabels.count) * lineHeight + 2 * HelpOverlayView.padding
        return CGRect(x: (b.midX - width / 2).rounded(), y: (b.midY - height / 2).rounded(), width: width, height: height)
    }

    public override func layoutSubviews() {
        // Right to left the keys are the right column.
        layoutMirroredForDirection {
            let panel = panelRect
            let inner = panel.width - 2 * HelpOverlayView.padding
            for (i, (keys, action)) in zip(keyLabels, lineLabels).enumerated() {
                let y = panel.minY + HelpOverlayView.padding + CGFloat(i) * lineHeight
                keys.frame = CGRect(x: panel.minX + HelpOverlayView.padding, y: y,
                                    width: HelpOverlayView.keyColumnWidth, height: lineHeight)
                action.frame = CGRect(x: keys.frame.maxX, y: y, width: max(inner - HelpOverlayView.keyColumnWidth, 0),
                                      height: lineHeight)
            }
        }
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.setFillColor(gray: 0.1, alpha: 0.9)
        ctx.addPath(CGPath(roundedRect: panelRect, cornerWidth: 12, cornerHeight: 12))
        ctx.fillPath()
    }
}
