/// The version of LifecycleLog: the library, the `replay` command (`replay --version`)
/// and the `tool.driver.version` of its SARIF output all take it from here.
public enum LifecycleLogVersion {
    /// The version, as `MAJOR.MINOR.PATCH` (semantic versioning).
    public static let current = "0.1.0"
}
