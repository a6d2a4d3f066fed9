// The platform's C library (POSIX: files, sockets, threads, errno), in one place: each file of the
// package that calls it has one line, `internal import LifecycleLogPlatform`, instead of its own
// `#if canImport(Darwin) … #elseif canImport(Glibc)` block. The import is internal, so the C library
// is no part of any module's interface: an app that links LifecycleLogRecorder does not see it.
// Pure Swift, no C: it builds wherever the recorder does (every Apple platform, Linux). Not a product.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#else
#error("LifecycleLogPlatform: no C library for this platform")
#endif
