#if canImport(Testing)
import Testing
#endif

/// Where an assertion was called, in the form both test frameworks need:
/// XCTest takes a file path and line, Swift Testing a `SourceLocation`.
struct CallSite: Sendable {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt

    #if canImport(Testing)
    /// The call site as Swift Testing's source location.
    var sourceLocation: SourceLocation {
        SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
    #endif
}
