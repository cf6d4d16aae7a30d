import CrispSnapshotTesting
import HelloCrisp
import Testing

/// The screens compared pixel for pixel with the PNGs in `__Snapshots__/SnapshotTests`
/// (a missing one is recorded and the test fails once; `SNAPSHOT_TESTING_RECORD=all` records
/// them all again). The pixels are the same on every x86-64 and arm64 machine.
@Suite struct SnapshotTests {
    /// Every device × language × call-bar state in one call: 12 PNGs, named like
    /// `tiles.iphone3gs-de-call.png`.
    @Test func tiles() throws {
        assertSnapshots(of: try HelloApp.screen(named: "tiles"),
                        as: try .matrix(of: HelloApp.self, devices: ["iphone3gs", "iphone4", "ipad"],
                                        languages: ["en", "de"], callBar: [false, true]))
    }

    /// One screen on one device.
    @Test func about() throws {
        assertSnapshot(of: try HelloApp.screen(named: "about"),
                       as: try .image(of: HelloApp.self, device: "iphone4", language: "de"), named: "iphone4-de")
    }
}
