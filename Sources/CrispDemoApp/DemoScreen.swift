import CrispApp
import CrispGraphics
import CrispUI
import Foundation

/// One screen of the demo app, shown between the status bar and the tab bar: an
/// `AppScreenView` that also declares its name, title, tab icon and keys as static members, so
/// its `AppScreen` declaration (`AppScreen(_:make:)`) exists before the view does.
public protocol DemoScreen: AppScreenView {
    /// The screen's name on the command line (`--screen`), in `screen` status lines and in its
    /// tab's identifier (`tab.<name>`), like `signal`.
    static var name: String { get }
    /// The localization key of the screen's title (its tab and the window title).
    static var titleKey: String { get }
    /// The tab's icon in a unit square (origin top-left, y down), filled with the non-zero rule.
    static var tabIcon: CGPath { get }
    /// The keys this screen handles besides the app's, for the help overlay.
    static var shortcuts: [HelpOverlayView.Shortcut] { get }
}

extension DemoScreen {
    /// The type's `name`.
    public var name: String { Self.name }
    /// The type's `titleKey`.
    public var titleKey: String { Self.titleKey }
    /// The type's `tabIcon`.
    public var tabIcon: CGPath { Self.tabIcon }
    /// The type's `shortcuts`.
    public var shortcuts: [HelpOverlayView.Shortcut] { Self.shortcuts }
}

extension AppScreen {
    /// The declaration of the demo screen `type`, its view made by `make`.
    public init<S: DemoScreen>(_ type: S.Type, make: @escaping (AppController) -> S) {
        self.init(name: S.name, title: S.titleKey, tabIcon: S.tabIcon, shortcuts: S.shortcuts) { make($0) }
    }
}
