import CrispUI
import CrispWidgets
import Foundation

/// An app's content below the status bar: the current screen above the tab bar (no tab bar
/// for an app of one screen), with the help overlay over both.
public final class AppRootView: View {
    /// The tab bar along the bottom (hidden, and given no room, when there is one screen).
    public let tabBar: TabBarView
    /// The shortcut overlay, filling the view when shown.
    public let helpOverlay = HelpOverlayView()
    /// The screen's root view shown; setting it swaps the view above the tab bar.
    public var screen: View {
        didSet {
            guard screen !== oldValue else { return }
            oldValue.removeFromSuperview()
            insertSubview(screen, at: 0)
            setNeedsLayout()
        }
    }

    /// Creates the root view with a tab per declared screen, showing `screen`.
    public init(screens: [AppScreen], showing screen: View) {
        tabBar = TabBarView(items: screens.map { TabBarView.Item(name: $0.name, titleKey: $0.title, icon: $0.tabIcon) })
        tabBar.isHidden = screens.count < 2
        self.screen = screen
        super.init()
        addSubview(screen)
        addSubview(tabBar)
        addSubview(helpOverlay)
    }

    /// The area above the tab bar (all of the view without one), where screens go.
    public var screenFrame: CGRect {
        let b = bounds
        let bar = tabBar.isHidden ? 0 : TabBarView.height
        return CGRect(x: b.minX, y: b.minY, width: b.width, height: max(b.height - bar, 0))
    }

    public override func layoutSubviews() {
        let b = bounds
        screen.frame = screenFrame
        tabBar.frame = CGRect(x: b.minX, y: screenFrame.maxY, width: b.width, height: min(TabBarView.height, b.height))
        helpOverlay.frame = b
    }
}
