import CrispGraphics
import CrispUI
import Foundation

/// One screen of the demo app, shown between the status bar and the tab bar.
///
/// A screen is a view that lays itself out for any size (every device preset × scale × call bar,
/// and any freely resized window). It names itself, gives its tab a title and an icon, lists the
/// keys it handles for the help overlay, and handles them.
public protocol DemoScreen: View {
    /// The screen's name on the command line (`--screen`), in `screen` status lines and in its
    /// tab's identifier (`tab.<name>`), like `signal`.
    var name: String { get }
    /// The localization key of the screen's title (its tab and the window title).
    var titleKey: String { get }
    /// The tab's icon in a unit square (origin top-left, y down), filled with the non-zero rule.
    var tabIcon: CGPath { get }
    /// The keys this screen handles besides the app's, for the help overlay.
    var shortcuts: [HelpOverlayView.Shortcut] { get }
    /// Handles a key press the app did not use; returns whether the screen used it.
    func handleKey(_ key: KeyPress) -> Bool
}
