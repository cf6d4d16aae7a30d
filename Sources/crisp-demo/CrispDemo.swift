import ArgumentParser
import CrispGraphics
import Foundation

@main
struct CrispDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crisp-demo",
        abstract: "The Crisp demo. Until the window lands (issue 4), it renders its sample screen to a PNG.")

    @Option(name: .long, help: "Where to write the PNG.")
    var snapshot: String = "crisp-demo.png"

    @Option(name: .long, help: "Pixels per point (1, 2 or 3).")
    var scale: Int = 2

    func validate() throws {
        guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3") }
    }

    func run() throws {
        let size = CGSize(width: 320, height: 240)
        guard let ctx = CGContext(width: Int(size.width) * scale, height: Int(size.height) * scale) else {
            throw ValidationError("cannot create a \(Int(size.width) * scale)×\(Int(size.height) * scale) canvas")
        }
        // A UIKit-style view context: origin top-left, y down, in points.
        ctx.translateBy(x: 0, y: size.height * CGFloat(scale))
        ctx.scaleBy(x: CGFloat(scale), y: -CGFloat(scale))
        SampleScreen.draw(in: ctx, size: size)
        let image = ctx.makeImage()!
        try image.writePNG(to: snapshot)
        print("wrote \(snapshot) (\(image.width)×\(image.height) px, \(scale)× of \(Int(size.width))×\(Int(size.height)) pt)")
    }
}
