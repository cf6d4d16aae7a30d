import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The Crisp demo as a `CrispApplication`: its five screens, its four languages, and what it
/// adds to the emulator's command line (its detailed asset report, its benchmark columns, the
/// warning when its picture is missing). `crisp-demo` runs it.
public enum DemoApplication: CrispApplication {
    /// "Crisp".
    public static let name = "Crisp"
    /// "crisp-demo".
    public static let commandName = "crisp-demo"
    /// The demo's one-line description.
    public static let abstract = "The Crisp demo: vector-drawn screens on an emulated iPhone or iPad, in an X11 window."
    /// The keys, the screens' own included.
    public static let discussion = """
        Keys: 1–5 device presets, c in-call status bar, s 1×/2×, l language, t theme, Tab / Shift-Tab \
        screens, ? help, q or Esc quit; on the controls screen e errors, b battery run; on the plot \
        screen Delete removes the selected point; on the bubbles screen drag a bubble up or down to \
        change its value, tap it for its percentage, Up/Down change the tapped one, r resets; on the assets screen p table or chart.
        Drag the window border to resize the screen freely.
        """
    /// Signal, controls, plot, bubbles, assets.
    public static var screens: [AppScreen] { [.signal, .controls, .plot, .bubbles, .assets] }
    /// English, German, Spanish and Arabic (Crisp's own tables; Arabic is written right to
    /// left, and the screens mirror for it).
    public static let languages = ["en", "de", "es", "ar"]

    /// The controls screen's picture, when it could not be loaded.
    public static func launchWarnings(_ app: AppController) -> [String] {
        guard let error = (app.view(forScreen: ControlsScreen.name) as? ControlsScreen)?.imageError else { return [] }
        return ["\(error); the bitmap button and bubble draw without it"]
    }

    /// Every screen's tab icon, in tab order, for the asset report.
    public static var tabIcons: [AssetCatalog.TabIcon] {
        [SignalScreen.self, ControlsScreen.self, PlotScreen.self, BubblesScreen.self].map { AssetCatalog.TabIcon($0) } + [.assets]
    }

    /// The demo's report (`AssetReport.demo`): every screen and control as PNGs (png/), the
    /// table (report.md) and a bar chart (chart.png).
    public static func writeAssetReport(to directory: String, devices: [Device]) throws -> [String] {
        let task = AssetReportTask { [icons = tabIcons] progress in
            try AssetReport.demo(tabIcons: icons, devices: devices, progress: progress)
        }
        switch task.wait() {
        case let .finished(report):
            let written: [String]
            do {
                written = try AssetReportWriter.write(report, to: directory)
            } catch {
                throw AppCommandError(error.description)
            }
            var lines = [report.signalBackgroundAnswer ?? "", report.wholeAppAnswer]
            if let failure = report.codeSizeFailure { lines.append("vector code not measured: \(failure)") }
            lines.append("wrote \(written.count) files to \(directory) (report.md, chart.png, png/)")
            return lines
        case let .failed(reason):
            throw AppCommandError("the asset report failed: \(reason)")
        case .waiting, .running:
            throw AppCommandError("the asset report did not finish")
        }
    }

    /// The columns of `benchmarkColumns`.
    public static let benchmarkHeader = "        GPS frame (px)         theme fade / point drag / bubble drag (px)"

