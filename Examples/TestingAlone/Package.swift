// swift-tools-version:6.0
// An app team's test target that depends on LifecycleLogTesting and nothing else: its assertions'
// failures must reach Swift Testing and XCTest from here, with no IssueReportingTestSupport (or any
// other product) added by the team. `scripts/check-testing-alone` (run by `make test`) builds and
// runs it. The package's own LifecycleLogTestingTests cannot show this: SwiftPM links every test
// target of a package into one test binary, and LifecycleLogTests brings IssueReportingTestSupport.
import PackageDescription

let package = Package(
    name: "NotesTestingAlone",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "LifecycleLog", path: "../.."),
    ],
    targets: [
        .testTarget(name: "NotesTests", dependencies: [.product(name: "LifecycleLogTesting", package: "LifecycleLog")]),
    ],
    swiftLanguageModes: [.v6]
)
