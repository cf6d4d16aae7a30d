import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// One screen of an app: what its tab shows and how to make its root view (as a
/// `UITabBarItem` with the view controller a `UITabBarController` shows for it).
///
/// The root view lays itself out for any size: every device preset at 1× and 2×, under the
/// in-call status bar, and in a freely resized window. It may adopt `AppScreenView` to handle
/// keys, to finish work before a `--snapshot`, or to follow theme cross-fades.
public struct AppScreen {
    /// The screen's name on the command line (`--screen`), in `screen` status lines and in its
    /// tab's identifier (`tab.<name>`), like `signal`.
    public var name: String
    /// The localization key of the screen's title (its tab and the window title); without an
    /// entry in the strings tables the key is the title.
    public var title: String
    /// The tab's icon in a unit square (origin top-left, y down), filled with the non-zero rule.
    public var tabIcon: CGPath
    /// The keys the screen handles besides the app's, listed in the `?` help overlay.
    public var shortcuts: [HelpOverlayView.Shortcut]
    /// Makes the screen's root view; called once for each app launched (the controller gives
    /// the view access to the app: its event log, theme, status bar, configuration).
    public var makeView: (AppController) -> View

    /// Declares a screen.
    ///
    /// - Parameters:
    ///   - name: the name `--screen` takes (letters, digits, `-`; no spaces).
    ///   - title: the title's localization key (default: `name`).
    ///   - tabIcon: the tab's icon in a unit square (default: a filled circle).
    ///   - shortcuts: the screen's own keys for the help overlay.
    ///   - makeView: makes the root view.
    public init(name: String, title: String? = nil, tabIcon: CGPath? = nil, shortcuts: [HelpOverlayView.Shortcut] = [],
                makeView: @escaping (AppController) -> View) {
        self.name = name
        self.title = title ?? name
        self.tabIcon = tabIcon ?? CGPath(ellipseIn: CGRect(x: 0.15, y: 0.15, width: 0.7, height: 0.7), transform: nil)
        self.shortcuts = shortcuts
        self.makeView = makeView
    }
}

/// What a screen's root view may do besides drawing itself: handle keys, finish its work
/// before a snapshot, follow theme cross-fades. Every requirement has a default that does
/// nothing, so a view adopts only what it needs.
public protocol AppScreenView: View {
    /// Handles a key press the app did not use (the app's own keys are listed in
    /// `HelpOverlayView.appShortcuts`); returns whether the view used it.
    func handleKey(_ key: KeyPress) -> Bool
    /// Called before a headless `--snapshot` of the screen is rendered: finish anything the
    /// picture must not show half done (a computation, a download).
    func prepareForSnapshot()
    /// Called before every view of the app is given `colours`; `isTransition` is true while
    /// they are in between two themes (a cross-fade), false for the theme itself.
    func themeColoursWillChange(to colours: Theme, isTransition: Bool)
}

extension AppScreenView {
    /// Uses no key.
    public func handleKey(_ key: KeyPress) -> Bool { false }
    /// Does nothing.
    public func prepareForSnapshot() {}
    /// Does nothing.
    public func themeColoursWillChange(to colours: Theme, isTransition: Bool) {}
}
