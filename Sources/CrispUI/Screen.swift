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

/// Which way up the device is held, as `UIDeviceOrientation` names it: `landscapeLeft` is the
/// device turned a quarter counterclockwise from portrait (the Simulator's Rotate Left, ⌘←;
/// the home button on the right). The interface is upright in every one: the status bar runs
/// along the top edge (the long edge in landscape).
public enum DeviceOrientation: String, CaseIterable, Sendable {
    case portrait
    case landscapeLeft = "landscape-left"
    case landscapeRight = "landscape-right"
    /// Only an iPad's interface turns upside down (`Device.isPad`).
    case upsideDown = "upside-down"

    /// Whether the screen is on its side (its width and height swapped from the device's).
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }

    /// Quarter turns counterclockwise from portrait: 0…3.
    public var quarterTurns: Int {
        switch self {
        case .portrait: 0
        case .landscapeLeft: 1
        case .upsideDown: 2
        case .landscapeRight: 3
        }
    }

    /// The orientation `turns` quarter turns counterclockwise from portrait (any integer).
    public init(quarterTurns turns: Int) {
        switch ((turns % 4) + 4) % 4 {
        case 0: self = .portrait
        case 1: self = .landscapeLeft
        case 2: self = .upsideDown
        default: self = .landscapeRight
        }
    }
}

/// The emulated screen: its shape (a `Device`), and the status bar at its top.
///
/// The status bar is 20 pt high, 40 pt during a call (the green "touch to return to call"
/// band). Changing it goes: `statusBarFrameWillChange` (with the new frame) to every observer,
/// then the change and a layout of the window — at once, or animated over
/// `statusBarAnimationDuration` — then `statusBarFrameDidChange`, so content moves down 20 pt
/// and loses 20 pt of height between the two (ARCHITECTURE.md, "Screens and devices").
public final class Screen {
    /// The emulated device.
    public private(set) var device: Device
    /// Whether the in-call status bar is shown.
    public private(set) var isInCall: Bool
    /// Which way up the device is held; in landscape `device` is the preset `transposed`.
    public private(set) var orientation: DeviceOrientation

    /// The window that shows this screen (set by the window).
    weak var window: Window?
    private var observers: [(id: Int, handler: (ScreenEvent) -> Void)] = []
    private var nextObserverID = 0

    /// The height of the normal status bar, in points.
    public static let statusBarHeight: CGFloat = 20
    /// The height of the in-call status bar, in points.
    public static let inCallStatusBarHeight: CGFloat = 40
    /// Seconds an animated status-bar change takes (`setInCall(_:animated:)`).
    public static let statusBarAnimationDuration: TimeInterval = 0.35

    /// The old frame of an animated status-bar change whose did-change is still to come.
    private var pendingDidChangeFrame: CGRect?
    /// Counts status-bar changes, so a finished animation knows whether it is still the latest.
    private var statusBarChangeCount = 0

    /// Seconds a rotation by a quarter turn takes (`setOrientation(_:animated:)`); a half turn
    /// takes `halfTurnRotationDuration`.
    public static let rotationDuration: TimeInterval = 0.3
    /// Seconds a rotation by a half turn takes.
    public static let halfTurnRotationDuration: TimeInterval = 0.4

    /// Creates a screen; `device` is in portrait (it is turned on its side for a landscape
    /// `orientation`).
    public init(device: Device, isInCall: Bool = false, orientation: DeviceOrientation = .portrait) {
        self.device = orientation.isLandscape ? device.transposed : device
        self.isInCall = isInCall
        self.orientation = orientation
    }

    /// Turns the device to `newOrientation`: the screen takes the shape of its side (the device
    /// `transposed` between portrait and landscape), the window is resized and laid out again,
    /// and `deviceDidChange` is announced when the shape changed. With `animated` and a window,
    /// the window shows the turn (`Window`'s rotation: the last picture turns and cross-fades into
    /// the new layout over `rotationDuration`) while everything else already has its new state.
    /// Nothing happens when the orientation does not change.
    public func setOrientation(_ newOrientation: DeviceOrientation, animated: Bool = false) {
        guard newOrientation != orientation else { return }
        let turns = newOrientation.quarterTurns - orientation.quarterTurns
        let oldImage = animated ? window?.renderedImage() : nil
        window?.cancelCurrentTouch()
        let old = device
        orientation = newOrientation
        let shapeChanges = turns % 2 != 0
        if shapeChanges { device = device.transposed }
        if shapeChanges {
            window?.screenDidChangeDevice()
            post(.deviceDidChange(oldDevice: old))
        }
        if let oldImage, let window {
            // -90 degrees (counterclockwise on screen) for a device turned a quarter to the left.
            let quarters = ((turns % 4) + 4) % 4
            let duration = quarters == 2 ? Screen.halfTurnRotationDuration : Screen.rotationDuration
            window.animateRotation(from: oldImage, quarterTurns: quarters == 3 ? -1 : quarters, duration: duration)
        }
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
    ///
    /// With `animated`, the status bar and the root view move to their new frames over
    /// `statusBarAnimationDuration` (ease in-out) on the window's event loop — the root view is
    /// laid out at every step, so the content slides and shrinks with the bar — and
    /// did-change comes when they arrive. `isInCall`, `statusBarFrame` and `applicationFrame`
    /// take their new values at once. A change that interrupts one still animating first posts
    /// the earlier change's did-change (will and did always alternate), then animates on from
    /// where the layout is. Without a window the change is immediate.
    public func setInCall(_ inCall: Bool, animated: Bool = false) {
        guard inCall != isInCall else { return }
        if let pending = pendingDidChangeFrame {
            pendingDidChangeFrame = nil
            post(.statusBarFrameDidChange(oldFrame: pending))
        }
        statusBarChangeCount += 1
        let oldFrame = statusBarFrame
        post(.statusBarFrameWillChange(newFrame: statusBarFrame(isInCall: inCall)))
        isInCall = inCall
        guard animated, let window else {
            window?.screenDidChangeStatusBar()
            post(.statusBarFrameDidChange(oldFrame: oldFrame))
            return
        }
        pendingDidChangeFrame = oldFrame
        let change = statusBarChangeCount
        window.animateStatusBarChange(duration: Screen.statusBarAnimationDuration) { [weak self] in
            guard let self, self.statusBarChangeCount == change, let pending = self.pendingDidChangeFrame else { return }
            self.pendingDidChangeFrame = nil
            self.post(.statusBarFrameDidChange(oldFrame: pending))
        }
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
