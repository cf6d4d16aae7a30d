import CrispGraphics
import Testing

/// Unicode's Vertical_Orientation (UAX #50) through the system's ICU.
@Suite struct VerticalOrientationTests {
    @Test(arguments: [(Unicode.Scalar("日"), VerticalOrientation.upright), ("か", .upright), ("한", .upright), ("Ａ", .upright),
                      ("A", .rotated), ("1", .rotated), ("ب", .rotated), (" ", .rotated),
                      ("、", .transformedOrUpright), ("。", .transformedOrUpright), ("ぁ", .transformedOrUpright),
                      ("「", .transformedOrRotated), ("ー", .transformedOrRotated)])
    func orientation(character: Unicode.Scalar, expected: VerticalOrientation) {
        #expect(character.verticalOrientation == expected)
        #expect(character.verticalOrientation.isUpright == (expected == .upright || expected == .transformedOrUpright))
    }
}
