import Foundation

/// A change announced by a `Screen` to its observers.
public enum ScreenEvent: Equatable, Sendable {
    /// The status bar is about to take `newFrame` (screen coordinates); the layout is still the old one.
    case statusBarFrameWillChange(newFrame: CGRect)
    /// The status bar has taken its new frame and the window has been laid out again;
    /// `oldFrame` is the frame it had before.
    case statusBarFrameDidChange(oldFrame: CGRect)
    /// The screen's size or scale changed (a device preset, a resized window); the window has
    /// been resized and laid out again.
    case deviceDidChange(oldDevice: Device)
}

/// The emulated screen: its shape (a `Device`), and the status bar at its top.
///
/// The status bar is 20 pt high, 40 pt during a call (the green "touch to return to call"
/// band). Changing it goes: `statusBarFrameWillChange` (with the new frame) to every observer,
/// then the change and a layout of the window, then `statusBarFrameDidChange`, so content moves
/// down 20 pt and loses 20 pt of height between the two (DESIGN §8).
public final class Screen {
    /// The emulated device.
    public private(set) var device: Device
    /// Whether the in-call status bar is shown.
    public private(set) var isInCall: Bool

    /// The window that shows this screen (set by the window).
    weak var window: Window?
    private var observers: [(id: Int, handler: (ScreenEvent) -> Void)] = []
    private var nextObserverID = 0

    /// The height of the normal status bar, in points.
    public static let statusBarHeight: CGFloat = 20
    /// The height of the in-call status bar, in points.
    public static let inCallStatusBarHeight: CGFloat = 40

    /// Creates a screen.
    public init(device: Device, isInCall: Bool = false) {
        self.device = device
        self.isInCall = isInCall
    }

    /// The screen in points, origin at the top-left.
    public var bounds: CGRect { CGRect(origin: .zero, size: device.pointSize) }
    /// Pixels per point.
    public var scale: CGFloat { device.scale }
    /// Width in pixels.
    public var pixelWidth: Int { device.pixelWidth }
    /// Height in pixels.
    public var pixelHeight: Int { device.pixelHeight }

    /// The status bar's height: 20 pt, or 40 pt during a call.
    public var statusBarHeight: CGFloat { isInCall ? Screen.inCallStatusBarHeight : Screen.statusBarHeight }
    /// The status bar's frame in screen coordinates.
    public var statusBarFrame: CGRect { statusBarFrame(isInCall: isInCall) }
    /// The area below the status bar, where the app's root view goes.
    public var applicationFrame: CGRect {
        let b = bounds
        let h = statusBarHeight
        return CGRect(x: 0, y: h, width: b.width, height: max(b.height - h, 0))
    }

    private func statusBarFrame(isInCall: Bool) -> CGRect {
        CGRect(x: 0, y: 0, width: bounds.width, height: isInCall ? Screen.inCallStatusBarHeight : Screen.statusBarHeight)
    }

    /// Shows or hides the in-call status bar, announcing the change before and after and laying
    /// the window out in between. Nothing happens when the state does not change.
    public func setInCall(_ inCall: Bool) {
        guard inCall != isInCall else { return }
        let oldFrame = statusBarFrame
        post(.statusBarFrameWillChange(newFrame: statusBarFrame(isInCall: inCall)))
        isInCall = inCall
        window?.screenDidChangeStatusBar()
        post(.statusBarFrameDidChange(oldFrame: oldFrame))
    }

    /// Changes the emulated device (size and scale), resizes and lays out the window, then
    /// announces `deviceDidChange`. Nothing happens when the device does not change.
    public func setDevice(_ newDevice: Device) {
        guard newDevice != device else { return }
        let old = device
        device = newDevice
        window?.screenDidChangeDevice()
        post(.deviceDidChange(oldDevice: old))
    }

    /// Registers `handler` for the screen's events; returns a number for `removeObserver(_:)`.
    @discardableResult
    public func addObserver(_ handler: @escaping (ScreenEvent) -> Void) -> Int {
        nextObserverID += 1
        observers.append((nextObserverID, handler))
        return nextObserverID
    }

    /// Unregisters the observer `id` returned by `addObserver(_:)`.
    public func removeObserver(_ id: Int) { observers.removeAll { $0.id == id } }

    private func post(_ event: ScreenEvent) {
        for o in observers { o.handler(event) }
    }
}
