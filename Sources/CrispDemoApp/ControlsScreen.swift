import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The controls screen (seed 001, the essay on vector-drawn iPhone controls): the bar of
/// toggles and switches, lossless zoom, the fine-grained battery, the compass-inaccuracy
/// indicator, a bitmap set into vectors, the essay's check box beside an iOS-style switch, and
/// the theme swatches. `ControlsLayout` places them for any size.
///
/// Identifiers (for `layout` and `state` status lines): `toggle.1`…`toggle.4`, `switch.gps`,
/// `switch.network`, `switch.sound`, `zoom`, `battery`, `compass`, `bitmap`, `bitmapbutton`,
/// `bubble.glow`, `checkbox`, `uiswitch`, `theme.blue`, `theme.red`, `theme.green`, `theme.gold`.
public final class ControlsScreen: View, DemoScreen, ThemeFollowing {
    /// The essay's status-bar fragment.
    public let bar = ControlBarView()
    /// One toggle and one switch magnified.
    public let zoomPanel = ZoomPanelView()
    /// The fine-grained battery, 80 % at start.
    public let battery = BatteryGaugeView(level: 80)
    /// The compass inaccuracy, 12° at start.
    public let compass = CompassView(inaccuracy: 12)
    /// The bitmap by itself.
    public let bitmap: BitmapView
    /// The bitmap in a vector button.
    public let bitmapButton: BitmapButtonView
    /// The bitmap in a vector glow bubble.
    public let glowBubble: GlowBubbleView
    /// The essay's check box, checked at start.
    public let checkBox = CheckBox()
    /// The iOS-style switch, off at start.
    public let uiSwitch = SwitchView(isOn: false)
    /// One swatch per theme, in `Theme.all` order.
    public let swatches = Theme.all.map { ThemeSwatchView(theme: $0) }
    /// The section captions: zoom, battery, compass, bitmap, check box, theme.
    public let captions = ControlsScreen.captionKeys.map { Label(localizationKey: $0, fontSize: 11) }
    /// Why the picture could not be loaded, or nil when it was.
    public let imageError: ResourceImage.LoadError?
    /// Called when a swatch asks for its theme.
    public var onThemeSelect: ((Theme) -> Void)?
    /// The colours; marks the current theme's swatch.
    public var theme: Theme = .blue { didSet { markCurrentSwatch() } }

    /// The picture set into the button and the bubble.
    public static let imageName = "photo.png"
    /// The captions' localization keys.
    static let captionKeys = ["Lossless zoom", "Battery", "Compass inaccuracy", "Bitmap in vectors", "Check box, switch", "Theme"]

    public static let name = "controls"
    public static let titleKey = "Controls"
    public static let shortcuts = [
        HelpOverlayView.Shortcut(keys: "e", action: "Errors on GPS and network on or off"),
        HelpOverlayView.Shortcut(keys: "b", action: "Run the battery down and up again"),
    ]

    /// Three slider tracks with their knobs.
    public static var tabIcon: CGPath {
        let p = CGMutablePath()
        for (i, knob) in [0.7, 0.3, 0.55].enumerated() {
            let y = 0.18 + CGFloat(i) * 0.32
            p.addRect(CGRect(x: 0.04, y: y - 0.045, width: 0.92, height: 0.09))
            p.addEllipse(in: CGRect(x: knob - 0.13, y: y - 0.13, width: 0.26, height: 0.26))
        }
        return p
    }

