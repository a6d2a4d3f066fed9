// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LifecycleLog",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "LifecycleLog", targets: ["LifecycleLog"]),
        .executable(name: "replay", targets: ["replay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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
        .testTarget(
            name: "LifecycleLogTests",
            dependencies: ["LifecycleLog"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
