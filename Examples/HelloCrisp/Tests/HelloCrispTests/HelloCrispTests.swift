import CrispApp
import HelloCrisp
import Testing

/// The example's views, launched headless as the emulator launches them.
@Suite struct HelloCrispTests {
    final class Lines { var items: [String] = [] }

    /// The app on `screen`, its status lines collected, after its first frame.
    func launch(_ device: Device, inCall: Bool = false, language: String = "en",
                screen: String = "tiles") throws -> (AppController, HeadlessHost, Lines) {
        let app = AppController(application: HelloApp.self, configuration: AppConfiguration(
            device: device, isInCall: inCall, language: language, fixedTime: "9:41", screen: screen))
        let lines = Lines()
        app.window.statusSink = { lines.items.append($0) }
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        return (app, host, lines)
    }

    func tiles(_ app: AppController) throws -> TilesView {
        try #require(app.view(forScreen: "tiles") as? TilesView)
    }

    /// Columns of tiles: the number of tiles on the first row.
    func columns(_ view: TilesView) -> Int {
        view.tiles.filter { $0.frame.minY == view.tiles[0].frame.minY }.count
    }

    @Test func theTilesReflowForEveryScreen() throws {
        let (phone, _, _) = try launch(.iPhone3GS)
        #expect(columns(try tiles(phone)) == 2)
        let (pad, _, _) = try launch(.iPad)
        #expect(columns(try tiles(pad)) == 5)
        // A freely resized window: a wide, low screen.
        let (free, host, _) = try launch(.iPhone3GS)
        free.screen.setDevice(Device(identifier: "free", name: "Free", pointSize: CGSize(width: 1000, height: 500), scale: 1))
        try host.renderFrame()
        #expect(columns(try tiles(free)) == 7)
        // Under the call bar, the rows shrink to keep every tile on the screen.
        let (call, _, _) = try launch(.iPhone3GS, inCall: true)
        let normal = try tiles(phone).tiles[0].frame.height, shrunk = try tiles(call).tiles[0].frame.height
        #expect(shrunk < normal)
        for app in [phone, pad, free, call] {
            let view = try tiles(app)
            #expect(view.tiles.allSatisfy { view.bounds.contains($0.frame) }, "every tile on the screen")
        }
    }

    @Test func theGreetingIsLocalized() throws {
        let (english, _, _) = try launch(.iPhone3GS)
        #expect(try tiles(english).greeting.text == "Hello, Crisp!")
        #expect(english.windowTitle == "Hello — Tiles — iPhone 3GS")
        let (german, _, _) = try launch(.iPhone3GS, language: "de")
        #expect(try tiles(german).greeting.text == "Hallo, Crisp!")
        #expect(german.windowTitle == "Hallo — Kacheln — iPhone 3GS")
        #expect(HelloApp.languages == ["en", "de"])
    }

    @Test func tapsAreCountedAndReadable() throws {
        let (app, host, lines) = try launch(.iPhone4)
        #expect(lines.items.contains("state hello.taps 0"), "every value readable from the first frame")
        let tile = try tiles(app).tiles[3]
        let p = tile.convert(CGPoint(x: tile.bounds.midX, y: tile.bounds.midY), to: nil)
        app.window.handlePointer(.down, at: p)
        app.window.handlePointer(.up, at: p)
        try host.renderFrame()
        #expect(lines.items.last { $0.hasPrefix("state hello.taps ") } == "state hello.taps 1")
        #expect(try tiles(app).counter.text == "1")
    }
}
