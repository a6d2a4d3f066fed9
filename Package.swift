// swift-tools-version:6.0
import PackageDescription

// `scripts/check-app-build` sets this to build the app-facing targets as an Apple platform sees
// them, with liblmdb hidden: the dependencies that exist only where liblmdb is (Linux) are left out.
let asOnApplePlatforms = Context.environment["LIFECYCLELOG_AS_ON_APPLE_PLATFORMS"] == "1"
// The macOS workflow (.github/workflows/apple-platforms.yml) sets this to test in the iOS simulator,
// where liblmdb does not exist: the package is then its app-facing targets and their tests only.
let appOnly = Context.environment["LIFECYCLELOG_APP_ONLY"] == "1"
// Whether LifecycleLogTesting links LifecycleLog (on Linux only: apps can't link liblmdb).
let testingReadsLMDB = !(asOnApplePlatforms || appOnly)

// The privacy manifests of the targets an app links (issue 21: 9) are resources where apps are built
// (Xcode on a Mac); elsewhere a resource would cost the target a Foundation-based bundle accessor.
#if os(macOS)
let privacyManifest: [Resource] = [.copy("PrivacyInfo.xcprivacy")]
let privacyManifestElsewhere: [String] = []
#else
let privacyManifest: [Resource] = []
let privacyManifestElsewhere = ["PrivacyInfo.xcprivacy"]
#endif

