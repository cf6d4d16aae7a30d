import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// One thing of the demo an app drawn in bitmaps would ship as images: a screen's background or
/// a control, in each of its states, at the size it has on each device.
///
/// The report finds out by itself whether a state shows text (its pictures differ between
/// languages) and whether it recolours (they differ between themes), so an item only says what
/// it is, how big it is, how to make a view of it and which compiled code draws it.
public struct AssetItem: @unchecked Sendable {
    /// What a view is made for: one state of the item at a size, in a theme and a language.
    public struct Setting {
        /// The state's name ("" for an item with one state).
        public var state: String
        /// The view's size in points.
        public var size: CGSize
        /// The theme the view draws in.
        public var theme: Theme
    }

    /// The item's name in the report and in its files' names, like `signal.background`.
    public var name: String
    /// The states that look different, like `on` and `off` (one "" for a single look).
    public var states: [String]
    /// The item's size in points on `device`, or nil when the item does not appear there.
    public var size: (Device) -> CGSize?
    /// Makes a view showing `setting` (the report sets its frame, theme and language).
    public var makeView: (Setting) -> View
    /// The mangled-name prefixes of the Swift code that draws the item (see `SymbolSizes`).
    public var codePrefixes: [String]

    /// Creates an item.
    public init(name: String, states: [String] = [""], size: @escaping (Device) -> CGSize?, codePrefixes: [String],
                makeView: @escaping (Setting) -> View) {
        precondition(!states.isEmpty, "an asset item needs at least one state")
        self.name = name
        self.states = states
        self.size = size
        self.codePrefixes = codePrefixes
        self.makeView = makeView
    }

    /// Renders `state` at `device`'s size and scale in `theme` and `language` into an image with
    /// a transparent background, as an app's image asset; nil when the item does not appear on
    /// `device` or has no pixels there.
    public func render(state: String, device: Device, theme: Theme, localization: Localization) -> CGImage? {
        guard let size = size(device), size.width > 0, size.height > 0 else { return nil }
        let view = makeView(Setting(state: state, size: size, theme: theme))
        view.frame = CGRect(origin: .zero, size: size)
        // Outside a window a view runs left to right; in a right-to-left language it is drawn
        // as the app shows it, mirrored.
        if localization.layoutDirection == .rightToLeft { view.semanticContentAttribute = .forceRightToLeft }
        view.applyTheme(theme)
        view.applyLocalization(localization)
        view.layoutIfNeeded()
        UIGraphicsBeginImageContextWithOptions(size, false, device.scale)
        defer { UIGraphicsEndImageContext() }
        guard let context = UIGraphicsGetCurrentContext() else { return nil }
        view.layer.render(in: context)
        return UIGraphicsGetImageFromCurrentImageContext()?.cgImage
    }
}
