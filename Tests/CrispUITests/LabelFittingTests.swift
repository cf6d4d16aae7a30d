import CrispGraphics
import CrispUI
import Foundation
import Testing

/// Labels whose text is longer than their bounds: shrink, then cut with "…".
@Suite struct LabelFittingTests {
    let text = "Dispositivo: iPhone 3GS, 4, 5, iPad, iPad Retina"

    @Test func fittingTextIsLeftAlone() {
        let label = Label(text: "time", fontSize: 14, frame: CGRect(x: 0, y: 0, width: 200, height: 20))
        let line = label.fittedLine()
        #expect(line.text == "time" && line.font?.size == 14)
    }

    @Test func longTextIsCutWithAnEllipsis() {
        let label = Label(text: text, fontSize: 14, frame: CGRect(x: 0, y: 0, width: 120, height: 20))
        let line = label.fittedLine()
        #expect(line.text.hasSuffix("…") && line.text.count < text.count)
        #expect(line.text.hasPrefix("Dispositivo"))
        #expect(line.size.width <= 120)
        #expect(line.font?.size == 14)
    }

    @Test func adjustingShrinksUpToTheMinimumScaleThenCuts() {
        let full = Label(text: text, fontSize: 14).textSize.width
        let label = Label(text: text, fontSize: 14, frame: CGRect(x: 0, y: 0, width: (full * 0.9).rounded(), height: 20))
        label.adjustsFontSizeToFitWidth = true
        label.minimumScaleFactor = 0.75
        var line = label.fittedLine()
        #expect(line.text == text)
        #expect(line.size.width <= label.bounds.width)
        #expect(line.font!.size < 14 && line.font!.size >= 14 * 0.75)
        label.frame.size.width = (full * 0.5).rounded()
        line = label.fittedLine()
        #expect(line.text.hasSuffix("…"))
        #expect(line.font?.size == 14 * 0.75)
        #expect(line.size.width <= label.bounds.width)
    }

    @Test func aRotatedLabelFitsAlongItsHeight() {
        let label = Label(text: text, fontSize: 14, frame: CGRect(x: 0, y: 0, width: 20, height: 100))
        label.orientation = .rotatedCounterClockwise
        let line = label.fittedLine()
        #expect(line.text.hasSuffix("…") && line.size.width <= 100)
    }
}
