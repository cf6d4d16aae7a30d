@testable import CrispApp
import CrispTestSupport
import Foundation
import Testing

/// A view that draws one image exactly on pixels, one off whole pixels and one scaled.
private final class PictureView: View {
    let image = CGImage(width: 8, height: 8, pixels: (0..<64).map { $0 % 2 == 0 ? 0xFF33_66CC : 0xFFCC_6633 })
    override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.draw(image, in: CGRect(x: 0, y: 0, width: 8, height: 8))
        ctx.draw(image, in: CGRect(x: 12.5, y: 0.5, width: 8, height: 8))
        ctx.draw(image, in: CGRect(x: 26, y: 0, width: 16, height: 16))
    }
}

/// An app of one screen with what every overlay marks: an opaque view, a translucent one, a
/// view with cached contents and one that draws images on, off and across pixels.
private enum OverlayApp: CrispApplication {
    static let name = "Overlay"
    static var screens: [AppScreen] {
        [AppScreen(name: "main") { _ in
            let v = View()
            v.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.9, alpha: 1)
            let opaque = View(frame: CGRect(x: 20, y: 20, width: 120, height: 60))
            opaque.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
            let translucent = View(frame: CGRect(x: 160, y: 20, width: 120, height: 60))
            translucent.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.2, alpha: 0.5)
            let cached = View(frame: CGRect(x: 20, y: 100, width: 120, height: 60))
            cached.backgroundColor = CGColor(red: 0.3, green: 0.7, blue: 0.3, alpha: 1)
            cached.layer.cachesContents = true
            let pictures = PictureView(frame: CGRect(x: 160, y: 100, width: 60, height: 30))
            for sub in [opaque, translucent, cached, pictures] { v.addSubview(sub) }
            return v
        }]
    }
}

/// Issue 30's debug overlays: `d`, `--overlay`, the status line, a frame beneath that is the
/// frame without the overlay bit for bit, and no frames from an idle app.
@Suite(.serialized) struct DebugOverlayTests {
    final class ManualClock: @unchecked Sendable {
        var t: TimeInterval = 100
    }

    private static func app(_ overlay: DebugOverlay, clock: ManualClock? = nil) -> AppController {
        let config = AppConfiguration(device: .iPhone3GS, fixedTime: "9:41", debugOverlay: overlay)
        if let clock { return AppController(application: OverlayApp.self, configuration: config, eventLoop: EventLoop(clock: { clock.t })) }
        return AppController(application: OverlayApp.self, configuration: config)
    }

    /// The rows of `image` that differ from `other`'s (nil when the sizes differ).
    private static func differingPixels(_ image: CGImage, _ other: CGImage) -> Int? {
        guard image.width == other.width, image.height == other.height else { return nil }
        var n = 0
        for y in 0..<image.height { for x in 0..<image.width where image.pixel(x: x, y: y) != other.pixel(x: x, y: y) { n += 1 } }
        return n
    }

