import CrispGraphics
import CrispUI
@_spi(Testing) import CrispX11
import CX11
import Foundation
import Testing

/// Issue 30: a turned screen keeps the X11 host's shared-memory segment. The image is reshaped
/// over the same segment (a turn keeps the pixel count), so the turn's first frame pays for no
/// new segment, attach, check and fresh pages; the window then shows the turned frame exactly.
/// A size needing more bytes gets a new segment.
@Suite(.serialized) struct SharedMemoryReshapeTests {
    /// The frame the window shows (0x00RRGGBB) against the window's own picture of its screen.
    private static func differingPixels(_ server: XvfbServer, _ host: X11Host, _ window: CrispUI.Window) throws -> Int {
        let shown = try #require(server.pixels(of: host.xWindowForTesting), "the window's pixels could not be read")
        let expected = try #require(window.renderedImage())
        let sizes = "the window is \(shown.width)×\(shown.height), the screen \(expected.width)×\(expected.height)"
        try #require(shown.width == expected.width && shown.height == expected.height, Comment(rawValue: sizes))
        var n = 0
        for y in 0..<shown.height {
            for x in 0..<shown.width where shown.pixels[y * shown.width + x] != expected.pixel(x: x, y: y) & 0x00FF_FFFF { n += 1 }
        }
        return n
    }

    /// Handles events and presents until the window has `width` × `height` pixels and the
    /// frame of that size is shown.
    private static func settle(_ server: XvfbServer, _ host: X11Host, width: Int, height: Int) throws {
        let settled = try waitUntil(timeout: 20) {
            host.syncForTesting()
            try host.handleQueuedEventsForTesting()
            try host.presentForTesting()
            host.syncForTesting()
            return server.size(of: host.xWindowForTesting).map { $0 == (width, height) } ?? false
        }
        let size = String(describing: server.size(of: host.xWindowForTesting))
        try #require(settled, Comment(rawValue: "the window did not take \(width)×\(height): \(size)"))
        try host.presentForTesting()
        host.syncForTesting()
    }

    @Test func aTurnKeepsTheSegmentAndTheWindowShowsTheTurnedFrame() throws {
        let server = try XvfbServer(sharedMemory: true)
        try withExtendedLifetime(server) {
            let screen = CrispUI.Screen(device: .iPad)
            let window = CrispUI.Window(screen: screen)
            window.backgroundColor = CGColor(red: 0.95, green: 0.93, blue: 0.88, alpha: 1)
            // Something off the centre, so a frame drawn with the other shape's rows shows.
            let marker = View(frame: CGRect(x: 10, y: 30, width: 300, height: 120))
            marker.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.1, alpha: 1)
            let stripe = View(frame: CGRect(x: 500, y: 600, width: 40, height: 300))
            stripe.backgroundColor = CGColor(red: 0.1, green: 0.3, blue: 0.8, alpha: 1)
            window.addSubview(marker)
            window.addSubview(stripe)
            var options = X11Host.Options()
            options.displayName = server.displayName
            let host = try X11Host(window: window, options: options)
            host.mapForTesting()
            try Self.settle(server, host, width: 768, height: 1024)
            let segment = try #require(host.sharedMemorySegmentForTesting, "the host did not use MIT-SHM")
            #expect(try Self.differingPixels(server, host, window) == 0)

            screen.setOrientation(.landscapeLeft)
            try Self.settle(server, host, width: 1024, height: 768)
            #expect(host.sharedMemorySegmentForTesting == segment, "the turn made a new segment")
            #expect(try Self.differingPixels(server, host, window) == 0, "the reshaped image does not show the frame")

            screen.setOrientation(.portrait)
            try Self.settle(server, host, width: 768, height: 1024)
            #expect(host.sharedMemorySegmentForTesting == segment)
            #expect(try Self.differingPixels(server, host, window) == 0)

            // More pixels than the segment holds: a new segment.
            screen.setDevice(.custom(pixelWidth: 1000, pixelHeight: 1100, scale: 1))
            try Self.settle(server, host, width: 1000, height: 1100)
            let bigger = try #require(host.sharedMemorySegmentForTesting)
            #expect(bigger != segment, "a larger screen kept the smaller segment")
            #expect(try Self.differingPixels(server, host, window) == 0)
        }
    }
}