    /// Creates the screen, loading the picture from `Resources/Images/photo.png` (or using
    /// `image` when given, for tests).
    public init(image: Result<CGImage, ResourceImage.LoadError>? = nil) {
        let loaded = image ?? Result { () throws(ResourceImage.LoadError) in try ResourceImage.load(ControlsScreen.imageName) }
        let picture = try? loaded.get()
        if case let .failure(error) = loaded { imageError = error } else { imageError = nil }
        bitmap = BitmapView(image: picture)
        bitmapButton = BitmapButtonView(image: picture)
        glowBubble = GlowBubbleView(image: picture)
        super.init()
        backgroundColor = CGColor(gray: 0.07, alpha: 1)
        for caption in captions {
            caption.textColor = CGColor(gray: 0.62, alpha: 1)
            caption.isBold = true
            caption.adjustsFontSizeToFitWidth = true
            caption.minimumScaleFactor = 0.7
            caption.alignment = .natural
        }
        let views: [View] = [bar, zoomPanel, battery, compass, bitmap, bitmapButton, glowBubble, checkBox, uiSwitch] + swatches + captions
        for v in views { addSubview(v) }
        for s in swatches {
            s.onSelect = { [unowned self] theme in self.onThemeSelect?(theme) }
            s.accessibilityIdentifier = "theme.\(s.swatchTheme.name)"
        }
        let identified: [(View, String)] = [(zoomPanel.slider, "zoom"), (battery, "battery"), (compass, "compass"), (bitmap, "bitmap"),
                                            (bitmapButton, "bitmapbutton"), (glowBubble, "bubble.glow"), (checkBox, "checkbox"),
                                            (uiSwitch, "uiswitch")]
        for (view, identifier) in identified { view.accessibilityIdentifier = identifier }
        markCurrentSwatch()
        for view in cachedControls { view.layer.cachesContents = true }
    }

    /// The views whose looks the window keeps as cached contents (`layer.cachesContents`), and
    /// the captions. A repaint passing over them — a full frame, a neighbour's animation — copies
    /// their pixels; a change of their own (`setNeedsDisplay`) draws them again. Not cached: the
    /// bar (its gradient is one colour per row, as cheap to draw as to copy) and the views that
    /// draw beyond their bounds, which a cache (the bounds in pixels) would cut: the toggles'
    /// glow, the switches' error crosses, and the essay's check box, whose border is stroked on
    /// its bounds. (The GPS switch also pulses at 60 fps: it would be drawn into its cache every
    /// frame.)
    var cachedControls: [View] {
        [zoomPanel, battery, compass, bitmap, bitmapButton, glowBubble, uiSwitch] + swatches + captions
    }

    /// Whether the themed controls keep cached contents (the others always do). On by default;
    /// the app turns it off while the theme cross-fades, when the look of every control that
    /// shows the theme changes each frame and drawing it into its cache first would only add a
    /// copy (those that show none of it, `showsTheme`, keep theirs).
    public var cachesThemedContents = true {
        didSet {
            guard cachesThemedContents != oldValue else { return }
            for view in cachedControls {
                guard let follower = view as? ThemeFollowing else { continue }
                view.layer.cachesContents = cachesThemedContents || !follower.showsTheme
            }
        }
    }

    private func markCurrentSwatch() {
        for s in swatches { s.isSelected = s.swatchTheme.name == theme.name }
    }

    /// The layout for the current bounds.
    public var layout: ControlsLayout { ControlsLayout.fitting(bounds.size) }

    public override func layoutSubviews() {
        // Right to left (Arabic) the design mirrors: the zoom panel on the right, the swatches
        // from the right. The compass, battery and check box keep their own drawing.
        layoutMirroredForDirection {
            let l = layout
            bar.frame = l.bar
            zoomPanel.frame = l.zoomPanel
            zoomPanel.baseHeight = l.bar.height
            battery.frame = l.battery
            compass.frame = l.compass
            bitmap.frame = l.bitmap
            bitmapButton.frame = l.bitmapButton
            glowBubble.frame = l.glowBubble
            checkBox.frame = l.checkBox
            uiSwitch.frame = l.uiSwitch
            for (s, r) in zip(swatches, l.swatches) { s.frame = r }
            for (c, r) in zip(captions, l.captions) {
                c.fontSize = l.captionFontSize
                c.frame = r
            }
        }
    }

    /// Draws the themed controls straight to the screen, not through their cached contents,
    /// while the colours are in between themes.
    public func themeColoursWillChange(to colours: Theme, isTransition: Bool) {
        cachesThemedContents = !isTransition
    }

    public func handleKey(_ key: KeyPress) -> Bool {
        switch key.characters {
        case "e":
            let error = !bar.gpsSwitch.hasError
            bar.gpsSwitch.hasError = error
            bar.networkSwitch.hasError = error
            return true
        case "b":
            battery.runDischargeAndCharge()
            return true
        default:
            return false
        }
    }
}
