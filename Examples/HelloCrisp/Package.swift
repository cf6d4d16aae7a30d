// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "HelloCrisp",
    products: [
        .library(name: "HelloCrisp", targets: ["HelloCrisp"]),
        .executable(name: "hello-crisp", targets: ["hello-crisp"]),
    ],
    dependencies: [
        .package(name: "Crisp", path: "../.."),
    ],
    targets: [
        .target(
            name: "HelloCrisp",
            dependencies: [.product(name: "CrispApp", package: "Crisp")],
            resources: [.copy("Resources")]
        ),
        .executableTarget(name: "hello-crisp", dependencies: ["HelloCrisp"]),
        .testTarget(
            name: "HelloCrispTests",
            dependencies: [
                "HelloCrisp",
                .product(name: "CrispApp", package: "Crisp"),
                .product(name: "CrispSnapshotTesting", package: "Crisp"),
            ],
            exclude: ["__Snapshots__"]
        ),
    ]
)
