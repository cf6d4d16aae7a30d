import CrispGraphics
import CrispUI
@_spi(Testing) import CrispX11
import CX11
import Foundation
import Testing

/// How the host takes the window's ConfigureNotify sizes when they race its own resize requests
/// (the window-scale keys pressed in quick succession on a busy server: the DesktopScale
/// end-to-end test met both orders under the sanitizers, `resize 319x481` after Ctrl+1). Each
/// order is made deterministic in-process: the host's steps are taken one at a time, and a second
/// connection (the test's) grabs the server or changes the root's resources in between.
@Suite(.serialized) struct StaleConfigureTests {
    /// Runs `body` with an Xvfb, a screen showing `device`, and an X11 host of it whose first
    /// events are handled; the host is released before the server goes.
    private func withHost(_ device: Device, _ body: (XvfbServer, CrispUI.Screen, X11Host) throws -> Void) throws {
        let server = try XvfbServer(sharedMemory: false)
        try withExtendedLifetime(server) {
            let screen = CrispUI.Screen(device: device)
            var options = X11Host.Options()
            options.displayName = server.displayName
            let host = try X11Host(window: Window(screen: screen), options: options)
            try host.handleQueuedEventsForTesting()
            try body(server, screen, host)
        }
    }

    /// The answer to an earlier request, read after the host asked for another size, is passed
    /// over (the server, grabbed, holds the later request while the host reads).
    @Test func anAnswerToAReplacedResizeIsPassedOver() throws {
        try withHost(.iPhone3GS) { server, screen, host in
            // First resize (640×960, the iPhone 4): the server handles it and its answer is queued.
            screen.setDevice(.iPhone4)
            host.syncForTesting()
            // The second (back to 320×480 at 1×) waits in the server behind another client's grab.
            XGrabServer(server.display)
            XSync(server.display, 0)
            screen.setDevice(.iPhone3GS)
            try host.handleQueuedEventsForTesting()
            #expect(screen.device == .iPhone3GS, "the answer to the replaced 640×960 request became the device: \(screen.device)")
            #expect(screen.pixelWidth == 320 && screen.pixelHeight == 480)

            XUngrabServer(server.display)
            XSync(server.display, 0)
            host.syncForTesting()
            try host.handleQueuedEventsForTesting()
            #expect(screen.device == .iPhone3GS, "\(screen.device)")
            #expect(server.size(of: host.xWindowForTesting).map { [$0.width, $0.height] } == [320, 480])
        }
    }

    /// A resize by another client after the host's own is followed: a custom device of its size.
    @Test func aResizeFromOutsideAfterTheHostsOwnIsFollowed() throws {
        try withHost(.iPhone4) { server, screen, host in
            screen.setDevice(.iPhone3GS)
            host.syncForTesting()
            // Another client (a window manager, a user's script) resizes the window afterwards.
            XResizeWindow(server.display, host.xWindowForTesting, 500, 400)
            XSync(server.display, 0)
            host.syncForTesting()
            try host.handleQueuedEventsForTesting()
            #expect(screen.pixelWidth == 500 && screen.pixelHeight == 400, "\(screen.device)")
            #expect(screen.scale == 1)
        }
    }

    /// The answer to the host's own request, read in one batch with an event that asks for
    /// another size (a key, here a desktop-scale change): the screen takes the answer before the
    /// next event is handled, so the answer cannot land after the new request and turn the
    /// device into a custom one of the old size.
    @Test func anAnswerFollowedInItsBatchByAnotherRequestIsTakenFirst() throws {
        try withHost(.iPhone4) { server, screen, host in
            host.desktopScaleHandler = { _ in screen.setDevice(.iPad) }
            // 320×480 asked for and answered; then the root's resources change: both events queued.
            screen.setDevice(.iPhone3GS)
            host.syncForTesting()
            let text = Array("Xft.dpi:\t192\n".utf8)
            XChangeProperty(server.display, XDefaultRootWindow(server.display), XInternAtom(server.display, "RESOURCE_MANAGER", 0),
                            XInternAtom(server.display, "STRING", 0), 8, PropModeReplace, text, Int32(text.count))
            XSync(server.display, 0)
            host.syncForTesting()
            try host.handleQueuedEventsForTesting()
            #expect(screen.device == .iPad, "\(screen.device)")
            host.syncForTesting()
            try host.handleQueuedEventsForTesting()
            #expect(screen.device == .iPad, "\(screen.device)")
            #expect(server.size(of: host.xWindowForTesting).map { [$0.width, $0.height] } == [768, 1024])
        }
    }
}
