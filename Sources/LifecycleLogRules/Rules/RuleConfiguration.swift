/// Which rules run, at which severity, with which thresholds.
///
/// Loaded from a `--rules FILE` JSON object:
///
/// ```json
/// {"rules": {"phase-skip": "off", "unclean-exit": "error", "shared-writes-from-windows": "warning"},
///  "thresholds": {"slow-launch-ms": 10000, "launch-crash-loop-ms": 30000}}
/// ```
///
/// An app's own rules are named by their ``LifecycleRule/id`` when they are passed to
/// ``init(json:path:customRules:)``.
public struct RuleConfiguration: Sendable, Hashable {
    /// Per-rule overrides: `nil` switches a rule off.
    public var severities: [Rule: Severity?] = [:]
    /// The thresholds set to other values than their defaults, by ``RuleThreshold/id``.
    private var thresholdValues: [String: Double] = [:]
    /// Whether the what-if rules (`kill-exposure`) run (`--explore`).
    public var explore = false

    /// The catalogue's defaults.
    public init() {}

    /// The value of `threshold`: what a `--rules` file or code set, or else its default.
    public subscript(threshold threshold: RuleThreshold) -> Double {
        get { thresholdValues[threshold.id] ?? threshold.defaultValue }
        set { thresholdValues[threshold.id] = newValue == threshold.defaultValue ? nil : newValue }
    }

    /// The severity `rule` reports at, or `nil` when it is off.
    public func severity(of rule: Rule) -> Severity? {
        if rule == .killExposure && !explore { return nil }
        if let override = severities[rule] { return override }
        return rule.defaultSeverity
    }

    /// Reads a `--rules` file's JSON text.
    ///
    /// - Parameters:
    ///   - text: the file's JSON text.
    ///   - path: the file's path, for messages.
    ///   - customRules: an app's own rules, which `"rules"` may name by id (to switch off or re-grade).
    /// - Throws: `LifecycleLogError` `invalidInput` naming the member that is wrong (an unknown
    ///   rule id lists the known ones, app rules included).
    public init(json text: String, path: String? = nil, customRules: [any LifecycleRule] = []) throws {
        var bytes = Array(text.utf8)
        let value: JSONValue
        do {
            value = try bytes.withUnsafeMutableBufferPointer { buf throws(JSONParser.Failure) in
                try JSONParser.parse(UnsafeBufferPointer(buf))
            }
        } catch {
            throw LifecycleLogError(.invalidInput, "rules file is not valid JSON: \(error.message)", path: path)
        }
        func bad(_ message: String) -> LifecycleLogError { LifecycleLogError(.invalidInput, message, path: path) }
        guard case .object(let members) = value else { throw bad("the rules file must hold one JSON object") }
        for member in members {
            switch member.name {
            case "rules":
                guard case .object(let rules) = member.value else { throw bad("\"rules\" must be an object of rule ids to \"off\", \"warning\" or \"error\"") }
                for entry in rules {
                    let appRule = customRules.contains { $0.id == entry.name } ? Rule.custom(entry.name) : nil
                    guard let rule = Rule(rawValue: entry.name) ?? appRule else {
                        let known = Rule.allCases.map(\.rawValue) + customRules.map(\.id)
                        throw bad("unknown rule \"\(entry.name)\" in \"rules\"; known rules: \(known.joined(separator: ", "))"
                            + (customRules.isEmpty ? " (an app's own rule is known only to a replay built with it: ReplayCommand.main(customRules:))" : ""))
                    }
                    switch entry.value {
                    case .string("off"): severities[rule] = .some(nil)
                    case .string("warning"): severities[rule] = .some(.warning)
                    case .string("error"): severities[rule] = .some(.error)
                    default: throw bad("rule \"\(entry.name)\" must be \"off\", \"warning\" or \"error\"")
                    }
                }
            case "thresholds":
                guard case .object(let thresholds) = member.value else { throw bad("\"thresholds\" must be an object") }
                for entry in thresholds {
                    guard let threshold = RuleThreshold.allCases.first(where: { $0.id == entry.name }) else {
                        throw bad("unknown threshold \"\(entry.name)\"; known: \(RuleThreshold.allCases.map(\.id).joined(separator: ", "))")
                    }
                    guard case .number(let literal) = entry.value, let limit = Double(literal), limit >= 0, limit.isFinite else {
                        throw bad("\"\(entry.name)\" must be a non-negative number of milliseconds")
                    }
                    self[threshold: threshold] = limit
                }
            default:
                throw bad("unknown member \"\(member.name)\"; a rules file has \"rules\" and \"thresholds\"")
            }
        }
    }
}

extension RuleConfiguration {
    /// The launch watchdog limit for `slow-launch`, in milliseconds of `t`.
    @available(*, deprecated, message: "use configuration[threshold: .slowLaunch]")
    public var slowLaunchLimit: Double {
        get { self[threshold: .slowLaunch] }
        set { self[threshold: .slowLaunch] = newValue }
    }

    /// The longest time from one failed launch to the next that `launch-crash-loop` counts as a loop,
    /// in milliseconds of `t`.
    @available(*, deprecated, message: "use configuration[threshold: .launchCrashLoop]")
    public var launchCrashLoopLimit: Double {
        get { self[threshold: .launchCrashLoop] }
        set { self[threshold: .launchCrashLoop] = newValue }
    }

    /// Reads a `--rules` file's JSON text (the earlier spelling of ``init(json:path:customRules:)``).
    @available(*, deprecated, renamed: "init(json:path:customRules:)")
    public init(json text: String, path: String? = nil, appRules: [any LifecycleRule]) throws {
        try self.init(json: text, path: path, customRules: appRules)
    }
}