let package = Package(
    name: "LifecycleLog",
    // The recorder runs inside apps: ContinuousClock, SwiftUI's openWindow and
    // os.Logger need these; nothing app-facing uses newer API.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        // What an app links: the event model, the JSON Lines codec, the recorder
        // and its sinks. No C library, so it builds for every Apple platform.
        .library(name: "LifecycleLogRecorder", targets: ["LifecycleLogRecorder"]),
        // The rules where the app runs: the model, the reducer, the rule catalogue, findings, rule
        // configuration, replay of JSON Lines and of events in memory, the minimizer's core.
        // No C library: it builds for every Apple platform.
        .library(name: "LifecycleLogRules", targets: ["LifecycleLogRules"]),
        // Live checking in a debug build: Xcode runtime issues, the system log, a swift-log Logger.
        .library(name: "LifecycleLogLive", targets: ["LifecycleLogLive"]),
        // LMDB traces, the codec, the collector and reports (needs liblmdb); re-exports LifecycleLogRules
        // and LifecycleLogStorage (a target, not a product: the part without the rules).
        .library(name: "LifecycleLog", targets: ["LifecycleLog"]),
        // The SwiftUI glue: one modifier per window; builds where SwiftUI exists.
        .library(name: "LifecycleLogSwiftUI", targets: ["LifecycleLogSwiftUI"]),
        // For UI-test targets: XCUIApplication.terminate(recordingTo:) and friends.
        .library(name: "LifecycleLogXCUITest", targets: ["LifecycleLogXCUITest"]),
        .library(name: "LifecycleLogTesting", targets: ["LifecycleLogTesting"]),
        // The `replay` command line as a library: `ReplayCommand.main(appRules:)` runs it with an
        // app's own rules, from a five-line executable of the app team's.
        .library(name: "LifecycleLogCommandLine", targets: ["LifecycleLogCommandLine"]),
        .executable(name: "replay", targets: ["replay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Live checking's reporters (LifecycleLogLive): runtime issues as SwiftUI raises them, and
        // the app's own logger; and the test assertions' failures (LifecycleLogTesting). 1.9.0 is the first with `reportIssue(_:severity:)` (and a Swift
        // Testing warning for `.warning`); scripts/check-dependency-floors keeps each floor honest.
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.9.0"),
        // 1.11.0: the tests' log handler implements `log(event:)` (LogEvent); the library alone needs 1.6.0.
        .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),
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
            // The platform's C library for the package's own files (`internal import LifecycleLogPlatform`):
            // one shim instead of a `#if canImport(Darwin) … #elseif canImport(Glibc)` block per file.
            // Pure Swift, builds on every platform the recorder does; not a product.
            name: "LifecycleLogPlatform"
        ),
        .target(
            name: "LifecycleLogRecorder",
            dependencies: ["LifecycleLogPlatform"],
            exclude: privacyManifestElsewhere,
            resources: privacyManifest
        ),
        .target(
            name: "LifecycleLogSwiftUI",
            dependencies: ["LifecycleLogRecorder"]
        ),
        .target(
            name: "LifecycleLogXCUITest",
            dependencies: ["LifecycleLogRecorder"]
        ),
        .target(
            name: "LifecycleLogRules",
            dependencies: ["LifecycleLogRecorder", "LifecycleLogPlatform"],
            exclude: privacyManifestElsewhere,
            resources: privacyManifest
        ),
        .target(
            name: "LifecycleLogLive",
            dependencies: [
                "LifecycleLogRules",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            // LMDB traces (reading, writing, checking, salvage), the stored codec, the collector,
            // import, merge and the generator: what LifecycleLog needs without the rules, so that it
            // compiles beside LifecycleLogRules (build time). Not a product: LifecycleLog re-exports it.
            name: "LifecycleLogStorage",
            dependencies: ["LifecycleLogRecorder", "LifecycleLogPlatform", "CLMDB", "CLMDBGuard"]
        ),
        .target(
            name: "LifecycleLog",
            dependencies: ["LifecycleLogStorage", "LifecycleLogRules", "LifecycleLogRecorder", "LifecycleLogPlatform", "CLMDB", "CLMDBGuard"],
            // The timeline's script, the source of Report/TimelineScript.swift (scripts/generate-timeline-script).
            exclude: ["Report/TimelineScript.js"]
        ),
        .target(
            name: "LifecycleLogCommandLine",
            dependencies: [
                "LifecycleLog",
                "LifecycleLogPlatform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "replay",
            dependencies: ["LifecycleLogCommandLine"]
        ),
        .executableTarget(
            // For contributors, not a product: `swift run generate-catalogue` finds the rules of the
            // catalogue and writes Sources/LifecycleLogRules/Rules/generated/ (ARCHITECTURE.md).
            name: "generate-catalogue"
        ),
        .target(
            // Assertions for an app's tests: they run where the app does (the iOS simulator, a
            // device), so they need only the C-free rules. `.lmdb` traces and the timeline
            // attachment come with LifecycleLog where liblmdb is: on Linux. The code reads them
            // under `#if LIFECYCLELOG_TESTING_LMDB`, defined exactly where the dependency is
            // declared: never `canImport(LifecycleLog)`, which on a Mac would find the module
            // whenever the build happened to make it first (issue 29: 8).
            //
            // Failures go through swift-issue-reporting's `reportIssue`: an issue in a Swift Testing
            // test, an `XCTFail` in an XCTest one. IssueReportingTestSupport is what lets it record a
            // Swift Testing issue (and find XCTest without Objective-C): without it, on Linux, the
            // issue is only printed. It links Testing and XCTest, so it belongs in test targets
            // only; LifecycleLogTesting is for test targets, so it brings it, and an app's test
            // target needs nothing but LifecycleLogTesting.
            name: "LifecycleLogTesting",
            dependencies: [
                "LifecycleLogRules",
                "LifecycleLogPlatform",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
                + (testingReadsLMDB ? [.target(name: "LifecycleLog", condition: .when(platforms: [.linux]))] : []),
            swiftSettings: testingReadsLMDB ? [.define("LIFECYCLELOG_TESTING_LMDB", .when(platforms: [.linux]))] : []
        ),
        .target(
            // What LifecycleLogRulesTests and LifecycleLogTests share (test targets can't import each
            // other): JSON Lines text in, findings out, `assertFindings`, the traces and the app rule
            // of the tests split across both. Imports XCTest, so it is for test targets only; not a
            // product. No LMDB: it stays in the app-only package below, with LifecycleLogRulesTests.
            name: "LifecycleLogRulesTestSupport",
            dependencies: ["LifecycleLogRules"],
            path: "Tests/LifecycleLogRulesTestSupport"
        ),
        .testTarget(
            name: "LifecycleLogTests",
            dependencies: [
                "LifecycleLog", "LifecycleLogStorage", "LifecycleLogLive", "LifecycleLogRulesTestSupport", .product(name: "Logging", package: "swift-log"),
                // What lets swift-issue-reporting find the running Swift Testing test and record
                // its issues there (without it, `reportIssue` takes every test for XCTest's).
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        .testTarget(
            // The rules without LMDB (issue 31: 5): the model, the reducer, the catalogue, replay of
            // events in memory and of JSON Lines text, the live check. No `replay` binary, no `.lmdb`
            // file: it stays in the app-only package below, so the iOS simulator job runs it too.
            name: "LifecycleLogRulesTests",
            dependencies: ["LifecycleLogRules", "LifecycleLogRecorder", "LifecycleLogRulesTestSupport"]
        ),
        .testTarget(
            // Only the recorder: the adapter's decisions need no LMDB.
            name: "LifecycleLogRecorderTests",
            dependencies: ["LifecycleLogRecorder"]
        ),
        .testTarget(
            name: "LifecycleLogTestingTests",
            dependencies: ["LifecycleLogTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

if appOnly {
    // Everything that needs liblmdb goes: its targets, their products and the tests that use them
    // (LifecycleLogTestingTests reads `.lmdb` traces too); the recorder's and the rules' tests stay.
    let needsLMDB: Set<String> = ["CLMDB", "CLMDBGuard", "LifecycleLogStorage", "LifecycleLog", "LifecycleLogCommandLine", "replay", "generate-catalogue", "LifecycleLogTests",
                                  "LifecycleLogTestingTests"]
    package.targets.removeAll { needsLMDB.contains($0.name) }
    package.products.removeAll { needsLMDB.contains($0.name) }
    package.dependencies.removeAll { dependency in
        if case .sourceControl(_, let location, _) = dependency.kind { return location.hasSuffix("swift-argument-parser") }
        return false
    }
}
