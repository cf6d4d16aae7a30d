@_spi(Testing) import CrispGraphics
import CrispSVG
import CrispTestSupport
import Foundation
import Testing

// A fixed-seed mutation corpus: bench scenes and hand-written documents, cut, spliced and
// corrupted byte-wise and token-wise. Every mutant must either read (and then draw, into a
// small canvas so the test stays fast) or throw an SVGError with a place inside the input —
// never crash, never hang. Work is bounded by counts, not timed (speed lives in benchmarks):
// the segments offered to the rasterizer for each drawing stay below `segmentBudget`.

@Suite("SVG mutation corpus")
struct SVGMutationTests {
    /// The most segments drawing any one document here may offer the rasterizer. Today the
    /// largest is 563 (a mutant; the hostile documents offer at most 12, their limits cut the
    /// work before the rasterizer); a lost limit on dashes, curve segments or arc pieces would
    /// offer millions. The inputs are fixed, so the counts are too.
    static let segmentBudget = 100_000

    static let seeds: [String] = [
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 32 32"><defs><clipPath id="c" clipPathUnits="objectBoundingBox"><circle cx=".5" cy=".5" r=".4"/></clipPath><linearGradient id="g" x2="0" y2="1" spreadMethod="repeat"><stop offset="0" stop-color="red"/><stop offset=".5" stop-color="#00f" stop-opacity=".5"/></linearGradient><radialGradient id="r" href="#g" fx=".2" r=".3" spreadMethod="reflect"/></defs><g transform="rotate(10 16 16) skewX(5)" clip-path="url(#c)" style="stroke:black;stroke-width:2"><path d="M2 2 L30 2 q4 4 0 8 t0 8 a4 6 30 1 0 -8 8 C20 30 10 20 2 30 s-4 -4 0 -8 Z" fill="url(#g)" stroke-dasharray="3 1 2" stroke-linejoin="round"/><rect x="4" y="4" width="10" height="8" rx="3" fill="url(#r)" opacity=".5" stroke="none"/><polyline points="1,1 5,9 9,1" fill="none" stroke-linecap="square"/><ellipse cx="20" cy="20" rx="5" ry="3" fill="rgb(10%,20%,30%)"/><line x1="0" y1="32" x2="32" y2="0"/></g></svg>"##,
        ##"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "#123">]><svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><!-- c --><g fill="&a;"><polygon points="0,0 16,0 8,16" fill-rule="evenodd"/><circle cx="8" cy="8" r="4" stroke="hsl(200,50%,50%)"/></g><![CDATA[x]]></svg>"##,
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><pattern id="p" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(20)" viewBox="0 0 2 2"><rect width="1" height="1" fill="url(#p) red"/></pattern><pattern id="q" href="#p" x="0.1" width="0.5" height="0.5" patternContentUnits="objectBoundingBox"/><marker id="m" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" marker-start="url(#m)"/></marker><path d="M2 2 L20 2 A5 5 0 0 1 30 10 L30 10 Z m5 5 q3 3 6 0" stroke="url(#q)" fill="url(#p)" marker="url(#m)"/><text x="1 8 15" y="25" dx="1" dy="-1 1" rotate="5 -5" font-size="9" font-weight="bolder" text-anchor="middle" letter-spacing="1" xml:space="preserve">A <tspan font-family="Serif" dy="2" word-spacing="3">b c</tspan>&#x1F600;</text></svg>"##,
    ]

    static let tokens = ["<", ">", "/>", "</g>", "<g>", "\"", "=", "&", "&amp;", "&#0;", "&#x110000;", "url(#c)", "url(#g)", "url(#nope)",
                         "M", "Z", "a", "1e999", "-", ".", ",", "NaN", "1e308", "1e-320", "99999999999999999999", "0 0 0 0", "##",
                         "<clipPath id=\"c\"><rect width=\"1\" height=\"1\" clip-path=\"url(#c)\"/></clipPath>", "id=\"g\"",
                         " transform=\"scale(0)\" ", " stroke-dasharray=\"0.0001\" ", " stroke-width=\"1e30\" ", "<!--", "]]>",
                         "<svg>", "\u{0}", "\u{FF}", "é", "\n"]

    static func mutants() throws -> [(String, [UInt8])] {
        var rng = SplitMix64(seed: 0x5EED_C0DE)
        var bases: [[UInt8]] = seeds.map { Array($0.utf8) }
        for scene in ["transforms_clip", "gradients", "strokes_miter"] {
            // A slice of each (whole scenes would make the corpus slow without finding more).
            let bytes = try Fixtures.bytes("scenes/\(scene).svg")
            bases.append(Array(bytes.prefix(6000)) + Array("</g></g></svg>".utf8))
        }
        var result: [(String, [UInt8])] = []
        for k in 0..<600 {
            var b = bases[Int(rng.next() % UInt64(bases.count))]
            let edits = 1 + Int(rng.next() % 4)
            for _ in 0..<edits where !b.isEmpty {
                let at = Int(rng.next() % UInt64(b.count))
                switch rng.next() % 6 {
                case 0: b[at] = UInt8(truncatingIfNeeded: rng.next())                                  // flip a byte
                case 1: b.removeSubrange(at..<min(b.count, at + 1 + Int(rng.next() % 40)))               // delete a run
                case 2: b.insert(contentsOf: Array(tokens[Int(rng.next() % UInt64(tokens.count))].utf8), at: at)   // insert a token
                case 3: b = Array(b.prefix(at))                                                         // truncate
                case 4:                                                                                  // duplicate a run
                    let end = min(b.count, at + Int(rng.next() % 200))
                    b.insert(contentsOf: b[at..<end], at: Int(rng.next() % UInt64(b.count)))
                default:                                                                                 // digit → other digit
                    if let i = b[at...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) { b[i] = 0x30 + UInt8(rng.next() % 10) }
                }
            }
            result.append(("mutant \(k)", b))
        }
        return result
    }

    @Test func mutantsReadOrFailCleanly() throws {
        var read = 0, failed = 0, mostSegments = 0
        for (name, bytes) in try SVGMutationTests.mutants() {
            do {
                let doc = try SVGDocument(data: bytes)
                read += 1
                if let context = CGContext(width: 32, height: 32) {
                    doc.drawFillingBitmap(context)
                    #expect(context.rasterizer.segmentsOffered <= Self.segmentBudget, "\(name)")
                    mostSegments = max(mostSegments, context.rasterizer.segmentsOffered)
                }
            } catch {
                failed += 1
                let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
                #expect(error.line >= 1 && error.line <= lines, "\(name): \(error)")
                #expect(error.column >= 1, "\(name): \(error)")
                #expect(!error.description.isEmpty)
            }
        }
        // The corpus exercises both outcomes (malformed XML rejects most mutants; invalid values read with warnings).
        #expect(read > 10 && failed > 100, "read \(read), failed \(failed)")
        print("most segments of a mutant: \(mostSegments)")
    }

    @Test func hostileButValidDocumentsDoBoundedWork() throws {
        let documents = [
            // A huge dash count is bounded by the dasher; a huge stroke by the clip.
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><path d="M0 0 L1e9 1e9" stroke="red" stroke-dasharray="0.001"/><path d="M0 0 L30 30" stroke="red" stroke-width="1e30"/></svg>"##,
            // Many reflect periods are bounded by the gradient plan.
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><linearGradient id="g" gradientUnits="userSpaceOnUse" x2="0.0001" spreadMethod="reflect"><stop stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient><rect width="1e9" height="32" fill="url(#g)"/></svg>"##,
            // Arcs with absurd radii and coordinates.
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><path d="M0 0 A1e300 1e-300 45 1 1 1e300 -1e300 A0.0000001 1e9 0 0 0 5 5 Z"/></svg>"##,
            // Entity expansion that would be huge if entities nested (they do not).
            ##"<!DOCTYPE svg [<!ENTITY a "&b;&b;"><!ENTITY b "&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><title>&amp;</title></svg>"##,
        ]
        var largest = 0
        for (k, source) in documents.enumerated() {
            if let doc = try? SVGDocument(string: source), let context = CGContext(width: 32, height: 32) {
                doc.drawFillingBitmap(context)
                #expect(context.rasterizer.segmentsOffered <= Self.segmentBudget, "document \(k)")
                largest = max(largest, context.rasterizer.segmentsOffered)
            }
        }
        #expect(largest > 0)
        print("most segments of a hostile document: \(largest)")
    }
}
