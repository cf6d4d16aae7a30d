// A test imports CrispSnapshotTesting alone: swift-snapshot-testing's vocabulary
// (`assertSnapshot`, `Snapshotting`, record modes, `withSnapshotTesting`) and the emulator's
// (`CrispApplication`, `AppScreen`, `View`, …) come with it.
@_exported import CrispApp
@_exported import SnapshotTesting
