import Foundation
import XCTest

/// Issue 21, item 9: the privacy manifests of the targets an app links declare every required-reason
/// API category their sources call (Apple rejects an app whose SDKs call one undeclared), and are
/// property lists App Store Connect can read.
final class PrivacyManifestTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Calls in the sources and the category (and reason) each needs
    /// (https://developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api).
    private let categories: [(pattern: String, category: String, reason: String)] = [
        (#"\b(f|l)?stat(at)?\(|\bgetattrlist\("#, "NSPrivacyAccessedAPICategoryFileTimestamp", "C617.1"),
        (#"systemUptime|mach_absolute_time|CLOCK_MONOTONIC_RAW|ContinuousClock"#, "NSPrivacyAccessedAPICategorySystemBootTime", "35F9.1"),
        (#"statfs\(|volumeAvailableCapacity|systemFreeSize"#, "NSPrivacyAccessedAPICategoryDiskSpace", "E174.1"),
        (#"UserDefaults(\(|\.standard)"#, "NSPrivacyAccessedAPICategoryUserDefaults", "CA92.1"),
    ]

    func testEveryAppFacingManifestDeclaresTheRequiredReasonAPIsItsSourcesCall() throws {
        for target in ["LifecycleLogRecorder", "LifecycleLogRules"] {
            let folder = root.appendingPathComponent("Sources/\(target)")
            let data = try Data(contentsOf: folder.appendingPathComponent("PrivacyInfo.xcprivacy"))
            let plist = try XCTUnwrap(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any], target)
            XCTAssertEqual(plist["NSPrivacyTracking"] as? Bool, false, target)
            let declared = (plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []).reduce(into: [String: [String]]()) { result, entry in
                result[entry["NSPrivacyAccessedAPIType"] as? String ?? ""] = entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? []
            }
            var sources = ""
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                sources += text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            }
            for (pattern, category, reason) in categories {
                let calls = sources.range(of: pattern, options: .regularExpression) != nil
                if calls {
                    XCTAssertEqual(declared[category], [reason], "\(target) calls \(category) APIs: declare reason \(reason) in its PrivacyInfo.xcprivacy")
                } else {
                    XCTAssertNil(declared[category], "\(target) declares \(category) but calls none of its APIs")
                }
            }
        }
    }
}
