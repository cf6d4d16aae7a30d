@_spi(Testing) import CrispApp
import Foundation
import Testing

/// An app of one screen whose view draws far outside its bounds.
private enum SoloApp: CrispApplication {
    static let name = "Solo"
    static var screens: [AppScreen] { [AppScreen(name: "solo") { _ in Sprawling() }] }
}

/// Draws a rectangle ten times its size, centred on itself.
private final class Sprawling: View {
    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        accessibilityIdentifier = "sprawl"
        accessibilityValue = "wide"
    }

    override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(bounds.insetBy(dx: -5 * bounds.width, dy: -5 * bounds.height))
    }
}

/// An app that declares no screen at all.
private enum EmptyApp: CrispApplication {
    static var screens: [AppScreen] { [] }
}

/// An app of two screens, one an empty view, with a resources folder that does not exist.
private enum MissingResourcesApp: CrispApplication {
    static let name = "Missing"
    static var screens: [AppScreen] {
        [AppScreen(name: "first", title: "First") { _ in View() }, AppScreen(name: "second") { _ in View() }]
    }
    static var resourcesFolder: URL? { URL(fileURLWithPath: "/nonexistent/crisp-app-test/Resources") }
}

// Serialized: `run(arguments:)` sets the process-wide app the command line parses for.
@Suite(.serialized) struct CrispAppTests {
    @Test func oneScreenHasNoTabBarAndItsOwnTitle() throws {
        let app = AppController(application: SoloApp.self, configuration: AppConfiguration(fixedTime: "9:41"))
        var lines: [String] = []
        app.window.statusSink = { lines.append($0) }
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        #expect(app.tabBar.isHidden)
        #expect(app.currentScreen.frame == app.rootView.bounds, "the screen takes the tab bar's room")
        #expect(app.windowTitle == "Solo — iPhone 4")
        #expect(lines.contains("state sprawl wide"))
    }

    @Test func aViewDrawingOutsideItsBoundsStaysInsideItsScreen() throws {
        let app = AppController(application: SoloApp.self, configuration: AppConfiguration(fixedTime: "9:41"))
        let image = try HeadlessHost(window: app.window).snapshot()
        // The status bar above the screen keeps its own pixels: the red stops at the screen.
        let decoded = try CGImage(pngData: try image.pngData())
        let bytes = try #require(decoded.dataProvider?.data)
        let bpp = decoded.bitsPerPixel / 8
        let statusBarPixel = Array(bytes[(5 * decoded.bytesPerRow + 100 * bpp)..<(5 * decoded.bytesPerRow + 100 * bpp + 3)])
        #expect(statusBarPixel != [255, 0, 0], "the status bar is not painted over")
    }

    @Test func noScreensAndEmptyViewsStillRun() throws {
        let empty = AppController(application: EmptyApp.self)
        #expect(empty.screens.map(\.name) == ["main"])
        _ = try HeadlessHost(window: empty.window).snapshot()
        let two = AppController(application: MissingResourcesApp.self, configuration: AppConfiguration(screen: "second"))
        #expect(!two.tabBar.isHidden)
        #expect(two.currentScreenDeclaration.name == "second")
        _ = try HeadlessHost(window: two.window).snapshot()
    }

    @Test func aMissingResourcesFolderIsNamed() {
        #expect(throws: AppCommandError.self) { try MissingResourcesApp.checkResources() }
        do {
            try MissingResourcesApp.checkResources()
        } catch {
            #expect("\(error)".contains("/nonexistent/crisp-app-test/Resources"), "\(error)")
            #expect("\(error)".contains("does not exist"))
        }
        #expect(MissingResourcesApp.run(arguments: ["--snapshot", "/tmp/crisp-app-test-never.png"]) == 1)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/crisp-app-test-never.png"))
    }

    @Test func unknownDevicesLanguagesAndScreensAreUsageErrors() {
        #expect(SoloApp.run(arguments: ["--device", "nokia"]) == 64)
        #expect(SoloApp.run(arguments: ["--language", "fr"]) == 64)
        #expect(SoloApp.run(arguments: ["--screen", "missing"]) == 64)
        #expect(SoloApp.run(arguments: ["--theme", "purple"]) == 64)
    }

    @Test func aSnapshotFromTheCommandLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-app-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(SoloApp.run(arguments: ["--snapshot", path, "--device", "iphone3gs"]) == 0)
        let image = try CGImage(contentsOfPNGFile: path)
        #expect(image.width == 320 && image.height == 480)
    }
}