    @Test func dCyclesThroughTheOverlaysAndLogsEach() {
        let app = Self.app(.none)
        var lines: [String] = []
        app.eventLog = { lines.append($0) }
        app.logInitialState()
        #expect(lines.contains("overlay none"))
        lines = []
        for _ in DebugOverlay.allCases { app.handleKey(KeyPress(characters: "d")) }
        #expect(lines == ["key d", "overlay flash-updates", "key d", "overlay cached", "key d", "overlay blended",
                          "key d", "overlay misaligned", "key d", "overlay none"])
        #expect(app.window.debugOverlay == .none)
    }

    @Test func overlayFlagStartsWithOneAndRejectsUnknownNames() throws {
        let app = Self.app(.blended)
        var lines: [String] = []
        app.eventLog = { lines.append($0) }
        app.logInitialState()
        #expect(lines.contains("overlay blended") && app.debugOverlay == .blended)
        #expect(OverlayApp.run(arguments: ["--overlay", "sparkles"]) == 64)
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-overlay-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        #expect(OverlayApp.run(arguments: ["--overlay", "cached", "--snapshot", png]) == 0)
    }

    @Test(arguments: DebugOverlay.allCases.filter { $0 != .none })
    func theFrameBeneathIsTheFrameWithoutTheOverlay(overlay: DebugOverlay) throws {
        let plain = try HeadlessHost(window: Self.app(.none).window)
        let withOverlay = Self.app(overlay)
        let host = try HeadlessHost(window: withOverlay.window)
        let expected = try plain.snapshot()
        let shown = try host.snapshot()
        let beneath = try #require(withOverlay.window.frameBeneathOverlay)
        #expect(Self.differingPixels(beneath, expected) == 0, "the frame beneath \(overlay.rawValue)")
        #expect((Self.differingPixels(shown, expected) ?? 0) > 0, "\(overlay.rawValue) shows nothing")
        // The screenshot (Ctrl+S) is the screen without the overlay.
        #expect(Self.differingPixels(try #require(withOverlay.screenImage()), expected) == 0)
        // Turned off, the screen is the plain frame again.
        withOverlay.debugOverlay = .none
        #expect(Self.differingPixels(try host.snapshot(), expected) == 0)
    }

    @Test func tintsMarkWhatEachOverlayIsAbout() throws {
        // At 1×: the translucent view (160…280, 20…80 below the 20-point status bar).
        let blended = try HeadlessHost(window: Self.app(.blended).window).snapshot()
        let plain = try HeadlessHost(window: Self.app(.none).window).snapshot()
        func rgb(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)) }
        let translucent = rgb(blended.pixel(x: 200, y: 70)), opaque = rgb(blended.pixel(x: 80, y: 70))
        #expect(translucent.r > translucent.g + 40, "the translucent view is tinted red: \(translucent)")
        #expect(opaque.g > opaque.r + 40, "the opaque view is tinted green: \(opaque)")
        // The pictures are at (160, 120): on pixels at x 160, off them at 172.5, scaled at 186.
        let misaligned = try HeadlessHost(window: Self.app(.misaligned).window).snapshot()
        #expect(misaligned.pixel(x: 163, y: 124) == plain.pixel(x: 163, y: 124), "an image on whole pixels is not marked")
        #expect(misaligned.pixel(x: 176, y: 124) != plain.pixel(x: 176, y: 124), "an image off whole pixels is marked")
        #expect(misaligned.pixel(x: 190, y: 127) != plain.pixel(x: 190, y: 127), "a scaled image is marked")
        // Cached: drawn into its cache on the first frame (red), from the cache afterwards (green).
        let cachedApp = Self.app(.cached)
        let cachedHost = try HeadlessHost(window: cachedApp.window)
        let first = rgb(try cachedHost.snapshot().pixel(x: 80, y: 150))
        cachedApp.window.invalidateEverything()
        let second = rgb(try cachedHost.snapshot().pixel(x: 80, y: 150))
        #expect(first.r > first.g && second.g > second.r, "\(first) then \(second)")
    }

    /// Each overlay on the test screen (flash-updates just after the opaque view changed).
    @Test(arguments: DebugOverlay.allCases.filter { $0 != .none })
    func eachOverlayLooksAsItsGolden(overlay: DebugOverlay) throws {
        let clock = ManualClock()
        let app = Self.app(overlay, clock: clock)
        let host = try HeadlessHost(window: app.window)
        try host.run()
        if overlay == .flashUpdates {
            for _ in 0...DebugOverlay.flashFrames {
                clock.t += DebugOverlay.fadeInterval
                app.window.eventLoop.runDueWork()
                try host.renderFrame()
            }
            app.currentScreen.subviews.first?.backgroundColor = CGColor(red: 0.1, green: 0.2, blue: 0.5, alpha: 1)
            try host.renderFrame()
        }
        if overlay == .cached {
            // The second frame: the cached view from its cache.
            app.window.invalidateEverything()
            try host.renderFrame()
        }
        Golden.check(host.context, "overlay", overlay.rawValue)
    }

    @Test func flashUpdatesFadesThenAnIdleAppPresentsNothing() throws {
        let clock = ManualClock()
        let app = Self.app(.flashUpdates, clock: clock)
        let host = try HeadlessHost(window: app.window)
        try host.run()
        let plain = try HeadlessHost(window: Self.app(.none).window)
        func settle() throws -> Int {
            var frames = 0
            for _ in 0..<60 {
                clock.t += DebugOverlay.fadeInterval
                app.window.eventLoop.runDueWork()
                if try !host.renderFrame().isEmpty { frames += 1 }
            }
            return frames
        }
        // The first frame's flash fades in a few frames, then nothing is presented.
        let fade = try settle()
        #expect(fade >= 2 && fade <= DebugOverlay.flashFrames + 1, "\(fade) fade frames")
        #expect(!app.window.needsFrame && !app.window.isOverlayFading)
        #expect(app.window.eventLoop.nextDeadline() == nil, "an idle app with flash-updates has nothing scheduled")
        #expect(Self.differingPixels(host.context.makeImage()!, try plain.snapshot()) == 0, "every flash erased")

        // A real update flashes where it happened, and fades away again.
        let view = try #require(app.currentScreen.subviews.first)
        view.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let rects = try host.renderFrame()
        #expect(rects.count == 1 && rects[0].contains(CGRect(x: 20, y: 40, width: 120, height: 60)))
        let flashed = host.context.makeImage()!
        #expect(Self.differingPixels(flashed, try #require(app.window.frameBeneathOverlay)) ?? 0 > 0)
        #expect(try settle() <= DebugOverlay.flashFrames)
        #expect(Self.differingPixels(host.context.makeImage()!, try #require(app.window.frameBeneathOverlay)) == 0)
        #expect(try settle() == 0)
    }
}
