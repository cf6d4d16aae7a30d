// swift-tools-version:6.0
import PackageDescription

// The executables keep their DWARF (release builds are `-g`: backtraces and debuggers still see
// every line) but the linker stores it zlib-compressed, as distributions ship debug info: about
// 9 MB of the demo's 14 MB were debug sections, against 2.3 MB of code. `addr2line`, gdb and
// lldb read compressed sections. Executable targets only: library targets never take unsafe
// flags, so packages depending on Crisp are unaffected.
var compressedDebugInfo: [LinkerSetting] {
    [.unsafeFlags(["-Xlinker", "--compress-debug-sections=zlib"], .when(platforms: [.linux]))]
}

let package = Package(
    name: "Crisp",
    products: [
        .library(name: "CrispGraphics", targets: ["CrispGraphics"]),
        .library(name: "CrispSVG", targets: ["CrispSVG"]),
        .library(name: "CrispUI", targets: ["CrispUI"]),
        .library(name: "CrispWidgets", targets: ["CrispWidgets"]),
        .library(name: "CrispX11", targets: ["CrispX11"]),
        .library(name: "CrispApp", targets: ["CrispApp"]),
        .library(name: "CrispSnapshotTesting", targets: ["CrispSnapshotTesting"]),
        .executable(name: "crisp", targets: ["crisp"]),
        .executable(name: "crisp-demo", targets: ["crisp-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Documentation only (`swift package generate-documentation --target CrispGraphics`):
        // a command plugin, which no target depends on, so `swift build` builds nothing of it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Snapshot tests of one's own views (CrispSnapshotTesting): only its `SnapshotTesting`
        // target is built, which depends on nothing; swift-syntax and swift-custom-dump are
        // resolved (its other products' dependencies) but never compiled.
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    // Every target lists each module it imports (no reliance on transitive dependencies).
    targets: [
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Text: HarfBuzz shapes (glyph ids and positions; Crisp still draws the outlines) and
        // fontconfig finds the system's fonts by family, as every Linux toolkit does. Only
        // CrispGraphics imports them; the other targets see fonts through its CTFont/FontSource.
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]
        ),
        // Bidirectional text: GNU FriBidi resolves the Unicode Bidirectional Algorithm's levels
        // (UAX #9); CTLine reorders and shapes the runs.
        .systemLibrary(
            name: "CFribidi",
            pkgConfig: "fribidi",
            providers: [.apt(["libfribidi-dev"])]
        ),
        // Line breaking: the system's ICU (Debian libicu-dev) gives the break opportunities of
        // UAX #14 (CTTypesetter chooses among them). A small C target rather than a system
        // library: ICU's headers cannot be imported into Swift beside Foundation's own renamed
        // ICU module (same C types, other definitions); its symbols (swift_*) do not clash.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),
        .systemLibrary(
            name: "CFontconfig",
            pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]
        ),
        // Raster images in SVG beyond PNG (CrispSVG's `<image>` and `feImage`): JPEG through
        // libjpeg-turbo's TurboJPEG API, GIF through giflib (Debian ships no pkg-config file for
        // it on every release, so the module map names the library), WebP through libwebp and
        // its demuxer (the first frame of an animation). Decoders are a solved problem.
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CGIF",
            providers: [.apt(["libgif-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]
        ),
        // The AVX2 compositing kernels, chosen at run time (each function carries its own
        // `target("avx2")` attribute: no flags).
        .target(name: "CCrispKernels"),
        .target(name: "CrispGraphics", dependencies: ["CZlib", "CCrispKernels", "CHarfBuzz", "CFribidi", "CICU", "CFontconfig"]),
        .target(name: "CrispSVG", dependencies: ["CrispGraphics", "CTurboJPEG", "CGIF", "CWebP"]),
        .target(name: "CrispUI", dependencies: ["CrispGraphics"]),
        .target(name: "CrispBenchmarks", dependencies: ["CrispGraphics"]),
        .executableTarget(
            name: "crisp",
            dependencies: [
                "CrispGraphics",
                "CrispBenchmarks",
                "CrispSVG",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: compressedDebugInfo
        ),
        .target(name: "CrispWidgets", dependencies: ["CrispGraphics", "CrispUI"]),
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11",
            providers: [.apt(["libx11-dev", "libxext-dev", "libxrandr-dev"])]
        ),
        .target(name: "CrispX11", dependencies: ["CrispGraphics", "CrispUI", "CX11"]),
        // The emulator as a library: an app declares its screens and gets the command line,
        // the keys, the X11 and headless hosts and the status file.
        .target(
            name: "CrispApp",
            dependencies: [
                "CrispGraphics",
                "CrispUI",
                "CrispWidgets",
                "CrispX11",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `Snapshotting` strategies for swift-snapshot-testing: a view or a screen on a named
        // device, scale, language, theme and call-bar state. Links XCTest: for test targets.
        .target(
            name: "CrispSnapshotTesting",
            dependencies: [
                "CrispApp",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        .target(name: "CrispDemoApp", dependencies: ["CrispApp", "CrispGraphics", "CrispUI", "CrispWidgets"]),
        .executableTarget(
            name: "crisp-demo",
            dependencies: ["CrispDemoApp"],
            linkerSettings: compressedDebugInfo
        ),
        // Golden images and the seeded generator, shared by the test targets.
        .target(name: "CrispTestSupport", dependencies: ["CrispGraphics"], path: "Tests/CrispTestSupport"),
        .testTarget(name: "CrispGraphicsTests", dependencies: ["CrispGraphics", "CrispTestSupport"], exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "CrispSVGTests", dependencies: ["CrispSVG", "CrispGraphics", "CrispTestSupport"], exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "CrispUITests", dependencies: ["CrispUI", "CrispGraphics", "CrispTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "CrispWidgetsTests", dependencies: ["CrispWidgets", "CrispUI", "CrispGraphics", "CrispTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "CrispDemoAppTests", dependencies: ["CrispDemoApp", "CrispApp", "CrispWidgets", "CrispUI", "CrispGraphics", "CrispTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "CrispAppTests", dependencies: ["CrispApp", "CrispTestSupport"], exclude: ["Golden"]),
        .testTarget(
            name: "CrispSnapshotTestingTests",
            dependencies: [
                "CrispSnapshotTesting", "CrispApp", "CrispDemoApp", "CrispGraphics",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        .testTarget(name: "CrispCLITests", dependencies: ["crisp", "CrispGraphics"]),
        .testTarget(name: "CrispX11Tests", dependencies: ["CrispX11", "CX11", "CrispDemoApp", "CrispApp", "CrispUI", "CrispGraphics", "crisp-demo"]),
    ]
)

