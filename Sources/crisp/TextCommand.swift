import ArgumentParser
import CrispGraphics
import Foundation

struct TextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Render one line of text in the bundled UI font to a PNG (black on white).",
        discussion: "Used to compare Crisp's text with other renderers (see Tests/CrispGraphicsTests/Fixtures/text/).")

    @Argument(help: "The text.")
    var text: String

    @Option(name: .shortAndLong, help: "Output PNG path.")
    var output: String

    @Option(name: .long, help: "Font size in pixels per em.")
    var size: Double = 17

    @Flag(name: .long, help: "Use the bold face.")
    var bold = false

    @Flag(name: .long, help: "Leave out pair kerning.")
    var noKerning = false

    @Option(name: .long, help: "Pen start x in pixels (may be fractional).")
    var x: Double = 4

    @Option(name: .long, help: "Baseline, in pixels from the top of the image.")
    var baseline: Double?

    @Option(name: .long, help: "Image width in pixels (default: fits the text).")
    var width: Int?

    @Option(name: .long, help: "Image height in pixels (default: 2 em).")
    var height: Int?

    func validate() throws {
        if !(size > 0 && size <= 1000) { throw ValidationError("--size must be in (0, 1000]") }
    }

    func run() throws {
        let font = try CTFont.uiFont(bold ? .emphasizedSystem : .system, size: CGFloat(size))
        let line = CTLine(string: text, font: font, kerning: !noKerning)
        let w = width ?? Int((CGFloat(x) * 2 + line.width).rounded(.up))
        let h = height ?? Int((2 * size).rounded(.up))
        guard let ctx = CGContext(width: max(1, w), height: max(1, h)) else {
            throw ValidationError("cannot make a \(w)×\(h) image")
        }
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: w, height: h))
        ctx.setFillColor(gray: 0, alpha: 1)
        let top = baseline ?? (size * 1.4).rounded()
        ctx.textPosition = CGPoint(x: x, y: Double(h) - top)
        line.draw(in: ctx)
        try ctx.makeImage()!.writePNG(to: output)
    }
}
