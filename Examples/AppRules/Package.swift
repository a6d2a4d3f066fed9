// swift-tools-version:6.0
// An app team's own `replay`: the catalogue plus the app's rules, for its CI.
// `scripts/check-app-rules-example` (run by `make test`) builds it and gates the fixtures.
import PackageDescription

let package = Package(
    name: "NotesAppRules",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "replay-notes", targets: ["replay-notes"]),
        // The rules alone, C-free: the app's tests and a debug build run them too.
        .library(name: "NotesRules", targets: ["NotesRules"]),
    ],
    dependencies: [
        .package(name: "LifecycleLog", path: "../.."),
    ],
    targets: [
        .target(name: "NotesRules", dependencies: [.product(name: "LifecycleLogRules", package: "LifecycleLog")]),
        .executableTarget(name: "replay-notes", dependencies: [
            "NotesRules",
            .product(name: "LifecycleLogCommandLine", package: "LifecycleLog"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
