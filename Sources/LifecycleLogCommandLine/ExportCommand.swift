import ArgumentParser
import LifecycleLog
internal import LifecycleLogPlatform

/// What `replay export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    /// JSON Lines, every event and field (the interchange format).
    case jsonl
    /// Chrome trace-event JSON for Perfetto and chrome://tracing.
    case perfetto
    /// OpenTelemetry logs as OTLP/JSON, for the Collector's `otlpjsonfile` receiver.
    case otlp
}

/// What `replay export --format otlp` writes: the OpenTelemetry signal.
enum OTLPSignal: String, ExpressibleByArgument, CaseIterable {
    /// `ExportLogsServiceRequest`s: every event and finding a log record.
    case logs
    /// `ExportTraceServiceRequest`s: a trace per run, a span per window and per phase.
    case traces
}

extension Replay {
    /// `replay export TRACE.lmdb [-o OUT.jsonl]`
    struct Export: ParsableCommand, RuleOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export a trace file as JSON Lines.",
            discussion: """
                Writes a header line and then every event with every field and value it was \
                imported or recorded with. Without -o the lines go to standard output.

                A damaged trace fails the export (exit 2, nothing written) unless --salvage asks for \
                every event that can still be read: all those before the damage, then those the \
                file's pages still hold after it (also from a truncated file).

                --format perfetto writes Chrome trace-event JSON instead, for ui.perfetto.dev or \
                chrome://tracing: a process per recorded process (the app, each extension), a thread per window (and one for the app phase) \
                with its phases as slices, findings and every other event as instants. It reads \
                .lmdb and .jsonl traces; --explore and --rules choose the findings as for replay TRACE.

                --format otlp writes OpenTelemetry logs in OTLP/JSON, the file format of the \
                OpenTelemetry Collector's otlpjsonfile receiver: one ExportLogsServiceRequest per line, a resource per \
                recorded process (service.name, service.version, os.name, os.version from its launch), each event a log \
                record (an app-level state change of a UIKit platform as the mobile event device.app.lifecycle with \
                ios.app.state: active, inactive, foreground, background, terminate), each finding a record with its \
                severity, rule, fingerprint and seqs. --otlp-signal traces writes ExportTraceServiceRequests instead: \
                a trace per run, a span per window and per phase (the app's too), findings as the run's span events. \
                A trace does not place its t in the calendar: --start-unix-ms says where t 0 lies (0 by default). \
                It reads .lmdb and .jsonl traces; --explore and --rules choose the findings.

                Example:
                  replay export session.lmdb -o session.jsonl
                  replay export damaged.lmdb --salvage -o recovered.jsonl
                  replay export session.lmdb --format perfetto -o session.trace.json
                  replay export session.lmdb --format otlp -o session.otlp.json
                  replay export s.lmdb --format otlp --otlp-signal traces -o spans.json
                """)

        @Argument(help: "The trace file to read (.lmdb; .jsonl too with --format perfetto or otlp).")
        var trace: String

        @Option(name: .shortAndLong, help: "The file to write ('-' or none for standard output).")
        var output: String?

        @Option(help: "jsonl (the interchange format), perfetto (Chrome trace-event JSON) or otlp (OpenTelemetry logs, OTLP/JSON).")
        var format: ExportFormat = .jsonl

        @Flag(help: "With --format perfetto or otlp, also place the what-if findings (kill-exposure).")
        var explore = false

        @OptionGroup var ruleOptions: RuleOptions<Export>
        static let rulesHelp = "With --format perfetto or otlp, a rules file, as for replay TRACE --rules."

        @Option(help: "With --format otlp, where the trace's t 0 lies: milliseconds since 1970 (UTC), such as $(date +%s000) when the session started.")
        var startUnixMs: UInt64?

        @Option(help: "With --format otlp, the OpenTelemetry signal: logs (every event and finding; the default) or traces (a span per run, window and phase).")
        var otlpSignal: OTLPSignal?

        @Flag(help: "Replace an existing -o file even when it is not of the kind this export writes.")
        var force = false

        @Flag(help: "Recover a damaged trace: write every event that can still be read, in seq order, say what could not be, and exit 0.")
        var salvage = false

        func validate() throws {
            if format != .jsonl, salvage {
                throw ValidationError("--salvage writes JSON Lines; leave out --format \(format.rawValue) (export the salvaged .jsonl afterwards)")
            }
            if format == .jsonl, explore || ruleOptions.rules != nil {
                throw ValidationError("--explore and --rules choose findings, which only --format perfetto and otlp export")
            }
            if format != .otlp, startUnixMs != nil {
                throw ValidationError("--start-unix-ms places the trace in time for --format otlp only")
            }
            if format != .otlp, otlpSignal != nil {
                throw ValidationError("--otlp-signal chooses what --format otlp writes; add --format otlp")
            }
            if let ms = startUnixMs, ms > UInt64.max / 1_000_000 {
                throw ValidationError("--start-unix-ms must be at most \(UInt64.max / 1_000_000) (the year 2554 in nanoseconds), got \(ms)")
            }
        }

        func run() throws {
            if format == .jsonl { try Self.refuseJSONLines(trace) }
            if let output {
                if format != .jsonl {
                    try OutputFile.check(output, writes: .json, command: "replay export --format \(format.rawValue)", inputs: [trace], force: force, suggestion: [
                        .traceFile: "replay import IN.jsonl -o OUT.lmdb",
                        .jsonLines: "replay export TRACE -o OUT.jsonl",
                        .html: "replay report TRACE -o OUT.html",
                    ])
                } else {
                    try OutputFile.check(output, writes: .jsonLines, command: "replay export", inputs: [trace], force: force, suggestion: [
                        .traceFile: "replay import IN.jsonl -o OUT.lmdb (export turns a trace file into JSON Lines)",
                        .html: "replay report TRACE -o OUT.html",
                        .json: "replay export TRACE --format perfetto -o OUT.json, or replay TRACE --format json > OUT.json",
                    ])
                }
            }
            if format != .jsonl { return try exportWithFindings() }
            if salvage { return try runSalvage() }
            let opened = try Trace(path: trace)
            let out = try Output.to(path: output)
            do {
                if output == nil || output == "-" {
                    // Standard output cannot be renamed into place: gather (spilling to
                    // disk) so that a trace damaged halfway prints nothing but its error.
                    let body = SpillBuffer()
                    try TraceInterchange.exportJSONLines(opened) { try body.append($0) }
                    try body.drain(into: out)
                    try out.commit()
                } else {
                    try TraceInterchange.exportJSONLines(opened) { out.write($0) }
                    try out.commit()
                }
            } catch {
                out.discard()
                throw error
            }
        }

        /// Refuses a JSON Lines trace (by its content, or by its name when it holds no trace file)
        /// and standard input for `--format jsonl`: export reads a trace file, and JSON Lines is what
        /// it writes. liblmdb's "too small to be an LMDB trace" said nothing of that (issue 30: 9).
        static func refuseJSONLines(_ path: String) throws {
            if path == "-" {
                throw LifecycleLogError(.invalidArgument,
                    "export reads a trace file (.lmdb), not standard input: JSON Lines there is already what export writes. "
                    + "To make a trace file of it: replay import - -o session.lmdb; to check it as it is: replay -")
            }
            let content = Replayer.content(of: path)
            var info = stat()
            let named = content == .neither && OutputFile.Kind.named(by: path) == .jsonLines
                && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0
            guard content == .jsonLines || named else { return }
            // The trace file to suggest: the same name with .lmdb for its extension, beside it.
            let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
            let stem = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : name[..<$0] }.map(String.init) ?? name
            let lmdb = String(path.dropLast(name.count)) + stem + ".lmdb"
            let word = FilePaths.shellWord(VisibleText.escape(path))
            let commands = "replay import \(word) -o \(FilePaths.shellWord(VisibleText.escape(lmdb))); to check it as it is: replay \(word) "
                + "(and export --format perfetto reads it too)"
            throw LifecycleLogError(.invalidArgument, named
                ? "is named as JSON Lines, what `replay export` writes, and is not a trace file: export reads a trace file (.lmdb). "
                    + "If it is meant as a JSON Lines trace, make a trace file of it with: \(commands)"
                : "is a JSON Lines trace, which is already what `replay export` writes: export reads a trace file (.lmdb). "
                    + "To make a trace file of it: \(commands)",
                path: path)
        }

        private func runSalvage() throws {
            let out = try Output.to(path: output)
            do {
                let summary = try TraceInterchange.salvageJSONLines(path: trace) { out.write($0) }
                try out.commit()
                Output.standardError.write("replay: \(summary)\n")
            } catch {
                out.discard()
                throw error
            }
        }

        /// `--format perfetto` (the trace-event JSON) or `otlp` (OTLP/JSON logs or spans), written only when whole.
        private func exportWithFindings() throws {
            // These read the trace more than once (its findings first, then its events): from
            // standard input the later reads found it used up, and the export came out without
            // its events, with exit 0.
            if trace == "-" {
                throw LifecycleLogError(.invalidArgument,
                    "export --format \(format.rawValue) reads the trace more than once (its findings first, then its events), and standard input "
                    + "can be read only once: save it to a file first, then export that: replay import - -o session.lmdb, "
                    + "then replay export session.lmdb --format \(format.rawValue)")
            }
            var configuration = try ruleOptions.configuration()
            configuration.explore = explore
            let start = (startUnixMs ?? 0) * 1_000_000
            func write(_ body: (String) throws -> Void) throws {
                if format == .otlp, otlpSignal == .traces {
                    try OTLPTracesExport.write(trace, configuration: configuration, customRules: AppRules.current, startUnixNano: start, body)
                } else if format == .otlp {
                    try OTLPLogsExport.write(trace, configuration: configuration, customRules: AppRules.current, startUnixNano: start, body)
                } else {
                    try TraceEventExport.write(trace, configuration: configuration, customRules: AppRules.current, body)
                }
            }
            try Replayer.refuseFolder(trace)
            warnAboutTornRecords([trace])
            let out = try Output.to(path: output)
            do {
                if output == nil || output == "-" {
                    let body = SpillBuffer()  // a trace damaged halfway prints nothing but its error
                    try write { try body.append($0) }
                    try body.drain(into: out)
                } else {
                    try write { out.write($0) }
                }
                try out.commit()
            } catch {
                out.discard()
                throw error
            }
        }
    }
}
