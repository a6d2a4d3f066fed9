// A stand-in for Apple's Darwin module, so that Linux can type-check the Darwin branches of the
// app-facing targets (scripts/check-darwin-branches). It re-exports Glibc for the POSIX calls the
// two share, and declares, with the types Apple's SDK imports them with, the names whose Darwin
// form differs from Glibc's: a branch written with a Glibc spelling fails to type-check here.
// Each cites the header or manual page it follows; C functions are `@discardableResult`, as the
// Clang importer makes them. The bodies are never run.
@_exported import Glibc

/// <sys/socket.h>: `#define SOCK_STREAM 1`, imported as `var SOCK_STREAM: Int32` (Glibc has an enum).
public var SOCK_STREAM: Int32 { 1 }
/// <sys/socket.h>: `#define SO_NOSIGPIPE 0x1022`, imported as `var SO_NOSIGPIPE: Int32` (not in Glibc).
public var SO_NOSIGPIPE: Int32 { 0x1022 }
/// <sys/types.h>: `typedef __uint16_t mode_t` (Glibc's is 32 bits).
public typealias mode_t = UInt16

/// <time.h>: `typedef enum { _CLOCK_REALTIME = 0, _CLOCK_MONOTONIC = 6, _CLOCK_MONOTONIC_RAW = 4, … } clockid_t`,
/// imported as a Swift enum (Glibc's is `Int32`).
public enum clockid_t: UInt32, @unchecked Sendable {
    case _CLOCK_REALTIME = 0
    case _CLOCK_MONOTONIC_RAW = 4
    case _CLOCK_MONOTONIC = 6
}
/// <time.h>: `#define CLOCK_MONOTONIC_RAW _CLOCK_MONOTONIC_RAW` (macOS 10.12, iOS 10).
public var CLOCK_MONOTONIC_RAW: clockid_t { ._CLOCK_MONOTONIC_RAW }
/// <time.h>: `#define CLOCK_MONOTONIC _CLOCK_MONOTONIC`.
public var CLOCK_MONOTONIC: clockid_t { ._CLOCK_MONOTONIC }
/// clock_gettime(3): `int clock_gettime(clockid_t __clock_id, struct timespec *__tp)`.
@discardableResult public func clock_gettime(_ __clock_id: clockid_t, _ __tp: UnsafeMutablePointer<timespec>!) -> Int32 { 0 }
/// Darwin overlay: `func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32`. Declared
/// here for a `String` path (which Apple's takes by conversion), so that overload resolution picks it
/// over Glibc's re-exported one, whose `mode_t` is 32 bits.
@discardableResult public func open(_ path: String, _ oflag: Int32, _ mode: mode_t) -> Int32 { -1 }
/// close(2): `int close(int)`.
@discardableResult public func close(_ fd: Int32) -> Int32 { -1 }
/// connect(2): `int connect(int socket, const struct sockaddr *address, socklen_t address_len)`.
@discardableResult public func connect(_ socket: Int32, _ address: UnsafePointer<sockaddr>!, _ address_len: socklen_t) -> Int32 { -1 }

// Names Glibc has and Darwin does not, which the Glibc branches use: unavailable here, so that a
// Darwin branch that used one fails (the declaration of the importing module shadows Glibc's).
/// Linux's clock that counts while suspended; Darwin's is `CLOCK_MONOTONIC_RAW`.
@available(*, unavailable, message: "Darwin has no CLOCK_BOOTTIME; use CLOCK_MONOTONIC_RAW")
public var CLOCK_BOOTTIME: clockid_t { ._CLOCK_MONOTONIC }
/// Linux's per-call flag against SIGPIPE; Darwin sets `SO_NOSIGPIPE` on the socket.
@available(*, unavailable, message: "Darwin has no MSG_NOSIGNAL; set SO_NOSIGPIPE on the socket")
public var MSG_NOSIGNAL: Int32 { 0 }
