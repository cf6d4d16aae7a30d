import CrispApp
@_spi(Testing) import CrispGraphics
import CrispDemoApp
import CrispSnapshotTesting
import Foundation
import SnapshotTesting
import Testing

/// The strategies through swift-snapshot-testing's own `verifySnapshot` (which returns the
/// failure message instead of recording an issue), each test in a folder of its own.
@Suite struct CrispSnapshotTestingTests {
    /// A view of two colours and a label, its colour settable to make a mismatch.
    final class Card: View {
        let label = Label(text: "Snapshot", fontSize: 20)
        init(colour: CGColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)) {
            super.init()
            backgroundColor = CGColor(gray: 0.95, alpha: 1)
            label.backgroundColor = colour
            addSubview(label)
        }
        override func layoutSubviews() {
            label.frame = CGRect(x: 20, y: 20, width: bounds.width - 40, height: 60)
        }
    }

    func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-snapshot-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func verify(_ view: View, _ strategy: Snapshotting<View, SnapshotImage>, in folder: URL,
                record: SnapshotTestingConfiguration.Record = .missing, testName: String = #function) -> String? {
        verifySnapshot(of: view, as: strategy, named: "card", record: record, snapshotDirectory: folder.path,
                       testName: testName)
    }

    /// The quoted file URLs in a failure message, as paths.
    func paths(in message: String) -> [String] {
        message.split(separator: "\"").filter { $0.hasPrefix("file://") }.compactMap { URL(string: String($0))?.path }
    }

    @Test func aMissingReferenceIsRecordedThenMatched() throws {
        let dir = try folder("record")
        let strategy = try Snapshotting<View, SnapshotImage>.image(device: "iphone3gs")
        let first = try #require(verify(Card(), strategy, in: dir))
        #expect(first.contains("No reference was found on disk. Automatically recorded snapshot"), "\(first)")
        let reference = dir.appendingPathComponent("aMissingReferenceIsRecordedThenMatched.card.png")
        let image = try CGImage(contentsOfPNGFile: reference.path)
        #expect(image.width == 320 && image.height == 480)
        #expect(verify(Card(), strategy, in: dir) == nil, "the same view matches its reference")
        // `.never` neither records nor passes without a reference.
        let other = try folder("never")
        #expect(verify(Card(), strategy, in: other, record: .never)?.contains("recording is disabled") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).isEmpty)
    }

    @Test func aMismatchWritesTheNewAndTheDifferenceImageAndCountsPixels() throws {
        let dir = try folder("mismatch")
        let strategy = try Snapshotting<View, SnapshotImage>.image(device: "iphone4")
        _ = verify(Card(), strategy, in: dir)
        let reference = dir.appendingPathComponent("aMismatchWritesTheNewAndTheDifferenceImageAndCountsPixels.card.png")
        let before = try Data(contentsOf: reference)
        let message = try #require(verify(Card(colour: CGColor(red: 0.2, green: 0.5, blue: 0.8, alpha: 1)), strategy, in: dir))
        // The label's background, 280 × 60 points at 2×, minus the glyphs drawn over it.
        #expect(message.contains("pixels differ, by at most 26 of 255 in a channel"), "\(message)")
        let count = try #require(Int(message.components(separatedBy: " of 614400 pixels differ")[0].split(separator: "\n").last ?? ""))
        #expect(count > 50_000 && count <= 560 * 120, "\(count)")
        let files = paths(in: message)
        #expect(files.count == 3, "reference, new image and difference image: \(message)")
        #expect(files.first == reference.path)
        for file in files { #expect(FileManager.default.fileExists(atPath: file), "\(file)") }
        let difference = try CGImage(contentsOfPNGFile: try #require(files.last))
        #expect(difference.width == 640 && difference.height == 960)
        #expect(difference.pixels.filter { $0 == 0xFFFF_00FF }.count == count, "every differing pixel magenta")
        #expect(try Data(contentsOf: reference) == before, "a failure leaves the reference alone")
        // `.failed` records the new image over the reference, and then it matches.
        let changed = Card(colour: CGColor(red: 0.2, green: 0.5, blue: 0.8, alpha: 1))
        #expect(verify(changed, strategy, in: dir, record: .failed)?.contains("A new snapshot was automatically recorded") == true)
        #expect(verify(changed, strategy, in: dir) == nil)
    }

    @Test func aToleranceIsOffByDefaultAndAllowsWhatItSays() throws {
        let dir = try folder("tolerance")
        let exact = try Snapshotting<View, SnapshotImage>.image(device: "iphone3gs")
        _ = verify(Card(), exact, in: dir)
        let nearly = Card(colour: CGColor(red: 0.2, green: 0.5, blue: 0.9 - 2.0 / 255, alpha: 1))
        let strict = try #require(verify(nearly, exact, in: dir))
        #expect(strict.contains("by at most 2 of 255"), "\(strict)")
        let loose = try Snapshotting<View, SnapshotImage>.image(device: "iphone3gs",
                                                               tolerance: SnapshotTolerance(maximumChannelDifference: 2))
        #expect(verify(nearly, loose, in: dir) == nil)
        let few = try Snapshotting<View, SnapshotImage>.image(device: "iphone3gs",
                                                             tolerance: SnapshotTolerance(maximumDifferingPixels: 10))
        #expect(verify(nearly, few, in: dir)?.contains("(tolerance: 10 pixels, 0 per channel)") == true)
    }

    @Test func aReferenceThatIsNotAPNGOrOfAnotherSizeFailsSayingSo() throws {
        let dir = try folder("bad-reference")
        let reference = dir.appendingPathComponent("aReferenceThatIsNotAPNGOrOfAnotherSizeFailsSayingSo.card.png")
        let garbage = Data("not a picture".utf8)
        try garbage.write(to: reference)
        let strategy = try Snapshotting<View, SnapshotImage>.image(device: "iphone3gs")
        let message = try #require(verify(Card(), strategy, in: dir))
        #expect(message.contains("The reference is not a PNG"), "\(message)")
        #expect(try Data(contentsOf: reference) == garbage, "never overwritten without a record mode that says so")
        try Data().write(to: reference)
        #expect(verify(Card(), strategy, in: dir)?.contains("The reference is empty, not a PNG") == true)
        // Recorded on an iPad, compared on an iPhone 3GS.
        try FileManager.default.removeItem(at: reference)
        _ = verify(Card(), try .image(device: "ipad"), in: dir)
        let size = try #require(verify(Card(), strategy, in: dir))
        #expect(size.contains("The reference is 768×1024 pixels, the new image 320×480"), "\(size)")
    }

    @Test func unknownNamesAreErrorsListingTheValidOnes() {
        #expect(throws: SnapshotConfigurationError.self) { try Snapshotting<View, SnapshotImage>.image(device: "iphone9") }
        do {
            _ = try Snapshotting<View, SnapshotImage>.image(device: "iphone9")
        } catch {
            #expect("\(error)" == "unknown device \"iphone9\"; the devices are iphone3gs, iphone4, iphone5, ipad, ipad-retina")
        }
        do {
            _ = try Snapshotting<AppScreen, SnapshotImage>.image(of: DemoApplication.self, language: "fr")
        } catch {
            #expect("\(error)" == "unknown language \"fr\" for Crisp; its languages are en, de, es, ar")
        }
        do {
            _ = try Snapshotting<AppScreen, SnapshotImage>.image(of: DemoApplication.self, theme: "neon")
        } catch {
            #expect("\(error)".hasPrefix("unknown theme \"neon\" for Crisp; its themes are "))
        }
        do {
            _ = try Snapshotting<AppScreen, SnapshotImage>.image(of: DemoApplication.self, scale: 3)
        } catch {
            #expect("\(error)" == "scale 3 is not 1 or 2")
        }
        do {
            _ = try DemoApplication.screen(named: "nope")
        } catch {
            #expect("\(error)" == "Crisp has no screen \"nope\"; its screens are signal, controls, plot, bubbles, assets")
        }
        do {
            _ = try Snapshotting<AppScreen, SnapshotImage>.image(of: MissingResourcesApp.self)
        } catch {
            #expect("\(error)" == "the app's resources folder /nonexistent/crisp-resources does not exist (Missing.resourcesFolder names it)")
        }
    }

    enum MissingResourcesApp: CrispApplication {
        static let name = "Missing"
        static var screens: [AppScreen] { [] }
        static var resourcesFolder: URL? { URL(fileURLWithPath: "/nonexistent/crisp-resources") }
    }

    @Test func aRecordIntoAFolderThatCannotBeWrittenIsAClearError() throws {
        let dir = try folder("unwritable")
        let file = dir.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let strategy = try Snapshotting<View, SnapshotImage>.image(device: "iphone3gs")
        let message = try #require(verifySnapshot(of: Card(), as: strategy, named: "card", record: .all,
                                                  snapshotDirectory: file.appendingPathComponent("refs").path))
        #expect(message == "Cannot record into the snapshot folder \(file.path)/refs: \(file.path) is a file, not a folder.")
        #expect(try Data(contentsOf: file) == Data("x".utf8))
    }

    /// Draws a rectangle ten times its size, centred on itself.
    final class Sprawling: View {
        override func draw(_ rect: CGRect) {
            guard let ctx = UIGraphicsGetCurrentContext() else { return }
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.fill(bounds.insetBy(dx: -5 * bounds.width, dy: -5 * bounds.height))
        }
    }

    @Test func anEmptyViewAndAViewDrawingOutsideItsBoundsAreSnapshotted() throws {
        let dir = try folder("odd-views")
        let strategy = try Snapshotting<View, SnapshotImage>.image(device: "iphone3gs", callBar: true)
        for (name, view) in [("empty", View()), ("sprawling", Sprawling())] {
            #expect(verifySnapshot(of: view, as: strategy, named: name, snapshotDirectory: dir.path)?
                .contains("Automatically recorded") == true)
            #expect(verifySnapshot(of: view, as: strategy, named: name, snapshotDirectory: dir.path) == nil, "\(name)")
        }
        // The red stops at the screen: the call bar (40 pixels at the top) keeps its own colours.
        let sprawl = try CGImage(contentsOfPNGFile: dir.appendingPathComponent(
            "anEmptyViewAndAViewDrawingOutsideItsBoundsAreSnapshotted.sprawling.png").path)
        #expect(sprawl.pixels[10 * 320 + 160] != 0xFFFF_0000)
        #expect(sprawl.pixels[240 * 320 + 160] == 0xFFFF_0000)
    }

    @Test func aViewMatrixIsRecordedThenMatchedInOneCall() throws {
        let dir = try folder("view-matrix")
        let matrix = try [String: Snapshotting<View, SnapshotImage>].matrix(devices: ["iphone3gs", "ipad"], callBar: [false, true])
        let view = Card()
        for (name, strategy) in matrix {
            #expect(verifySnapshot(of: view, as: strategy, named: name, snapshotDirectory: dir.path)?
                .contains("Automatically recorded") == true)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
            "aViewMatrixIsRecordedThenMatchedInOneCall.ipad-en-call.png", "aViewMatrixIsRecordedThenMatchedInOneCall.ipad-en.png",
            "aViewMatrixIsRecordedThenMatchedInOneCall.iphone3gs-en-call.png", "aViewMatrixIsRecordedThenMatchedInOneCall.iphone3gs-en.png",
        ])
        // The one-call form: no issue when every cell matches, the same view moved from cell to cell.
        assertSnapshots(of: view, as: matrix, snapshotDirectory: dir.path)
    }

    @Test func aMatrixNamesEveryCellAndRendersEachAsAsked() throws {
        let matrix = try [String: Snapshotting<AppScreen, SnapshotImage>].matrix(
            of: DemoApplication.self, devices: ["iphone3gs", "ipad"], languages: ["en", "de"], callBar: [false, true])
        #expect(matrix.keys.sorted() == ["ipad-de", "ipad-de-call", "ipad-en", "ipad-en-call",
                                         "iphone3gs-de", "iphone3gs-de-call", "iphone3gs-en", "iphone3gs-en-call"])
        let red = Theme.all[1].name
        let cells = try SnapshotEnvironment.matrix(application: DemoApplication.self, devices: ["iphone4", "iphone5"],
                                                   scales: [1, nil], themes: [nil, red])
        #expect(cells.map(\.name) == ["iphone3gs-en", "iphone3gs-en-\(red)", "iphone4-en", "iphone4-en-\(red)",
                                      "iphone5@1x-en", "iphone5@1x-en-\(red)", "iphone5-en", "iphone5-en-\(red)"])
        #expect(cells[4].device.pixelWidth == 320 && cells[4].device.pixelHeight == 568)
        #expect(throws: SnapshotConfigurationError.self) {
            try [String: Snapshotting<AppScreen, SnapshotImage>].matrix(of: DemoApplication.self, devices: ["ipad", "pixel"])
        }
        let screen = try DemoApplication.screen(named: "controls")
        let small = CrispSnapshot.render(screen, of: DemoApplication.self,
                                         in: try SnapshotEnvironment(application: DemoApplication.self, device: "iphone4", scale: 1))
        #expect(small.image?.width == 320 && small.image?.height == 480)
        let call = CrispSnapshot.render(screen, of: DemoApplication.self,
                                        in: try SnapshotEnvironment(application: DemoApplication.self, device: "iphone4", scale: 1, callBar: true))
        let (a, b) = (try #require(small.image), try #require(call.image))
        #expect(CrispSnapshot.compare(a, b).0.differingPixels > 1000, "the call bar changes the picture")
    }

    /// The determinism the strategy relies on: a screen drawn through the AVX2 kernels and
    /// through the SSE2 ones encodes to the same PNG bytes.
    @Test(arguments: ["signal", "controls", "plot"])
    func theSameSnapshotThroughAVX2AndSSE2IsTheSameBytes(screen name: String) throws {
        #expect(KernelDispatch.cpuHasAVX2, "this test compares the AVX2 kernels with SSE2: it needs a CPU with AVX2")
        let screen = try DemoApplication.screen(named: name)
        let environment = try SnapshotEnvironment(application: DemoApplication.self, device: "iphone4", language: "de", callBar: true)
        let avx2 = try #require(KernelDispatch.withPath(.avx2) { CrispSnapshot.render(screen, of: DemoApplication.self, in: environment) })
        let sse2 = try #require(KernelDispatch.withPath(.sse2) { CrispSnapshot.render(screen, of: DemoApplication.self, in: environment) })
        let a = try #require(avx2.image), b = try #require(sse2.image)
        #expect(a.pixels == b.pixels)
        #expect(avx2.pngData == sse2.pngData)
        #expect(!avx2.pngData.isEmpty)
    }
}
