import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// Every demo screen on every preset in landscape, in a call and not (issue 30): the status bar
/// along the long edge, the screen below it and the tab bar at the bottom stay apart, and every
/// view the screen shows lies inside the screen's area (nothing clipped).
@Suite struct LandscapeLayoutTests {
    @Test(arguments: DemoApplication.screens.map(\.name), Device.presets)
    func everyScreenFitsInLandscape(screen: String, device: Device) {
        for inCall in [false, true] {
            let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: inCall, fixedTime: "9:41", screen: screen))
            app.setOrientation(.landscapeLeft, animated: false)
            app.window.layoutIfNeeded()
            let b = app.screen.bounds
            #expect(b.width == device.pointSize.height && b.height == device.pointSize.width)
            let status = app.statusBar.frame, tabs = app.tabBar.convert(app.tabBar.bounds, to: nil)
            let content = app.currentScreen.convert(app.currentScreen.bounds, to: nil)
            #expect(status.width == b.width && status.maxY <= content.minY && content.maxY <= tabs.minY && tabs.maxY == b.maxY)
            var outside: [String] = []
            func visit(_ view: View) {
                for sub in view.subviews where !sub.isHidden && sub.alpha > 0 {
                    let r = sub.convert(sub.bounds, to: nil)
                    if !r.isEmpty, !content.insetBy(dx: -0.5, dy: -0.5).contains(r) {
                        outside.append("\(type(of: sub)) \(sub.accessibilityIdentifier ?? "") \(r)")
                    }
                    if !sub.clipsToBounds { visit(sub) }
                }
            }
            visit(app.currentScreen)
            #expect(outside.isEmpty, "\(screen) \(device.identifier)\(inCall ? " in call" : ""): \(outside.prefix(5))")
        }
    }
}
