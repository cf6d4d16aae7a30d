import CrispGraphics
import CrispSVG
import Foundation
import Testing

/// Inputs found by coverage-guided fuzzing (issue 16) that trapped the process, exactly as found.
/// Each must read and draw into a small canvas without a crash.
@Suite struct SVGFuzzRegressionTests {
    /// 40 bytes: a smooth cubic from x = 2e96 bent beyond Int's range when flattened.
    @Test func curveBentBeyondIntRange() throws {
        try draw(#"<svg><path d="M2E96 4S2..9 2..4"/></svg>"#)
    }

    /// 34 bytes: a nearly flat line clipped to a piece of subnormal Float height (NaN slope sweep).
    @Test func nearlyFlatLineToHugeX() throws {
        try draw(#"<svg><path d="M0 0L1e40 1"/></svg>"#)
    }

    /// A circle whose flattening estimate overflows Int, filled and stroked.
    @Test func circleOfRadius1e38() throws {
        try draw(#"<svg><circle r="1e38"/><circle cx="4" r="1e38" fill="none" stroke="red"/></svg>"#)
    }

    /// A filter region 4.4·10⁴⁹ units high (svg harness, issue 35's rerun): the warning that
    /// refuses it converted the height to `Int` and trapped before it could be printed.
    @Test func filterRegionBeyondIntRange() throws {
        let source = #"<svg width="100" height="100"><filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="80" height="44444444444444444444444444444444444444444444444444100"><feFlood flood-color="red"/></filter><rect width="50" height="50" filter="url(#f)"/></svg>"#
        try draw(source)
        let doc = try SVGDocument(string: source)
        #expect(doc.warnings.contains { $0.message.contains("filter region") })
    }

    /// Reads `source`, renders it at its own size (as the fuzz harness did: the document's
    /// origin on raster row 0) and into a small canvas.
    private func draw(_ source: String) throws {
        let doc = try SVGDocument(string: source)
        #expect(doc.makeImage() != nil)
        let context = try #require(CGContext(width: 16, height: 16))
        doc.draw(in: context, rect: CGRect(x: 0, y: 0, width: 16, height: 16))
        #expect(context.makeImage() != nil)
    }
}
