// swift-tools-version:6.0
// A SwiftUI app that records its life cycle with LifecycleLog: README.md's recipes 1 and 3 as one
// app that builds. `scripts/check-swiftui-glue` (run by `make test`) type-checks its sources on
// Linux against the stand-ins of SwiftUI, UIKit and AppKit; the macOS workflow
// (.github/workflows/apple-platforms.yml) builds it for iOS and macOS with Apple's SDKs.
import PackageDescription

let package = Package(
    name: "NotesDemo",
    platforms: [.macOS(.v13), .iOS(.v16), .visionOS(.v1)],  // not tvOS or watchOS: no TextEditor there
    products: [
        // The app's scenes, views and recording: what an iOS app target (or Xcode project) uses.
        .library(name: "NotesDemo", targets: ["NotesDemo"]),
        // The same app as a macOS executable: `swift run notes-demo-mac` on a Mac.
        .executable(name: "notes-demo-mac", targets: ["NotesDemoMac"]),
    ],
    dependencies: [
        .package(name: "LifecycleLog", path: "../.."),
    ],
    targets: [
        .target(name: "NotesDemo", dependencies: [
            .product(name: "LifecycleLogRecorder", package: "LifecycleLog"),
            .product(name: "LifecycleLogSwiftUI", package: "LifecycleLog"),
            // The live check of a debug build: a runtime warning the moment a rule decides a finding.
            .product(name: "LifecycleLogRules", package: "LifecycleLog"),
            .product(name: "LifecycleLogLive", package: "LifecycleLog"),
        ]),
        .executableTarget(name: "NotesDemoMac", dependencies: ["NotesDemo"]),
    ],
    swiftLanguageModes: [.v6]
)
