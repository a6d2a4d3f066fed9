import Foundation

// `swift run generate-catalogue [--check]`: finds the rules of the catalogue (every
// `struct X: BuiltInRule` in Sources/LifecycleLogRules/Rules), reads what each declares (what it
// hears, its example fixtures) and the catalogue's order (spec/rules.md section 3), and writes
// Sources/LifecycleLogRules/Rules/generated/. With --check it writes nothing and exits 1 when a
// generated file is not what the sources give (`make test` runs it so). ARCHITECTURE.md,
// "Adding a rule", says what a rule declares.

var arguments = Array(CommandLine.arguments.dropFirst())
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: swift run generate-catalogue [--check] [--root PACKAGE]\n".utf8))
    exit(2)
}
let check = arguments.contains("--check")
arguments.removeAll { $0 == "--check" }
/// The package: `--root`, or two folders above this file (Sources/generate-catalogue/main.swift).
var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
if let i = arguments.firstIndex(of: "--root") {
    guard i + 1 < arguments.count else { usage() }
    root = URL(fileURLWithPath: arguments[i + 1])
    arguments.removeSubrange(i...(i + 1))
}
if !arguments.isEmpty { usage() }

do {
    let declarations = try Declarations(root: root)
    let folder = root.appendingPathComponent("Sources/LifecycleLogRules/Rules/generated")
    let files = try CatalogueFiles(declarations: declarations, root: root).files()
    let stale = files.filter { (try? String(contentsOf: folder.appendingPathComponent($0.name), encoding: .utf8)) != $0.text }
    let present = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    let extra = present.filter { name in name.hasSuffix(".swift") && !files.contains { $0.name == name } }.sorted()
    if check {
        guard stale.isEmpty && extra.isEmpty else {
            let names = (stale.map(\.name) + extra).map { "Sources/LifecycleLogRules/Rules/generated/\($0)" }
            FileHandle.standardError.write(Data("generate-catalogue: out of date: \(names.joined(separator: ", ")); run `swift run generate-catalogue` and commit the result\n".utf8))
            exit(1)
        }
        print("generate-catalogue: \(declarations.rules.count) rules, the generated catalogue is current")
    } else {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files { try file.text.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8) }
        for name in extra { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        print("generate-catalogue: wrote \(files.count) files for \(declarations.rules.count) rules")
    }
} catch {
    FileHandle.standardError.write(Data("generate-catalogue: \(error)\n".utf8))
    exit(2)
}
