import CrispGraphics
@_spi(Testing) @testable import CrispSVG
import Foundation
import Testing

// `marker`: vertex positions and directions (SVGPathSegment), placement (refX/refY, viewBox,
// markerUnits, orient), which elements take markers, and the error cases.

@Suite("SVG markers")
struct SVGMarkerTests {
    func document(_ body: String) throws(SVGError) -> SVGDocument {
        try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60">\##(body)</svg>"##)
    }

    func image(_ body: String) throws -> CGImage {
        let doc = try document(body)
        #expect(doc.isFullySupported, "\(doc.unsupportedFeatures)")
        return try #require(doc.makeImage(scale: 2))
    }

    func vertices(_ d: String) -> [[CGFloat]] {
        SVGPathSegment.vertices(SVGPathParser.segmentsUpToError(from: d)).map {
            [$0.point.x, $0.point.y, ($0.angle * 1000).rounded() / 1000]
        }
    }

    @Test func verticesOfAnOpenPathPointAlongTheBisectors() {
        #expect(vertices("M0 0 L10 0 L10 10") == [[0, 0, 0], [10, 0, 45], [10, 10, 90]])
    }

    @Test func aClosedSubpathJoinsItsCloseAndFirstSegment() {
        // The closing segment from (10, 10) to (0, 0) points at -135°.
        #expect(vertices("M0 0 L10 0 L10 10 Z") == [[0, 0, -67.5], [10, 0, 45], [10, 10, 157.5], [0, 0, -67.5]])
    }

    @Test func zeroLengthSegmentsTakeTheirNeighboursDirections() {
        #expect(vertices("M0 0 L10 0 L10 0 L10 10") == [[0, 0, 0], [10, 0, 0], [10, 0, 45], [10, 10, 90]])
        #expect(vertices("M5 5 L5 5 L5 15") == [[5, 5, 90], [5, 5, 90], [5, 15, 90]])
    }

    @Test func curvesUseTheirControlPointsAndAnArcIsOneSegment() {
        #expect(vertices("M0 0 C0 10 10 10 10 0") == [[0, 0, 90], [10, 0, -90]])
        // Clockwise on screen from (0, 0) to (20, 0): up at the start, down at the end.
        #expect(vertices("M0 0 A10 10 0 0 1 20 0") == [[0, 0, -90], [20, 0, 90]])
        // Each subpath's start is a vertex; the second starts where a relative move leads.
        #expect(vertices("M0 0 h10 m5 5 v10").map { Array($0.prefix(2)) } == [[0, 0], [10, 0], [15, 5], [15, 15]])
    }

