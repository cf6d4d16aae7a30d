// swift-tools-version:6.0
// Coverage-guided fuzzing harnesses for Crisp's readers and drawing API (libFuzzer, with
// AddressSanitizer). A package of its own beside the main one, so the main build is untouched.
// Build and run with ./run.sh TARGET SECONDS (see README.md).
import PackageDescription

let harnesses = ["fuzz-png", "fuzz-truetype", "fuzz-colorfont", "fuzz-svg", "fuzz-image", "fuzz-svgpath", "fuzz-strings", "fuzz-drawing"]

let package = Package(
    name: "CrispFuzz",
    dependencies: [.package(name: "Crisp", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
    ] + harnesses.map { name in
        .executableTarget(name: name, dependencies: [
            "FuzzSupport",
            .product(name: "CrispGraphics", package: "Crisp"),
            .product(name: "CrispSVG", package: "Crisp"),
            .product(name: "CrispUI", package: "Crisp"),
        ])
    }
)
