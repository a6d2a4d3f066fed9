#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Reports a failed assertion to the test framework that is running the
/// current test: an issue in a Swift Testing test, an `XCTFail` in an XCTest one.
enum TestFailure {
    /// Whether the calling code runs inside a Swift Testing test.
    static var inSwiftTesting: Bool {
        #if canImport(Testing)
        return Test.current != nil
        #else
        return false
        #endif
    }

    /// Fails the current test with `message`, at `site`.
    static func record(_ message: String, at site: CallSite) {
        #if canImport(Testing)
        if inSwiftTesting {
            Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: site.filePath, line: site.line)
        #else
        print("\(site.filePath):\(site.line): error: \(message)")
        #endif
    }
}
