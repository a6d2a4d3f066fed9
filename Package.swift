// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LifecycleLog",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "LifecycleLog", targets: ["LifecycleLog"]),
        .library(name: "LifecycleLogTesting", targets: ["LifecycleLogTesting"]),
        .executable(name: "replay", targets: ["replay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // A command plugin only (`swift package generate-documentation`): no target links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        .target(
            name: "CLMDBGuard",
            dependencies: ["CLMDB"]
        ),
        .target(
            name: "LifecycleLog",
            dependencies: ["CLMDB", "CLMDBGuard"]
        ),
        .executableTarget(
            name: "replay",
            dependencies: [
                "LifecycleLog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "LifecycleLogTesting",
            dependencies: ["LifecycleLog"]
        ),
        .testTarget(
            name: "LifecycleLogTests",
            dependencies: ["LifecycleLog"]
        ),
        .testTarget(
            name: "LifecycleLogTestingTests",
            dependencies: ["LifecycleLogTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
