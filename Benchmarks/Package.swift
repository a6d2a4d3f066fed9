// swift-tools-version:6.0
// Benchmarks for LifecycleLog, measured side by side with the physical limit
// (raw liblmdb from C on the same bytes and file) and with SQLite. A package of
// its own, so that the main package and CI never build it.
// Run: swift run -c release --package-path Benchmarks lifecycle-bench   (see BENCHMARKS.md)
import PackageDescription

let package = Package(
    name: "LifecycleLogBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "LifecycleLog", path: "..")],
    targets: [
        .target(
            name: "CBaseline",
            linkerSettings: [.linkedLibrary("lmdb"), .linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "lifecycle-bench",
            dependencies: ["CBaseline", .product(name: "LifecycleLog", package: "LifecycleLog")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
