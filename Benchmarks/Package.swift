// swift-tools-version:6.1
// Benchmarks for LifecycleLog, measured side by side with the physical limit
// (raw liblmdb from C on the same bytes and file) and with SQLite. A package of
// its own, so that the main package and CI never build it or its dependencies.
//   scripts/bench                                          the ratio table of BENCHMARKS.md
//   swift package --package-path Benchmarks --disable-sandbox benchmark   ordo-one/benchmark's distributions
import PackageDescription

let package = Package(
    name: "LifecycleLogBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "LifecycleLog", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "CBaseline",
            linkerSettings: [.linkedLibrary("lmdb"), .linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "lifecycle-bench",
            dependencies: ["CBaseline", .product(name: "LifecycleLog", package: "LifecycleLog")]
        ),
        .executableTarget(
            name: "LifecycleLogBenchmarks",
            dependencies: [
                "CBaseline",
                .product(name: "LifecycleLog", package: "LifecycleLog"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LifecycleLogBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
