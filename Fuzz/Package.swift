// swift-tools-version:6.0
// Fuzz targets for LifecycleLog, in a package of their own so that the main
// package and its tests never build them. Build and run them with
// ../scripts/fuzz, which compiles everything with -sanitize=fuzzer so that
// libFuzzer's coverage reaches into the library's decoders.
import PackageDescription

let package = Package(
    name: "LifecycleLogFuzz",
    dependencies: [.package(name: "LifecycleLog", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "FuzzJSONLines",
            dependencies: ["FuzzSupport", .product(name: "LifecycleLog", package: "LifecycleLog"), .product(name: "LifecycleLogRecorder", package: "LifecycleLog")]
        ),
        .executableTarget(
            name: "FuzzStoredEvent",
            dependencies: ["FuzzSupport", .product(name: "LifecycleLog", package: "LifecycleLog"), .product(name: "LifecycleLogRules", package: "LifecycleLog"),
                           .product(name: "LifecycleLogRecorder", package: "LifecycleLog")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
