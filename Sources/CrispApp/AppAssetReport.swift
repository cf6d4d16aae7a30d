import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// `--asset-report` for any app: each screen rendered as the bitmaps an app drawn in PNGs
/// would ship for it, one per device, language and theme, with a table of their sizes. (The
/// demo makes a finer report of its own: every control in every state.)
public enum AppAssetReport {
    /// Checks that `directory` can take a report before the (slow) report is made: it is a
    /// directory, or can be created as one, and is writable.
    ///
    /// - Throws: `AppCommandError` naming the path and the problem.
    public static func prepare(_ directory: String) throws(AppCommandError) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw AppCommandError("\(directory) is a file, not a directory") }
        } else {
            do {
                try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw AppCommandError("cannot create the directory \(directory): \((error as NSError).localizedDescription)")
            }
        }
        guard fm.isWritableFile(atPath: directory) else { throw AppCommandError("the directory \(directory) is not writable") }
    }

    /// Renders every screen of `application` at `devices` × its languages × its themes into
    /// `directory/png/<screen>@<device>-<language>-<theme>.png`, writes `report.md`, and
    /// returns a summary line per screen and one for the whole app.
    public static func write(application: any CrispApplication.Type, to directory: String, devices: [Device]) throws -> [String] {
        let base = URL(fileURLWithPath: directory)
        let pngDirectory = base.appendingPathComponent("png")
        do {
            try FileManager.default.createDirectory(at: pngDirectory, withIntermediateDirectories: true)
        } catch {
            throw AppCommandError("cannot create the directory \(pngDirectory.path): \((error as NSError).localizedDescription)")
        }
        let themes = application.themes.isEmpty ? Theme.all : application.themes
        let languages = application.languages
        var lines: [String] = []
        var table = ["| screen | bitmaps | PNG bytes |", "|---|---:|---:|"]
        var totalFiles = 0, totalBytes = 0
        for screen in application.screens {
            var files = 0, bytes = 0
            for device in devices {
                for language in languages {
                    for theme in themes {
                        let app = AppController(application: application, configuration: AppConfiguration(
                            device: device, language: language, fixedTime: "9:41", screen: screen.name, theme: theme.name))
                        app.window.layoutIfNeeded()
                        let view = app.currentScreen
                        let size = view.bounds.size
                        guard size.width >= 1, size.height >= 1 else { continue }
                        UIGraphicsBeginImageContextWithOptions(size, false, device.scale)
                        defer { UIGraphicsEndImageContext() }
                        guard let context = UIGraphicsGetCurrentContext() else { continue }
                        view.layer.render(in: context)
                        guard let image = UIGraphicsGetImageFromCurrentImageContext()?.cgImage else { continue }
                        let data = try image.pngData()
                        let url = pngDirectory.appendingPathComponent("\(screen.name)@\(device.identifier)-\(language)-\(theme.name).png")
                        do {
                            try Data(data).write(to: url, options: .atomic)
                        } catch {
                            throw AppCommandError("cannot write \(url.path): \((error as NSError).localizedDescription)")
                        }
                        files += 1
                        bytes += data.count
                    }
                }
            }
            table.append("| `\(screen.name)` | \(files) | \(bytes) |")
            lines.append("\(screen.name): \(devices.count) devices × \(languages.count) languages × \(themes.count) themes = \(files) bitmaps, \(bytes) bytes")
            totalFiles += files
            totalBytes += bytes
        }
        table.append("| total | \(totalFiles) | \(totalBytes) |")
        let markdown = "# \(application.name): the screens as bitmaps\n\n" + table.joined(separator: "\n") + "\n"
        do {
            try Data(markdown.utf8).write(to: base.appendingPathComponent("report.md"), options: .atomic)
        } catch {
            throw AppCommandError("cannot write \(base.appendingPathComponent("report.md").path): \((error as NSError).localizedDescription)")
        }
        lines.append("whole app: \(application.screens.count) screens, \(totalFiles) bitmaps, \(totalBytes) bytes")
        lines.append("wrote \(totalFiles + 1) files to \(directory) (report.md, png/)")
        return lines
    }
}