    @Test func aMarkerPlacesItsReferencePointOnTheVertex() throws {
        // userSpaceOnUse, no viewBox, orient 0: the content moved by vertex − ref.
        let marked = try image(##"<marker id="m" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10" refX="5" refY="5"><rect x="2" y="2" width="6" height="6" fill="#c30"/></marker><line x1="10" y1="10" x2="40" y2="30" stroke="#000" marker-start="url(#m)" marker-end="url(#m)"/>"##)
        let spelled = try image(##"<line x1="10" y1="10" x2="40" y2="30" stroke="#000"/><rect x="7" y="7" width="6" height="6" fill="#c30"/><rect x="37" y="27" width="6" height="6" fill="#c30"/>"##)
        #expect(marked.pixels == spelled.pixels)
    }

    @Test func strokeWidthUnitsViewBoxAndAutoOrientation() throws {
        // A viewBox of 0 0 10 10 onto 2 × 2 stroke widths of 3: 6 × 6 units; ref (10, 5) on the
        // vertex; the path goes down, so the content turns by 90°.
        let marked = try image(##"<marker id="m" viewBox="0 0 10 10" markerWidth="2" markerHeight="2" refX="10" refY="5" orient="auto"><rect width="10" height="10" fill="#06c"/></marker><path d="M30 10 V40" stroke="#000" stroke-width="3" marker-end="url(#m)"/>"##)
        let spelled = try image(##"<path d="M30 10 V40" stroke="#000" stroke-width="3"/><rect x="27" y="34" width="6" height="6" fill="#06c"/>"##)
        #expect(Agreement(marked, spelled).maximum <= 1)
    }

    @Test func autoStartReverseTurnsOnlyTheStart() throws {
        let reversed = try image(##"<marker id="m" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10" refY="5" orient="auto-start-reverse"><rect width="10" height="10" fill="#090"/></marker><path d="M20 30 H40" stroke="#000" marker-start="url(#m)" marker-end="url(#m)"/>"##)
        let spelled = try image(##"<path d="M20 30 H40" stroke="#000"/><rect x="10" y="25" width="10" height="10" fill="#090"/><rect x="40" y="25" width="10" height="10" fill="#090"/>"##)
        #expect(Agreement(reversed, spelled).maximum <= 1)
    }

    @Test func overflowIsClippedToTheViewport() throws {
        let clipped = try image(##"<marker id="m" markerUnits="userSpaceOnUse" markerWidth="4" markerHeight="4"><rect x="-10" y="-10" width="30" height="30" fill="#909"/></marker><path d="M30 30 h10" stroke="#000" marker-start="url(#m)"/>"##)
        let spelled = try image(##"<path d="M30 30 h10" stroke="#000"/><rect x="30" y="30" width="4" height="4" fill="#909"/>"##)
        #expect(clipped.pixels == spelled.pixels)
    }

    @Test func theShorthandWorksInSheetsAndAttributes() throws {
        let marker = ##"<marker id="m" markerUnits="userSpaceOnUse" markerWidth="4" markerHeight="4" refX="2" refY="2"><rect width="4" height="4" fill="#f00"/></marker>"##
        let spelled = try image(marker + ##"<polyline points="10,10 30,10 30,30" fill="none" stroke="#000" marker-start="url(#m)" marker-mid="url(#m)" marker-end="url(#m)"/>"##)
        #expect(try image(marker + ##"<polyline points="10,10 30,10 30,30" fill="none" stroke="#000" marker="url(#m)"/>"##).pixels == spelled.pixels)
        #expect(try image(marker + ##"<style>polyline { marker: url(#m) }</style><polyline points="10,10 30,10 30,30" fill="none" stroke="#000"/>"##).pixels == spelled.pixels)
    }

    @Test func onlyPathsLinesAndPolysTakeMarkers() throws {
        let doc = try document(##"<marker id="m"><rect width="3" height="3"/></marker><rect width="10" height="10" fill="none" marker-start="url(#m)"/>"##)
        #expect(try #require(doc.makeImage()).pixels.allSatisfy { $0 >> 24 == 0 })
    }

    @Test func brokenReferencesAreWarnings() throws {
        let doc = try document(##"<rect id="r" width="1" height="1"/><path d="M0 0 h10" marker-start="url(#missing)" marker-end="url(#r)"/>"##)
        #expect(doc.isFullySupported)
        let messages = doc.warnings.map(\.message)
        #expect(messages.contains { $0.contains("missing") } && messages.contains { $0.contains("<marker>") }, "\(messages)")
        #expect(doc.warnings.first?.location.line == 1)
    }

    @Test func aMarkerOnItsOwnContentIsACycle() throws {
        let doc = try document(##"<marker id="m" markerUnits="userSpaceOnUse"><path d="M0 0 h3" stroke="#000" marker-end="url(#m)"/></marker><path d="M10 10 h30" stroke="#000" marker-end="url(#m)"/>"##)
        #expect(doc.warnings.contains { $0.message.contains("leads back to itself") }, "\(doc.warnings)")
        #expect(doc.makeImage() != nil)
    }

    @Test func markerCountsAgainstTheExpansionBudget() throws {
        // Each marker's content has 10 vertices carrying the next marker: 10⁹ instances if expanded.
        var defs = ""
        let points = (0..<10).map { "\($0),0" }.joined(separator: " ")
        for k in 0..<9 {
            let next = k < 8 ? ##" marker="url(#m\##(k + 1))""## : ""
            defs += ##"<marker id="m\##(k)"><polyline points="\##(points)" stroke="#000"\##(next)/></marker>"##
        }
        do {
            _ = try document(defs + ##"<polyline points="\##(points)" stroke="#000" marker="url(#m0)"/>"##)
            Issue.record("expected a limit error")
        } catch {
            guard case .limitExceeded = error.kind else { Issue.record("expected limitExceeded, got \(error)"); return }
        }
    }
}
