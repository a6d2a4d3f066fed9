/// The one error type of LifecycleLog.
///
/// Every failure the library reports is a `LifecycleLogError`: a ``Code`` that
/// callers can switch over, a message that says what went wrong and what to
/// do, and where it happened (the file, the line and column of an input
/// error, the seq of a stored event) when that is known. Failures that come
/// from liblmdb also carry LMDB's status code and the function that returned it.
///
/// ```swift
/// do {
///     let trace = try Trace(openingForReadingAt: "trace.lmdb")
/// } catch let error as LifecycleLogError where error.code == .notATrace {
///     print(error) // "trace.lmdb: not a LifecycleLog trace: …"
/// }
/// ```
public struct LifecycleLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in minor releases,
    /// so switch statements over it should have a `default` case.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let raw: UInt8
        /// A line of a JSON Lines trace is malformed: not JSON, a missing or
        /// mistyped field, an unknown phase/scope/platform, or `t` going backwards.
        public static let invalidInput = Code(raw: 1)
        /// The trace was written by a newer format version than this reader knows.
        public static let unsupportedVersion = Code(raw: 2)
        /// The file is not a LifecycleLog trace (not LMDB, or LMDB without trace metadata).
        public static let notATrace = Code(raw: 3)
        /// A stored event or string could not be decoded: the trace is damaged.
        public static let corruptTrace = Code(raw: 4)
        /// The file or its folder could not be read or written (permissions, missing file, no space).
        public static let io = Code(raw: 5)
        /// liblmdb reported a failure not covered by a more specific code.
        public static let storage = Code(raw: 6)
        /// An argument given to the library is not valid (for example a seq past the end).
        public static let invalidArgument = Code(raw: 7)

        /// The code's name, such as `invalidInput`.
        public var description: String {
            switch raw {
            case 1: return "invalidInput"
            case 2: return "unsupportedVersion"
            case 3: return "notATrace"
            case 4: return "corruptTrace"
            case 5: return "io"
            case 6: return "storage"
            case 7: return "invalidArgument"
            default: return "code\(raw)"
            }
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong and what to do about it, as a sentence.
    public var message: String
    /// The file the failure is about, when known.
    public var path: String?
    /// The 1-based line of a JSON Lines input, when known.
    public var line: Int?
    /// The 1-based column within ``line``, when known.
    public var column: Int?
    /// The seq of the event concerned, when known.
    public var seq: UInt64?
    /// The status code liblmdb (or the system) returned, when the failure came from there.
    public var lmdbStatus: Int32?
    /// The liblmdb function that returned ``lmdbStatus``.
    public var function: String?

    /// Creates an error. Library users rarely need this; it is public so that
    /// adapters can report their own failures in the same shape.
    public init(
        _ code: Code, _ message: String, path: String? = nil, line: Int? = nil,
        column: Int? = nil, seq: UInt64? = nil, lmdbStatus: Int32? = nil, function: String? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.seq = seq
        self.lmdbStatus = lmdbStatus
        self.function = function
    }

    /// `path: line N, column C: seq S: message (function: status)`, leaving out what is unknown.
    public var description: String {
        var parts: [String] = []
        if let path { parts.append(path) }
        if let line {
            parts.append(column.map { "line \(line), column \($0)" } ?? "line \(line)")
        }
        if let seq { parts.append("seq \(seq)") }
        var text = parts.isEmpty ? "" : parts.joined(separator: ": ") + ": "
        text += message
        if let function, let lmdbStatus { text += " (\(function) returned \(lmdbStatus))" }
        return text
    }

    /// Returns a copy that names `path` wherever it named `temporary` (its
    /// path, its message): users should read the names they gave.
    package func naming(_ path: String, insteadOf temporary: String) -> LifecycleLogError {
        var copy = self
        if copy.path == nil || copy.path == temporary { copy.path = path }
        copy.message = copy.message.replacing(temporary, with: path)
        return copy
    }

    /// Returns a copy that names `path`, unless a path is already set.
    package func at(path newPath: String) -> LifecycleLogError {
        var copy = self
        if copy.path == nil { copy.path = newPath }
        return copy
    }
}
