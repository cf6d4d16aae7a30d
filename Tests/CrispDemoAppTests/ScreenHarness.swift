import CrispApp
import CrispDemoApp
import CrispUI
import Foundation

/// The status and event lines an app wrote, in order.
final class StatusLines { var items: [String] = [] }

/// The app on `screen`, its status and event lines collected, after its first frame.
func launchedApp(screen: String, device: Device, inCall: Bool, language: String) throws -> (AppController, HeadlessHost, StatusLines) {
    let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: inCall, language: language, fixedTime: "9:41", screen: screen))
    let lines = StatusLines()
    app.eventLog = { lines.items.append($0) }
    app.window.statusSink = { lines.items.append($0) }
    let host = try HeadlessHost(window: app.window)
    try host.renderFrame()
    return (app, host, lines)
}