    /// The controls screen: a GPS-pulse frame, a theme-fade frame and the full frame without
    /// cached contents; the plot screen: a point drag with and without the cached axes; the
    /// bubbles screen: a bubble drag and the full frame with and without cached contents.
    public static func benchmarkColumns(app: AppController, host: HeadlessHost, frames: Int) throws -> String {
        let time = AppBenchmark.time
        var line = ""
        if let plotScreen = app.currentScreen as? PlotScreen {
            // A drag of point 3: up and down by a few points, one step per frame, as the pointer moves.
            let plot = plotScreen.plot
            let start = plot.points[3]
            func dragFrames() throws -> (median: TimeInterval, pixels: Int) {
                try time(frames) { i in
                    plot.movePoint(3, to: CGPoint(x: start.x, y: start.y + CGFloat(i % 10) * 0.02))
                    return try host.renderFrame()
                }
            }
            let drag = try dragFrames()
            plot.layer.cachesContents = false
            let uncached = try dragFrames().median
            line += String(format: "  %7.4f ms (%6d); axes uncached: %.4f ms", drag.median * 1000, drag.pixels, uncached * 1000)
        }
        if let bubbles = app.currentScreen as? BubblesScreen {
            func dragFrames() throws -> (median: TimeInterval, pixels: Int) {
                let start = bubbles.values[10]
                return try time(frames) { i in
                    bubbles.setValue(start + CGFloat(i % 10 + 1) * 0.01, ofBubble: 10, animated: false)
                    return try host.renderFrame()
                }
            }
            let drag = try dragFrames()
            app.window.invalidateEverything()
            try host.renderFrame()
            let bytes = app.window.contentsCache.bytes
            for b in bubbles.bubbles { b.layer.cachesContents = false }
            let full = try time(frames) { _ in
                app.window.invalidateEverything()
                return try host.renderFrame()
            }.median
            let uncachedDrag = try dragFrames().median
            line += String(format: "  %7.4f ms (%6d); uncached: full %.3f ms, drag %.4f ms; cache %.2f MiB",
                           drag.median * 1000, drag.pixels, full * 1000, uncachedDrag * 1000, Double(bytes) / 1_048_576)
        }
        guard let controls = app.currentScreen as? ControlsScreen else { return line }

        // The GPS pulse: errors off, then one phase step per frame (as the display link does).
        let gps = controls.bar.gpsSwitch
        app.handleKey(KeyPress(characters: "e"))
        app.window.finishAnimations()
        try host.renderFrame()
        let pulse = try time(frames) { i in
            gps.pulsePhase = CGFloat(i % 60) / 60
            return try host.renderFrame()
        }
        // A theme cross-fade: every frame gives the views colours between blue and red.
        let fade = try time(frames) { i in
            app.showColours(Theme.blue.interpolated(to: .red, fraction: CGFloat(i % 19 + 1) / 20))
            return try host.renderFrame()
        }
        // The full frame again with no control drawn from its cached contents.
        app.showColours(app.theme)
        for view in controls.cachedControls { view.layer.cachesContents = false }
        let uncached = try time(frames) { _ in
            app.window.invalidateEverything()
            return try host.renderFrame()
        }.median
        line += String(format: "  %7.4f ms (%6d)  %7.3f ms", pulse.median * 1000, pulse.pixels, fade.median * 1000)
        line += String(format: "; uncached: full %.3f ms", uncached * 1000)
        return line
    }
}

extension AppScreen {
    /// The signal graph screen; its taps and drags go to the app's event log.
    public static var signal: AppScreen {
        AppScreen(SignalScreen.self) { app in
            let screen = SignalScreen()
            screen.eventLog = { [unowned app] in app.log($0) }
            return screen
        }
    }

    /// The controls screen; its swatches set the app's theme, its battery shows in the status bar.
    public static var controls: AppScreen {
        AppScreen(ControlsScreen.self) { app in
            let screen = ControlsScreen()
            screen.onThemeSelect = { [unowned app] in app.setTheme($0) }
            screen.battery.onChange = { [unowned app] in app.statusBar.battery.level = $0.level / 100 }
            app.statusBar.battery.level = screen.battery.level / 100
            return screen
        }
    }

    /// The scatter plot screen.
    public static var plot: AppScreen { AppScreen(PlotScreen.self) { _ in PlotScreen() } }

    /// The embossed bubbles screen.
    public static var bubbles: AppScreen { AppScreen(BubblesScreen.self) { _ in BubblesScreen() } }

    /// The asset report screen, making the demo's report (none, saying so, when the
    /// configuration disallows background reports: `--no-asset-report`).
    public static var assets: AppScreen { assets(task: nil) }

    /// The asset report screen showing what `task` makes (nil: as `assets`).
    public static func assets(task: AssetReportTask?) -> AppScreen {
        AppScreen(AssetsScreen.self) { app in
            if let task { return AssetsScreen(task: task) }
            guard app.configuration.allowsBackgroundReports else {
                return AssetsScreen(task: AssetReportTask { _ in throw ReportDisabled() })
            }
            let icons = DemoApplication.tabIcons
            return AssetsScreen(task: AssetReportTask { progress in try AssetReport.demo(tabIcons: icons, keepsFiles: false, progress: progress) })
        }
    }
}

/// The assets screen's failure under `--no-asset-report`.
struct ReportDisabled: Error, CustomStringConvertible {
    var description: String { "disabled by --no-asset-report" }
}
