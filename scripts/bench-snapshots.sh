#!/usr/bin/env bash
# Times CrispSnapshotTesting as the example's tests use it, in a release build: one snapshot
# assertion of an iPhone 4 screen (HelloCrisp's About, in German) and the example's whole
# device × language × call-bar matrix (12 cells, one assertSnapshots call), both against the
# references committed in Examples/HelloCrisp/Tests/HelloCrispTests/__Snapshots__. Prints the
# median and the range of each; nothing here is a test (a timing never fails anything).
#
#     scripts/bench-snapshots.sh [ROUNDS]        (default 21 single assertions, 7 matrices)
#
# It writes a throwaway package into .build-snapshot-bench/package (depending on Crisp and the
# example by path) and builds it there in release, under /tmp/crisp-release.lock as every
# release build on a shared machine: the first run builds Crisp in release (minutes).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-21}
work="$root/.build-snapshot-bench"
pkg="$work/package"
mkdir -p "$pkg/Tests/SnapshotBench"
cat > "$pkg/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "SnapshotBench",
    dependencies: [
        .package(name: "Crisp", path: "$root"),
        .package(name: "HelloCrisp", path: "$root/Examples/HelloCrisp"),
    ],
    targets: [
        .testTarget(name: "SnapshotBench", dependencies: [
            .product(name: "CrispSnapshotTesting", package: "Crisp"),
            .product(name: "HelloCrisp", package: "HelloCrisp"),
        ]),
    ]
)
EOF
# The example declares no library product for its app; the bench needs one.
if ! grep -q '.library(name: "HelloCrisp"' "$root/Examples/HelloCrisp/Package.swift"; then
    echo "bench-snapshots.sh: Examples/HelloCrisp/Package.swift declares no HelloCrisp library product" >&2
    exit 1
fi
cat > "$pkg/Tests/SnapshotBench/Bench.swift" <<EOF
import CrispSnapshotTesting
import Foundation
import HelloCrisp
import Testing

@Test func bench() throws {
    let references = "$root/Examples/HelloCrisp/Tests/HelloCrispTests/__Snapshots__/SnapshotTests"
    let rounds = $rounds
    let about = try HelloApp.screen(named: "about"), tiles = try HelloApp.screen(named: "tiles")
    let one = try Snapshotting<AppScreen, SnapshotImage>.image(of: HelloApp.self, device: "iphone4", language: "de")
    let matrix = try [String: Snapshotting<AppScreen, SnapshotImage>].matrix(
        of: HelloApp.self, devices: ["iphone3gs", "iphone4", "ipad"], languages: ["en", "de"], callBar: [false, true])
    func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    func report(_ what: String, _ samples: [Double], unit: Double, _ name: String) {
        let s = samples.sorted()
        print(String(format: "%@: median %.1f %@, min %.1f, max %.1f (%d runs)", what, s[s.count / 2] * unit, name,
                     s[0] * unit, s[s.count - 1] * unit, s.count))
    }
    // Warm: fonts, strings, the first allocation of each size.
    assertSnapshot(of: about, as: one, named: "iphone4-de", record: .never, snapshotDirectory: references, testName: "about()")
    let single = (0..<rounds).map { _ in
        time { assertSnapshot(of: about, as: one, named: "iphone4-de", record: .never, snapshotDirectory: references, testName: "about()") }
    }
    let whole = (0..<max(3, rounds / 3)).map { _ in
        time { assertSnapshots(of: tiles, as: matrix, record: .never, snapshotDirectory: references, testName: "tiles()") }
    }
    report("one iPhone 4 snapshot assertion (about, de)", single, unit: 1000, "ms")
    report("the example's matrix (tiles, 3 devices x 2 languages x call bar, 12 assertions)", whole, unit: 1000, "ms")
}
EOF
flock /tmp/crisp-release.lock swift build -c release --build-tests --package-path "$pkg" --scratch-path "$work/build" >&2
swift test -c release --skip-build --package-path "$pkg" --scratch-path "$work/build" 2>&1 | grep -E "snapshot assertion|matrix|✘|↳" || true
