import CrispGraphics
import CrispUI
@_spi(Testing) import CrispX11
import CX11
import Foundation
import Testing

/// A ConfigureNotify that answers an earlier resize of the host's own arrives after the host has
/// asked for another size (the window-scale keys pressed in quick succession, on a busy server).
/// The server is grabbed by a second connection so that the later request waits while the host
/// reads the earlier answer: deterministic, and the order the DesktopScale end-to-end test met
/// once under the sanitizers (`resize 319x481` after Ctrl+1).
@Suite(.serialized) struct StaleConfigureTests {
    @Test func anAnswerToAReplacedResizeIsPassedOver() throws {
        let server = try XvfbServer(sharedMemory: false)
        try withExtendedLifetime(server) { try replaced(server) }
    }

    /// The host lives inside this call, so it closes its connection before the server goes.
    private func replaced(_ server: XvfbServer) throws {
        let screen = Screen(device: .iPhone3GS)
        let window = Window(screen: screen)
        var options = X11Host.Options()
        options.displayName = server.displayName
        let host = try X11Host(window: window, options: options)
        var lines: [String] = []
        host.statusHandler = { lines.append($0) }
        try host.handleQueuedEventsForTesting()

        // First resize (640×960, the iPhone 4): the server handles it and its answer is queued.
        screen.setDevice(.iPhone4)
        host.syncForTesting()
        // The second (back to 320×480 at 1×) waits in the server behind another client's grab.
        XGrabServer(server.display)
        XSync(server.display, 0)
        screen.setDevice(.iPhone3GS)
        try host.handleQueuedEventsForTesting()
        #expect(screen.device == .iPhone3GS, "the answer to the replaced 640×960 request became the device: \(screen.device), \(lines)")
        #expect(screen.pixelWidth == 320 && screen.pixelHeight == 480)

        XUngrabServer(server.display)
        XSync(server.display, 0)
        host.syncForTesting()
        try host.handleQueuedEventsForTesting()
        #expect(screen.device == .iPhone3GS, "\(screen.device)")
        #expect(server.size(of: host.xWindowForTesting).map { [$0.width, $0.height] } == [320, 480])
    }

    @Test func aResizeFromOutsideAfterTheHostsOwnIsFollowed() throws {
        let server = try XvfbServer(sharedMemory: false)
        try withExtendedLifetime(server) { try followed(server) }
    }

    private func followed(_ server: XvfbServer) throws {
        let screen = Screen(device: .iPhone4)
        let window = Window(screen: screen)
        var options = X11Host.Options()
        options.displayName = server.displayName
        let host = try X11Host(window: window, options: options)
        try host.handleQueuedEventsForTesting()
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

    /// The answer to the host's own request, read in one batch with an event that asks for
    /// another size (a key, here a desktop-scale change): the screen takes the answer before the
    /// next event is handled, so the answer cannot land after the new request and turn the
    /// device into a custom one of the old size.
    @Test func anAnswerFollowedInItsBatchByAnotherRequestIsTakenFirst() throws {
        let server = try XvfbServer(sharedMemory: false)
        try withExtendedLifetime(server) { try sameBatch(server) }
    }

    private func sameBatch(_ server: XvfbServer) throws {
        let screen = Screen(device: .iPhone4)
        let window = Window(screen: screen)
        var options = X11Host.Options()
        options.displayName = server.displayName
        let host = try X11Host(window: window, options: options)
        try host.handleQueuedEventsForTesting()
        host.desktopScaleHandler = { _ in screen.setDevice(.iPad) }
        // 320×480 asked for and answered; then the root's resources change: both events queued.
        screen.setDevice(.iPhone3GS)
        host.syncForTesting()
        let root = XDefaultRootWindow(server.display)
        let text = Array("Xft.dpi:\t192\n".utf8)
        XChangeProperty(server.display, root, XInternAtom(server.display, "RESOURCE_MANAGER", 0),
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
