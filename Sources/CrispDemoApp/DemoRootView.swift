import CrispUI
import CrispWidgets
import Foundation

/// The demo's content below the status bar: the current screen above the tab bar, with the
/// help overlay over both.
public final class DemoRootView: View {
    /// The tab bar along the bottom.
    public let tabBar: TabBarView
    /// The shortcut overlay, filling the view when shown.
    public let helpOverlay = HelpOverlayView()
    /// The screen shown; setting it swaps the view above the tab bar.
    public var screen: any DemoScreen {
        didSet {
            guard screen !== oldValue else { return }
            oldValue.removeFromSuperview()
            insertSubview(screen, at: 0)
            setNeedsLayout()
        }
    }

    /// Creates the root view with a tab per screen, showing `screen`.
    public init(screens: [any DemoScreen], showing screen: any DemoScreen) {
        tabBar = TabBarView(items: screens.map { TabBarView.Item(name: $0.name, titleKey: $0.titleKey, icon: $0.tabIcon) })
        self.screen = screen
        super.init()
        addSubview(screen)
        addSubview(tabBar)
        addSubview(helpOverlay)
    }

    /// The area above the tab bar, where screens go.
    public var screenFrame: CGRect {
        let b = bounds
        return CGRect(x: b.minX, y: b.minY, width: b.width, height: max(b.height - TabBarView.height, 0))
    }

    public override func layoutSubviews() {
        let b = bounds
        screen.frame = screenFrame
        tabBar.frame = CGRect(x: b.minX, y: screenFrame.maxY, width: b.width, height: min(TabBarView.height, b.height))
        helpOverlay.frame = b
    }
}
