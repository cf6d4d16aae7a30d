import ArgumentParser
import CrispBenchmarks
import CrispGraphics
import CrispSVG
import Foundation

/// `crisp bench filters`: SVG filter scenes (issue 31), each parsed once and rendered repeatedly
/// at its intrinsic size; `--write DIR` writes the same SVG files so a peer can be timed on them
/// (`resvg --perf DIR/name.svg out.png`).
struct FilterBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "Measure SVG filters: a large Gaussian blur, lighting, turbulence, a drop-shadow-heavy UI.")

    @Option(name: .long, help: "Minimum seconds timed per scene.")
    var minTime: Double = 1

    @Option(name: .long, help: "Write the scenes' SVG files into this directory instead of timing them.")
    var write: String?

    func validate() throws {
        if !(minTime > 0 && minTime <= 60) { throw ValidationError("--min-time must be in (0, 60]") }
    }

    static let scenes: [(name: String, svg: String)] = [
        ("large_blur", """
            <svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
            <filter id="b" x="0" y="0" width="1" height="1"><feGaussianBlur stdDeviation="24"/></filter>
            <g filter="url(#b)"><rect width="800" height="600" fill="#234"/>
            <circle cx="220" cy="200" r="140" fill="#e63"/><circle cx="520" cy="330" r="180" fill="#3ae"/>
            <rect x="300" y="60" width="220" height="160" rx="30" fill="#fd4"/><rect x="80" y="380" width="300" height="150" fill="#6c6"/></g>
            </svg>
            """),
        ("lighting", """
            <svg xmlns="http://www.w3.org/2000/svg" width="600" height="400" viewBox="0 0 600 400">
            <filter id="l" x="0" y="0" width="1" height="1"><feGaussianBlur in="SourceAlpha" stdDeviation="6" result="bump"/>
            <feSpecularLighting in="bump" surfaceScale="6" specularConstant="1" specularExponent="24" lighting-color="#fff" result="spec"><fePointLight x="150" y="80" z="200"/></feSpecularLighting>
            <feComposite in="spec" in2="SourceAlpha" operator="in" result="s"/>
            <feDiffuseLighting in="bump" surfaceScale="6" diffuseConstant="0.9" lighting-color="#fed" result="diff"><feDistantLight azimuth="225" elevation="50"/></feDiffuseLighting>
            <feComposite in="SourceGraphic" in2="diff" operator="arithmetic" k1="1" result="lit"/>
            <feComposite in="s" in2="lit" operator="arithmetic" k2="1" k3="1"/></filter>
            <g filter="url(#l)"><rect x="30" y="30" width="540" height="340" rx="40" fill="#b43"/>
            <circle cx="180" cy="200" r="90" fill="#49c"/><circle cx="420" cy="200" r="90" fill="#9c4"/></g>
            </svg>
            """),
        ("turbulence", """
            <svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
            <filter id="t" x="0" y="0" width="1" height="1"><feTurbulence type="fractalNoise" baseFrequency="0.012" numOctaves="4" seed="5"/></filter>
            <rect width="512" height="512" filter="url(#t)"/>
            </svg>
            """),
        ("drop_shadow_ui", {
            var cards = ""
            for i in 0..<24 {
                let x = 20 + (i % 6) * 130, y = 20 + (i / 6) * 145
                cards += "<g filter=\"url(#s)\"><rect x=\"\(x)\" y=\"\(y)\" width=\"110\" height=\"120\" rx=\"10\" fill=\"#fff\"/>"
                cards += "<rect x=\"\(x + 10)\" y=\"\(y + 10)\" width=\"90\" height=\"50\" rx=\"4\" fill=\"#\(["49c", "c94", "4c9", "94c"][i % 4])\"/></g>"
            }
            return """
                <svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
                <filter id="s" x="-20%" y="-20%" width="140%" height="150%"><feDropShadow dx="0" dy="4" stdDeviation="6" flood-color="#000" flood-opacity="0.35"/></filter>
                <rect width="800" height="600" fill="#eef"/>\(cards)
                </svg>
                """
        }()),
    ]

    func run() throws {
        if let write {
            try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true)
            for s in Self.scenes { try s.svg.write(toFile: write + "/" + s.name + ".svg", atomically: true, encoding: .utf8) }
            return
        }
        warnIfDebugBuild()
        for s in Self.scenes {
            let doc = try SVGDocument(string: s.svg)
            let (w, h) = doc.pixelSize(scale: 1)
            guard let context = CGContext(width: w, height: h) else { throw ValidationError("cannot make a \(w)×\(h) canvas") }
            let seconds = Stopwatch.median(minimumSeconds: minTime) {
                context.clear(CGRect(x: 0, y: 0, width: w, height: h))
                doc.drawFillingBitmap(context)
            }
            print(s.name.padding(toLength: 16, withPad: " ", startingAt: 0) + String(format: "%8.2f ms", seconds * 1000))
        }
    }
}
