import Foundation
import Testing
import CrispGraphics

/// Golden-image comparison, shared by every test target.
///
/// Goldens live in `Tests/<Target>/Golden/<area>/<name>.png` — the target of the test file that
/// calls `check` — and are compared pixel for pixel (exactly, unless a tolerance is passed with
/// its reason). `RECORD_GOLDENS=1 swift test` rewrites them and records a failure, so a
/// recording run never passes by accident. On a mismatch, the actual image and a diff (red where
/// pixels differ, a faint copy of the golden elsewhere) are written to
/// `.build/golden-failures/<area>/`.
public enum Golden {
    static let repositoryDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let failureDirectory = repositoryDirectory.appendingPathComponent(".build/golden-failures")
    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

    /// The folder of the test target holding `filePath` (`Tests/<Target>/`).
    public static func testsDirectory(for filePath: String = #filePath) -> URL {
        let tests = repositoryDirectory.appendingPathComponent("Tests").path + "/"
        precondition(filePath.hasPrefix(tests), "\(filePath) is not inside \(tests)")
        let target = filePath.dropFirst(tests.count).split(separator: "/").first.map(String.init) ?? ""
        return URL(fileURLWithPath: tests + target, isDirectory: true)
    }

    /// The `Golden` folder of the test target holding `filePath`.
    public static func goldenDirectory(for filePath: String) -> URL {
        testsDirectory(for: filePath).appendingPathComponent("Golden", isDirectory: true)
    }

    /// Compares `context`'s pixels with the golden `area/name.png`.
    public static func check(_ context: CGContext, _ area: String, _ name: String, tolerance: Int = 0,
                             filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
        check(context.makeImage()!, area, name, tolerance: tolerance, filePath: filePath, sourceLocation: sourceLocation)
    }

    /// Compares `image` with the golden `area/name.png`; `tolerance` is the largest allowed
    /// per-channel difference.
    public static func check(_ image: CGImage, _ area: String, _ name: String, tolerance: Int = 0,
                             filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = goldenDirectory(for: filePath).appendingPathComponent(area).appendingPathComponent(name + ".png")
        if isRecording {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            do {
                try image.writePNG(to: url.path)
                Issue.record("recorded golden \(area)/\(name).png (RECORD_GOLDENS=1 always fails; look at it, then run without)",
                             sourceLocation: sourceLocation)
            } catch {
                Issue.record("could not record golden \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        let expected: CGImage
        do {
            expected = try CGImage(contentsOfPNGFile: url.path)
        } catch {
            Issue.record("missing or unreadable golden \(area)/\(name).png (\(error)); record it with RECORD_GOLDENS=1",
                         sourceLocation: sourceLocation)
            return
        }
        guard expected.width == image.width, expected.height == image.height else {
            Issue.record("golden \(area)/\(name) is \(expected.width)×\(expected.height), actual \(image.width)×\(image.height)",
                         sourceLocation: sourceLocation)
            writeFailure(image, diff: nil, area: area, name: name)
            return
        }
        var worst = 0, differing = 0
        var diff = [UInt32](repeating: 0, count: image.pixels.count)
        for i in image.pixels.indices {
            let a = image.pixels[i], b = expected.pixels[i]
            var d = 0
            for shift: UInt32 in [0, 8, 16, 24] {
                d = max(d, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)))
            }
            worst = max(worst, d)
            if d > tolerance {
                differing += 1
                diff[i] = 0xFFFF_0000
            } else {
                // Faint copy of the expected image for orientation.
                diff[i] = Golden.faint(b)
            }
        }
        if differing > 0 {
            Issue.record("golden \(area)/\(name): \(differing) pixels differ by more than \(tolerance) (worst \(worst)); see .build/golden-failures/\(area)/",
                         sourceLocation: sourceLocation)
            writeFailure(image, diff: CGImage(width: image.width, height: image.height, pixels: diff), area: area, name: name)
        }
    }

    private static func writeFailure(_ image: CGImage, diff: CGImage?, area: String, name: String) {
        let dir = failureDirectory.appendingPathComponent(area)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try? image.writePNG(to: dir.appendingPathComponent(name + ".actual.png").path)
        if let diff { try? diff.writePNG(to: dir.appendingPathComponent(name + ".diff.png").path) }
    }

    /// A premultiplied pixel at about a quarter of its strength.
    static func faint(_ p: UInt32) -> UInt32 { (p >> 2) & 0x3F3F_3F3F }

    /// Every golden PNG of the test target holding `filePath`.
    public static func allGoldens(filePath: String = #filePath) -> [URL] {
        guard let e = FileManager.default.enumerator(at: goldenDirectory(for: filePath), includingPropertiesForKeys: nil) else { return [] }
        return e.compactMap { $0 as? URL }.filter { $0.pathExtension == "png" }.sorted { $0.path < $1.path }
    }
}
