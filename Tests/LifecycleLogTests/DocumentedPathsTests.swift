import Foundation
import XCTest

/// ARCHITECTURE.md and CONTRIBUTING.md name files and folders for the next engineer: every one must
/// exist (issue 31: 4; ARCHITECTURE.md had drifted to a moved `Interruption.swift`). A path is a
/// code span that starts with a top-level folder of the repository (`Sources/…`, `scripts/…`), or,
/// inside a "Parts (`Sources/X`)" section, a `Folder/` or `Folder/File.swift` of that module.
final class DocumentedPathsTests: XCTestCase {
    private static let roots = ["Sources/", "Tests/", "scripts/", "tools/", "traces/", "spec/", "Examples/", "Benchmarks/", "Fuzz/", "api/", ".ci/", ".github/"]

    /// The paths a Markdown file names, each with the line it is on.
    static func paths(in text: String) -> [(path: String, line: Int)] {
        var result: [(String, Int)] = []
        var module: String?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("#") {
                // "## Parts (`Sources/LifecycleLog`)": relative folders below are that module's.
                module = line.contains("Parts (`Sources/") ? line.components(separatedBy: "`")[1] : nil
            }
            let spans = line.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            for span in spans {
                let path = String(span.split(separator: ":").first ?? "")  // `file.swift:12` names a line
                guard !path.contains(" "), !path.contains("*"), !path.contains("<"), !path.contains("…") else { continue }
                if roots.contains(where: { path.hasPrefix($0) }) {
                    result.append((path, number + 1))
                } else if let module, path.range(of: #"^[A-Z][A-Za-z]+/([A-Za-z+]+\.swift)?$"#, options: .regularExpression) != nil {
                    result.append(("\(module)/\(path)", number + 1))
                }
            }
        }
        return result
    }

    func testEveryPathTheContributorDocumentsNameExists() throws {
        for document in ["ARCHITECTURE.md", "CONTRIBUTING.md"] {
            let text = try String(contentsOfFile: "\(repositoryRoot)/\(document)", encoding: .utf8)
            let paths = Self.paths(in: text)
            XCTAssertGreaterThan(paths.count, document == "ARCHITECTURE.md" ? 40 : 3, "\(document): the check reads the paths")
            for (path, line) in paths {
                XCTAssertTrue(FileManager.default.fileExists(atPath: "\(repositoryRoot)/\(path)"), "\(document):\(line): \(path) does not exist")
            }
        }
    }

    /// The check fails on a path that does not exist, relative or whole.
    func testAMovedFileIsFound() {
        let text = """
            see `Sources/replay/Interruption.swift` and `scripts/test`
            ## Parts (`Sources/LifecycleLog`)
            | `Report/` | `Report/Gone.swift` |
            """
        let missing = Self.paths(in: text).filter { !FileManager.default.fileExists(atPath: "\(repositoryRoot)/\($0.path)") }.map(\.path)
        XCTAssertEqual(missing, ["Sources/replay/Interruption.swift", "Sources/LifecycleLog/Report/Gone.swift"])
    }
}
