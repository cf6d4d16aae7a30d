import CrispGraphics
import CrispUI
import Foundation

/// The colours of one side in a game — the essay's "four parties" — that the vector controls
/// take at run time: the bar's gradient, the glow of active toggles, the tracks of switches that
/// are on, and the tint of the selected tab.
///
/// Switching themes is a matter of drawing again with other colours: no bitmap per colour.
public struct Theme: Equatable, Sendable {
    /// A short lower-case name for command lines and status lines, like `blue`.
    public var name: String
    /// The control bar's gradient at its top edge.
    public var barTop: CGColor
    /// The control bar's gradient at its bottom edge.
    public var barBottom: CGColor
    /// The soft light around active toggles and their icons.
    public var glow: CGColor
    /// Tracks of switches that are on, the slider's filled part.
    public var accent: CGColor
    /// The selected tab's icon and title.
    public var tint: CGColor

    /// Creates a theme.
    public init(name: String, barTop: CGColor, barBottom: CGColor, glow: CGColor, accent: CGColor, tint: CGColor) {
        self.name = name
        self.barTop = barTop
        self.barBottom = barBottom
        self.glow = glow
        self.accent = accent
        self.tint = tint
    }

    /// Deep blue with a cyan glow (the default).
    public static let blue = Theme(
        name: "blue",
        barTop: CGColor(red: 0.22, green: 0.36, blue: 0.62, alpha: 1),
        barBottom: CGColor(red: 0.04, green: 0.09, blue: 0.22, alpha: 1),
        glow: CGColor(red: 0.45, green: 0.85, blue: 1.00, alpha: 1),
        accent: CGColor(red: 0.16, green: 0.52, blue: 0.95, alpha: 1),
        tint: CGColor(red: 0.35, green: 0.68, blue: 1.00, alpha: 1))

    /// Dark red with an orange glow.
    public static let red = Theme(
        name: "red",
        barTop: CGColor(red: 0.62, green: 0.18, blue: 0.16, alpha: 1),
        barBottom: CGColor(red: 0.22, green: 0.03, blue: 0.03, alpha: 1),
        glow: CGColor(red: 1.00, green: 0.62, blue: 0.35, alpha: 1),
        accent: CGColor(red: 0.88, green: 0.22, blue: 0.18, alpha: 1),
        tint: CGColor(red: 1.00, green: 0.42, blue: 0.35, alpha: 1))

    /// Forest green with a lime glow.
    public static let green = Theme(
        name: "green",
        barTop: CGColor(red: 0.20, green: 0.50, blue: 0.24, alpha: 1),
        barBottom: CGColor(red: 0.03, green: 0.17, blue: 0.06, alpha: 1),
        glow: CGColor(red: 0.62, green: 1.00, blue: 0.45, alpha: 1),
        accent: CGColor(red: 0.22, green: 0.72, blue: 0.30, alpha: 1),
        tint: CGColor(red: 0.42, green: 0.90, blue: 0.40, alpha: 1))

    /// Bronze and gold with a warm yellow glow.
    public static let gold = Theme(
        name: "gold",
        barTop: CGColor(red: 0.66, green: 0.50, blue: 0.18, alpha: 1),
        barBottom: CGColor(red: 0.25, green: 0.16, blue: 0.03, alpha: 1),
        glow: CGColor(red: 1.00, green: 0.88, blue: 0.40, alpha: 1),
        accent: CGColor(red: 0.90, green: 0.66, blue: 0.12, alpha: 1),
        tint: CGColor(red: 1.00, green: 0.80, blue: 0.25, alpha: 1))

    /// Every theme, in the order the `t` key cycles through them.
    public static let all: [Theme] = [.blue, .red, .green, .gold]

    /// The theme called `name`, or nil.
    public static func named(_ name: String) -> Theme? { all.first { $0.name == name.lowercased() } }

    /// The theme after this one in `all`, wrapping around.
    public var next: Theme {
        let i = Theme.all.firstIndex { $0.name == name } ?? -1
        return Theme.all[(i + 1) % Theme.all.count]
    }
}

/// A view that draws with a theme's colours; `View.applyTheme(_:)` hands it the theme.
public protocol ThemeFollowing: AnyObject {
    /// The colours to draw with; setting it repaints what of the view shows them.
    var theme: Theme { get set }
    /// Whether the view's look shows the theme's colours now. A view that shows none of them
    /// (a toggle that is off) is not repainted when the theme changes, and keeps its cached
    /// contents through a cross-fade.
    var showsTheme: Bool { get }
}

extension ThemeFollowing {
    /// Shows the theme: most themed views always do.
    public var showsTheme: Bool { true }
}

extension View {
    /// Gives `theme` to this view and every view below it that follows themes.
    public func applyTheme(_ theme: Theme) {
        if let follower = self as? ThemeFollowing, follower.theme != theme { follower.theme = theme }
        for sub in subviews { sub.applyTheme(theme) }
    }
}

extension Theme: Interpolatable {
    /// Every colour moved `fraction` of the way to `other`'s (premultiplied sRGB, as
    /// `CGColor`'s interpolation); the name is `other`'s, as a cross-fade is on its way there.
    public func interpolated(to other: Theme, fraction: CGFloat) -> Theme {
        Theme(name: other.name,
              barTop: barTop.interpolated(to: other.barTop, fraction: fraction),
              barBottom: barBottom.interpolated(to: other.barBottom, fraction: fraction),
              glow: glow.interpolated(to: other.glow, fraction: fraction),
              accent: accent.interpolated(to: other.accent, fraction: fraction),
              tint: tint.interpolated(to: other.tint, fraction: fraction))
    }
}
