import CrispGraphics
@_spi(Testing) @testable import CrispSVG
import Foundation
import Testing

@Suite("SVG values: colours, transforms, numbers")
struct SVGValueTests {
    @Test(arguments: [
        ("#f00", SVGColor(red: 1, green: 0, blue: 0)),
        ("#FF8000", SVGColor(red: 1, green: 128.0 / 255, blue: 0)),
        ("#0f08", SVGColor(red: 0, green: 1, blue: 0, alpha: 136.0 / 255)),
        ("#00000080", SVGColor(red: 0, green: 0, blue: 0, alpha: 128.0 / 255)),
        ("rgb(255, 0, 51)", SVGColor(red: 1, green: 0, blue: 0.2)),
        ("rgb(100%,50%,0%)", SVGColor(red: 1, green: 0.5, blue: 0)),
        ("rgba(0,0,255,0.5)", SVGColor(red: 0, green: 0, blue: 1, alpha: 0.5)),
        ("rgb(0 0 255 / 25%)", SVGColor(red: 0, green: 0, blue: 1, alpha: 0.25)),
        ("rgb(300, -5, 0)", SVGColor(red: 1, green: 0, blue: 0)),
        ("hsl(120, 100%, 50%)", SVGColor(red: 0, green: 1, blue: 0)),
        ("red", SVGColor(red: 1, green: 0, blue: 0)),
        ("CornflowerBlue", SVGColor(red: 100.0 / 255, green: 149.0 / 255, blue: 237.0 / 255)),
        ("  navy ", SVGColor(red: 0, green: 0, blue: 128.0 / 255)),
        ("transparent", SVGColor(red: 0, green: 0, blue: 0, alpha: 0)),
        ("rebeccapurple", SVGColor(red: 0x66 / 255.0, green: 0x33 / 255.0, blue: 0x99 / 255.0)),
    ])
    func colours(text: String, expected: SVGColor) throws {
        let c = try #require(SVGColor(parsing: text))
        #expect(abs(c.red - expected.red) < 1e-9 && abs(c.green - expected.green) < 1e-9)
        #expect(abs(c.blue - expected.blue) < 1e-9 && abs(c.alpha - expected.alpha) < 1e-9)
    }

    @Test(arguments: ["#ff", "#ggg", "#12345", "rgb(1,2)", "rgb(1,2,3", "notacolour", "", "hsl(1, 2, 3)", "url(#a)"])
    func notColours(text: String) {
        #expect(SVGColor(parsing: text) == nil)
    }

    @Test func theNamedColourTableIsComplete() {
        #expect(SVGColor.namedColors.count == 148)
        #expect(SVGColor.namedColors["grey"] == SVGColor.namedColors["gray"])
        #expect(SVGColor.namedColors["lightgoldenrodyellow"] == 0xFAFAD2)
    }

    func transform(_ s: String) throws -> CGAffineTransform { try SVGTransformParser.transform(from: s) }

    func close(_ a: CGAffineTransform, _ b: CGAffineTransform) -> Bool {
        abs(a.a - b.a) < 1e-9 && abs(a.b - b.b) < 1e-9 && abs(a.c - b.c) < 1e-9 && abs(a.d - b.d) < 1e-9
            && abs(a.tx - b.tx) < 1e-9 && abs(a.ty - b.ty) < 1e-9
    }

    @Test func transformLists() throws {
        #expect(try transform("matrix(1 2 3 4 5 6)") == CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        #expect(try transform("translate(10)") == CGAffineTransform(translationX: 10, y: 0))
        #expect(try transform("translate(10,-5)") == CGAffineTransform(translationX: 10, y: -5))
        #expect(try transform("scale(2)") == CGAffineTransform(scaleX: 2, y: 2))
        #expect(try transform("scale(2 3)") == CGAffineTransform(scaleX: 2, y: 3))
        #expect(close(try transform("skewX(45)"), CGAffineTransform(a: 1, b: 0, c: 1, d: 1, tx: 0, ty: 0)))
        #expect(close(try transform("skewY(45)"), CGAffineTransform(a: 1, b: 1, c: 0, d: 1, tx: 0, ty: 0)))
        // "A B" applies B first: translate then scale means points are scaled, then moved.
        let t = try transform("translate(10 20) scale(2)")
        #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 12, y: 22))
        #expect(try transform("translate(10,20),scale(2)") == t)
        #expect(try transform(" translate( 10 , 20 )scale(2) ") == t)
        #expect(try transform("") == .identity)
    }

    @Test func rotateAboutACentre() throws {
        let t = try transform("rotate(90 10 10)")
        let q = CGPoint(x: 20, y: 10).applying(t)
        #expect(abs(q.x - 10) < 1e-9 && abs(q.y - 20) < 1e-9)   // y down: +90° turns +x into +y
        #expect(close(t, try transform("translate(10 10) rotate(90) translate(-10 -10)")))
    }

    @Test(arguments: [
        ("rotate(1 2)", 0, "rotate() takes 1 or 3 numbers, not 2"),
        ("scale()", 0, "scale() takes 1 or 2 numbers, not 0"),
        ("translate(1", 11, "unterminated translate("),
        ("spin(4)", 0, "unknown transform spin()"),
        ("matrix(1 2 3 4 5 x)", 17, "expected a number or ')'"),
        ("translate 4", 10, "expected '(' after translate"),
        ("(4)", 0, "expected a transform name"),
    ])
    func transformErrors(text: String, offset: Int, message: String) {
        #expect(throws: SVGPathParser.Failure(message: message, offset: offset)) { try transform(text) }
    }

    @Test func numbersFollowTheGrammar() throws {
        var s = SVGValueScanner("1e2em.5.5-1-2 +.3e-1x")
        #expect(s.number() == 100)
        #expect(s.letters() == "em")
        #expect(s.number() == 0.5)
        #expect(s.number() == 0.5)
        #expect(s.number() == -1)
        #expect(s.number() == -2)
        s.skipWhiteSpace()
        #expect(s.number() == 0.03)
        #expect(s.number() == nil)
        #expect(s.letters() == "x")
        var overflow = SVGValueScanner("1e400")
        #expect(overflow.number() == nil)
        #expect(overflow.i == 0)
        var long = SVGValueScanner("123456789012345678901234567890")
        let parsed = long.number()
        let value = try #require(parsed)
        #expect(abs(value / 1.2345678901234567890e29 - 1) < 1e-15)
    }

    /// The byte-wise trim gives Foundation's result for every ASCII character at either end,
    /// Unicode white space, combining marks next to white space, and CR LF.
    @Test func trimmingMatchesFoundation() {
        var samples: [String] = ["", " ", "\r\n", " \u{A0}", "\u{A0}red", "red\u{A0}", "red \u{301}", " \u{301}red",
                                 "\u{2003}none\u{2003}", "\u{85}x\u{85}", "x\u{200B}", "\t a b \n", "é", " é ", "a\r\n"]
        for b in 0..<128 {
            let c = String(UnicodeScalar(UInt8(b)))
            samples += [c, c + "x", "x" + c, c + "x" + c, " " + c + " ", c + "é" + c]
        }
        for s in samples {
            #expect(s.trimmingWhiteSpaceAndNewlines() == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(s.unicodeScalars))")
            #expect(s.trimmingWhiteSpace() == s.trimmingCharacters(in: .whitespaces), "\(Array(s.unicodeScalars))")
            let sub = ("<" + s + ">").dropFirst().dropLast()
            #expect(sub.trimmingWhiteSpaceAndNewlines() == sub.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(sub.trimmingWhiteSpace() == sub.trimmingCharacters(in: .whitespaces))
        }
    }
}
