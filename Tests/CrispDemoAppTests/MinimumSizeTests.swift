import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The window's minimum size (`DemoApplication.minimumScreenSize`, the WM size hint) in a call, on every
/// screen: the status bar, the screen and the tab bar stay apart and whole.
@Suite struct MinimumSizeTests {
    func app(screen: String, scale: CGFloat) -> AppController {
        let size = DemoApplication.minimumScreenSize
        let device = Device.custom(pixelWidth: Int(size.width * scale), pixelHeight: Int(size.height * scale), scale: scale)
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: true, fixedTime: "9:41", screen: screen))
        app.window.layoutIfNeeded()
        return app
    }

    @Test(arguments: DemoApplication.screens.map(\.name), [1, 2] as [CGFloat])
    func barsAndScreenStayApart(screen: String, scale: CGFloat) {
        let app = app(screen: screen, scale: scale)
        let status = app.statusBar.frame, tabs = app.tabBar.convert(app.tabBar.bounds, to: nil)
        let content = app.currentScreen.convert(app.currentScreen.bounds, to: nil)
        #expect(status.maxY <= content.minY && content.maxY <= tabs.minY && tabs.maxY <= app.screen.bounds.maxY)
        #expect(content.height >= 200, "\(content)")
        for label in app.tabBar.titleLabels { #expect(!label.fittedLine().text.hasSuffix("…"), "\(label.text)") }
    }

    @Test func theSignalGraphKeepsAPlot() {
        let app = app(screen: "signal", scale: 1)
        let graph = app.signalScreen.graph
        #expect(graph.plot.frame.width > 150 && graph.plot.frame.height > 150, "\(graph.plot.frame)")
        #expect(graph.bounds.contains(graph.leftAxisLabel.frame) && graph.bounds.contains(graph.bottomAxisLabel.frame))
        #expect(graph.leftAxisLabel.frame.maxX <= graph.leftAxis.frame.minX)
    }

    @Test func theHelpFitsWithEveryLine() {
        let app = app(screen: "controls", scale: 1)
        app.handleKey(KeyPress(characters: "?"))
        app.window.layoutIfNeeded()
        let help = app.helpOverlay
        #expect(help.bounds.contains(help.panelRect))
        #expect(help.lineLabels.count == HelpOverlayView.appShortcuts.count + app.controlsScreen.shortcuts.count)
        for label in help.lineLabels { #expect(help.panelRect.contains(label.frame), "\(label.text)") }
    }
}
