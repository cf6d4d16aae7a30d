import CrispUI
import Foundation

/// How the demo starts.
public struct DemoConfiguration: Sendable {
    /// The emulated device (default iPhone 4).
    public var device: Device
    /// Whether the in-call status bar shows.
    public var isInCall: Bool
    /// The language code, one of `DemoApp.languages`.
    public var language: String
    /// A fixed time of day for the status bar, like "9:41", which also freezes the call timer
    /// at 0:00 (for snapshots and tests); nil for the live clock.
    public var fixedTime: String?
    /// The first screen's name, one of `DemoApp.screenNames` (default `signal`).
    public var screen: String
    /// The theme's name, one of `Theme.all`'s (default `blue`).
    public var theme: String
    /// Makes the assets screen's report; nil for the demo's (`AssetReport.demo`). Tests pass one
    /// with fixed code sizes, shared between apps, so the report is made once.
    public var assetReportTask: AssetReportTask?

    /// Creates a configuration.
    public init(device: Device = .iPhone4, isInCall: Bool = false, language: String = "en", fixedTime: String? = nil,
                screen: String = "signal", theme: String = "blue", assetReportTask: AssetReportTask? = nil) {
        self.device = device
        self.isInCall = isInCall
        self.language = language
        self.fixedTime = fixedTime
        self.screen = screen
        self.theme = theme
        self.assetReportTask = assetReportTask
    }
}
