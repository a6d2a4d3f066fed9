import ArgumentParser
import Dispatch
internal import LifecycleLogPlatform
import LifecycleLog

extension Replay {
    /// `replay record TRACE`
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record",
            abstract: "Append events arriving as JSON Lines on standard input, or from apps over TCP (--listen), to a trace.",
            discussion: """
                For harnesses in any language: a UI-test runner, a log adapter, a shell script. \
                The trace is created if needed; an existing one continues its seq numbering. \
                Each line is validated as import does: a bad line is reported on standard error \
                with its line number and skipped, every good line is kept, and the exit status \
                is 2 at the end if any line was rejected. Events are committed as soon as the \
                input pauses, so a kill leaves a prefix of what was sent. `replay` can read \
                the trace while it is being recorded.

                With --listen HOST:PORT, `replay` is a collector instead: apps, their \
                extensions and test runners connect with CollectorSink (or speak \
                spec/collector-protocol.md), and the events of every connection go into the \
                one trace, in arrival order, each stamped with its connection's process. Bad \
                lines are refused with an error line to that client and a message here; \
                other clients are unaffected. It prints "listening on HOST:PORT, recording into \
                TRACE" (the real port when 0 was given) on standard error, a status line every \
                5 s on a terminal (every 60 s otherwise) while clients are connected, and on \
                SIGINT or SIGTERM commits and exits 0. Only loopback addresses are allowed \
                without --token, and the token must not be empty. What a client may make it \
                hold is bounded (spec/collector-protocol.md, "Limits"); its messages never \
                hold it up, and it keeps going when nobody reads them.

                Examples:
                  my-ui-test-runner --emit-lifecycle | replay record session.lmdb
                  replay record --listen 127.0.0.1:7777 session.lmdb
                  replay record --listen 0.0.0.0:7777 --token "$SECRET" session.lmdb
                """)

        @Argument(help: "The trace file to append to (created when missing).")
        var trace: String

        @Option(name: .shortAndLong, help: "Read from this file instead of standard input.")
        var input: String = "-"

        @Option(help: ArgumentHelp("Collect from apps over TCP on this address instead of reading standard input.", valueName: "host:port"))
        var listen: String?

        @Option(help: "With --listen: the secret every client must present (needed beyond the loopback address).")
        var token: String?

        func validate() throws {
            if listen == nil && token != nil { throw ValidationError("--token goes with --listen") }
            if listen != nil && input != "-" { throw ValidationError("--input and --listen are two different sources; give one") }
        }

        func run() throws {
            // Like every writing command: a name of another format is refused (issue 22), so
            // that `record t.jsonl` does not leave a trace file that readers take for JSON Lines.
            try OutputFile.check(trace, writes: .traceFile, command: "replay record", inputs: [input], force: false, suggestion: [
                .jsonLines: "replay record TRACE.lmdb, then replay export TRACE.lmdb -o OUT.jsonl",
                .html: "replay report TRACE -o OUT.html",
                .json: "replay TRACE --format json > OUT.json",
            ], argument: "the trace")
            if let listen {
                try collect(on: listen)
                return
            }
            let summary = try TraceInterchange.record(from: input, to: trace) { error in
                Output.standardError.write("replay: rejected: \(error)\n")
            }
            Output.standardError.write("recorded \(plural(summary.accepted, "event")) into \(trace) (last seq \(summary.lastSeq))"
                + (summary.rejected > 0 ? "; rejected \(plural(summary.rejected, "line"))\n" : "\n"))
            if summary.rejected > 0 { throw ExitCode(2) }
        }

        private func collect(on address: String) throws {
            // Immune to its own terminal: a reader of standard error that goes away (`2>&1 | head -1`)
            // makes writes fail with EPIPE, which are ignored, instead of killing the collector.
            signal(SIGPIPE, SIG_IGN)
            let (host, port) = try TraceCollector.parse(address: address)
            var limits = TraceCollector.Limits()
            limits.statusInterval = isatty(2) == 1 ? .seconds(5) : .seconds(60)
            let collector = try TraceCollector(trace: trace, host: host, port: port, token: token, limits: limits)
            let messages = CollectorMessages()
            Interruption.handle { collector.stop() }
            messages.write("listening on \(collector.address), recording into \(VisibleText.escape(trace))\n")
            let summary: TraceCollector.Summary
            do {
                summary = try collector.run { message in messages.write("replay: \(message)\n") }
            } catch {
                messages.finish(within: .seconds(2))
                throw error
            }
            let turnedAway = summary.timedOut + summary.evicted
            messages.write("recorded \(plural(summary.accepted, "event")) from \(plural(summary.connections, "connection")) into \(VisibleText.escape(trace)) (last seq \(summary.lastSeq))"
                + (summary.rejected > 0 ? "; rejected \(plural(summary.rejected, "line"))" : "")
                + (summary.refused > 0 ? "; refused \(plural(summary.refused, "connection"))" : "")
                + (turnedAway > 0 ? "; closed \(plural(turnedAway, "connection")) without a handshake" : "") + "\n")
            messages.finish(within: .seconds(2))
        }
    }
}

/// The collector's messages on standard error, written by a queue of their own: the collector's
/// loop only appends to a bounded buffer, so a terminal that is paused, a pipe that nobody reads
/// or a reader that went away never holds up a client or SIGTERM. Past 1 MiB waiting, messages
/// are dropped and counted ("N messages dropped"); write errors are ignored.
final class CollectorMessages: Sendable {
    private struct State {
        var waiting: [UInt8] = []
        var dropped = 0
        var draining = false
    }

    private static let capacity = 1 << 20
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "replay.collector-messages")

    /// Queues `text` (one or more whole lines).
    func write(_ text: String) {
        let start = state.withLock { s -> Bool in
            if s.waiting.count + text.utf8.count > Self.capacity {
                s.dropped += 1
                return false
            }
            if s.dropped > 0 {
                s.waiting.append(contentsOf: "replay: \(s.dropped) message\(s.dropped == 1 ? "" : "s") dropped: standard error is not read fast enough\n".utf8)
                s.dropped = 0
            }
            s.waiting.append(contentsOf: text.utf8)
            defer { s.draining = true }
            return !s.draining
        }
        if start { queue.async { self.drain() } }
    }

    /// Waits until everything queued is written, or `limit` passed (a stuck standard error).
    func finish(within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while state.withLock({ $0.draining }), ContinuousClock.now < deadline {
            usleep(5_000)
        }
    }

    private func drain() {
        while true {
            let bytes = state.withLock { s -> [UInt8] in
                defer { s.waiting.removeAll(keepingCapacity: true) }
                if s.waiting.isEmpty { s.draining = false }
                return s.waiting
            }
            if bytes.isEmpty { return }
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { writeStandardError($0.baseAddress! + offset, $0.count - offset) }  // `!`: non-empty
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }  // EPIPE, EIO…: the messages are lost, the work goes on
                offset += n
            }
        }
    }
}

/// `write(2)` to standard error, named apart from ``CollectorMessages/write(_:)``.
private func writeStandardError(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(2, bytes, count)
}
