import CrispGraphics
import Foundation
import Testing

/// Golden-image comparison for SVG renderings (as in CrispGraphicsTests): goldens live in
/// `Tests/CrispSVGTests/Golden/<area>/<name>.png` and are compared exactly.
/// `RECORD_GOLDENS=1 swift test` rewrites them and fails; a mismatch writes the actual image and
/// a diff (red where pixels differ) to `.build/golden-failures/<area>/`.
enum Golden {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let goldenDirectory = testsDirectory.appendingPathComponent("Golden")
    static let failureDirectory = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/golden-failures")
    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

    static func check(_ image: CGImage, _ area: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = goldenDirectory.appendingPathComponent(area).appendingPathComponent(name + ".png")
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
        var differing = 0
        var diff = [UInt32](repeating: 0, count: image.pixels.count)
        for i in image.pixels.indices where image.pixels[i] != expected.pixels[i] {
            differing += 1
            diff[i] = 0xFFFF_0000
        }
        if differing > 0 {
            Issue.record("golden \(area)/\(name): \(differing) pixels differ; see .build/golden-failures/\(area)/",
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
}
