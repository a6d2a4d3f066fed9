/// How serious a finding is.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// A warning: fails `--assert` only with `--strict`.
    case warning
    /// An error: fails `--assert`.
    case error

    /// Warnings sort before errors.
    public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
}
