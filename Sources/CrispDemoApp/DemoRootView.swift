import CrispUI
import CrispWidgets
import Foundation

/// The demo's content below the status bar: the signal graph, with the help overlay on top.
public final class DemoRootView: View {
    /// The signal graph, filling the view.
    public let graph = SignalGraphView()
    /// The shortcut overlay, filling the view when shown.
    public let helpOverlay = HelpOverlayView()

    /// Creates the root view.
    public init() {
        super.init()
        addSubview(graph)
        addSubview(helpOverlay)
    }

    public override func layoutSubviews() {
        graph.frame = bounds
        helpOverlay.frame = bounds
    }
}
