// A stand-in for Apple's `Darwin` module, so that Linux can type-check the
// `#if canImport(Darwin)` branches of the app-facing targets
// (scripts/check-darwin-branches). Not a package target: the script compiles
// it into a module named Darwin in a temporary folder; with that folder on
// the include path, `canImport(Darwin)` is true and the Darwin branches (and
// every other line of the files that `import Darwin`) are compiled.
//
// It does NOT re-export Glibc. With `@_exported import Glibc`, a declaration
// here shadows Glibc's only when both are types or both are variables; a Glibc
// *function* with a different signature stays callable beside the Darwin one
// (poll's nfds_t is UInt32 here and UInt in Glibc: a call passing UInt still
// compiled), and every Glibc-only name (CLOCK_BOOTTIME, …) stays visible. So
// this module declares, by itself, exactly the Darwin API the sources use,
// nothing more: a name the sources start using that is missing here fails the
// check until it is added here, with its source.
//
// Every declaration has the signature and types that Swift gives the C
// declaration in Apple's SDK:
// - C types by their Darwin definitions (`mode_t` is UInt16, `off_t` Int64,
//   `nfds_t` UInt32, `SOCK_STREAM` Int32, `clockid_t` an imported C enum,
//   `sockaddr` with `sa_len`, `stat` with `st_mtimespec`), so that code written
//   for Glibc fails here as it would in Xcode;
// - headers without nullability annotations import pointers as `T!`; pthread.h
//   is inside `assume_nonnull`, so its pointers are non-optional, `_Nullable`
//   ones `T?`; `size_t` and `ssize_t` import as Int; every imported C function
//   is `@discardableResult` (the overlay's Swift functions are not);
// - C functions the importer cannot bring over (variadic `open`, `fcntl`) and
//   `errno` come from the Swift overlay, swiftlang/swift
//   stdlib/public/Platform/Platform.swift, with its signatures.
// Sources, cited per group below: the man pages (section in parentheses) and
// the open-source headers they document: apple-oss-distributions/xnu
// (xnu-11417.101.15, bsd/...), apple-oss-distributions/Libc (Libc-1725.0.11,
// include/...), apple-oss-distributions/Libinfo (Libinfo-600, netdb.h) and
// apple/darwin-libpthread (include/pthread/pthread.h). Values are the headers'
// for the 64-bit platforms. Availability attributes are Apple's; Linux ignores them.
// The bodies trap: this module is only ever type-checked against, never linked.

@usableFromInline
func _standIn() -> Never { fatalError("Tests/DarwinStandIn is for type-checking only") }

// MARK: - Types (xnu bsd/i386/_types.h, bsd/sys/_types.h, bsd/sys/_types/*.h)

public typealias __darwin_size_t = Int  // unsigned long; size_t imports as Int
public typealias __darwin_ssize_t = Int  // long
public typealias __darwin_time_t = Int  // long
public typealias __darwin_socklen_t = UInt32  // __uint32_t
public typealias __darwin_mode_t = UInt16  // __uint16_t (Glibc: UInt32)
public typealias __darwin_off_t = Int64  // __int64_t, long long (Glibc x86_64: Int)
public typealias __darwin_pid_t = Int32
public typealias __darwin_dev_t = Int32
public typealias __darwin_uid_t = UInt32
public typealias __darwin_gid_t = UInt32
public typealias __darwin_ino64_t = UInt64
public typealias __darwin_blkcnt_t = Int64
public typealias __darwin_blksize_t = Int32

public typealias size_t = Int
public typealias ssize_t = __darwin_ssize_t
public typealias time_t = __darwin_time_t
public typealias socklen_t = __darwin_socklen_t  // sys/_types/_socklen_t.h
public typealias mode_t = __darwin_mode_t  // sys/_types/_mode_t.h
public typealias off_t = __darwin_off_t  // sys/_types/_off_t.h
public typealias pid_t = __darwin_pid_t
public typealias dev_t = __darwin_dev_t
public typealias uid_t = __darwin_uid_t
public typealias gid_t = __darwin_gid_t
public typealias nlink_t = UInt16  // sys/_types/_nlink_t.h: __uint16_t
public typealias blkcnt_t = __darwin_blkcnt_t
public typealias blksize_t = __darwin_blksize_t
public typealias sa_family_t = UInt8  // sys/_types/_sa_family_t.h: __uint8_t (Glibc: UInt16)
public typealias nfds_t = UInt32  // sys/poll.h: unsigned int (Glibc: UInt)

/// `struct timespec`, xnu bsd/sys/_types/_timespec.h: `{ __darwin_time_t tv_sec; long tv_nsec; }`.
public struct timespec: Sendable {
    public var tv_sec: __darwin_time_t
    public var tv_nsec: Int
    public init() { tv_sec = 0; tv_nsec = 0 }
    public init(tv_sec: __darwin_time_t, tv_nsec: Int) { self.tv_sec = tv_sec; self.tv_nsec = tv_nsec }
}

// MARK: - errno (intro(2); xnu bsd/sys/errno.h; Platform.swift for `errno`)

/// Platform.swift: `public var errno: Int32 { get set }`.
public var errno: Int32 {
    get { _standIn() }
    set { _standIn() }
}

public var EPERM: Int32 { 1 }
public var ENOENT: Int32 { 2 }
public var EINTR: Int32 { 4 }
public var EIO: Int32 { 5 }
public var EACCES: Int32 { 13 }
public var EEXIST: Int32 { 17 }
public var EFBIG: Int32 { 27 }
public var ENOSPC: Int32 { 28 }
public var EROFS: Int32 { 30 }
public var EAGAIN: Int32 { 35 }
public var EWOULDBLOCK: Int32 { 35 }  // #define EWOULDBLOCK EAGAIN
public var EINPROGRESS: Int32 { 36 }
public var ETIMEDOUT: Int32 { 60 }
public var ECONNREFUSED: Int32 { 61 }
public var EDQUOT: Int32 { 69 }

// MARK: - Strings (strerror(3), memchr(3), memmove(3); Libc include/_string.h)

/// `char *strerror(int __errnum);`
@discardableResult
public func strerror(_ __errnum: Int32) -> UnsafeMutablePointer<CChar>! { _standIn() }
/// `void *memchr(const void *__s, int __c, size_t __n);`
@discardableResult
public func memchr(_ __s: UnsafeRawPointer!, _ __c: Int32, _ __n: Int) -> UnsafeMutableRawPointer! { _standIn() }
/// `void *memmove(void *__dst, const void *__src, size_t __len);`
@discardableResult
public func memmove(_ __dst: UnsafeMutableRawPointer!, _ __src: UnsafeRawPointer!, _ __len: Int) -> UnsafeMutableRawPointer! { _standIn() }

// MARK: - Files (open(2), fcntl(2), fstat(2), mkdir(2); xnu bsd/sys/fcntl.h, bsd/sys/stat.h)

public var O_RDONLY: Int32 { 0x0000 }
public var O_RDWR: Int32 { 0x0002 }
public var O_NONBLOCK: Int32 { 0x0000_0004 }
public var O_CREAT: Int32 { 0x0000_0200 }
public var O_EXCL: Int32 { 0x0000_0800 }
public var O_CLOEXEC: Int32 { 0x0100_0000 }
public var F_GETFL: Int32 { 3 }
public var F_SETFL: Int32 { 4 }

/// Platform.swift (C's `open` is variadic, so the overlay declares it).
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { _standIn() }
/// Platform.swift: the mode is `mode_t`, UInt16 on Darwin.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { _standIn() }
/// Platform.swift (C's `fcntl` is variadic).
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { _standIn() }
/// Platform.swift.
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { _standIn() }
/// Platform.swift.
public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 { _standIn() }

/// Platform.swift declares the `S_IF*` file types as `mode_t`.
public var S_IFMT: mode_t { 0o170000 }
public var S_IFDIR: mode_t { 0o040000 }
public var S_IFREG: mode_t { 0o100000 }

/// `struct stat` with 64-bit inodes (`__DARWIN_STRUCT_STAT64`, the layout `stat` has
/// on every platform the package supports), xnu bsd/sys/stat.h. Its times are
/// `st_atimespec`…, not Glibc's `st_atim`….
public struct stat: Sendable {
    public var st_dev: dev_t
    public var st_mode: mode_t
    public var st_nlink: nlink_t
    public var st_ino: __darwin_ino64_t
    public var st_uid: uid_t
    public var st_gid: gid_t
    public var st_rdev: dev_t
    public var st_atimespec: timespec
    public var st_mtimespec: timespec
    public var st_ctimespec: timespec
    public var st_birthtimespec: timespec
    public var st_size: off_t
    public var st_blocks: blkcnt_t
    public var st_blksize: blksize_t
    public var st_flags: UInt32
    public var st_gen: UInt32
    public var st_lspare: Int32
    public var st_qspare: (Int64, Int64)
    public init() {
        st_dev = 0; st_mode = 0; st_nlink = 0; st_ino = 0; st_uid = 0; st_gid = 0; st_rdev = 0
        st_atimespec = timespec(); st_mtimespec = timespec(); st_ctimespec = timespec(); st_birthtimespec = timespec()
        st_size = 0; st_blocks = 0; st_blksize = 0; st_flags = 0; st_gen = 0; st_lspare = 0; st_qspare = (0, 0)
    }
}

/// `int fstat(int, struct stat *);`
@discardableResult
public func fstat(_ fd: Int32, _ buf: UnsafeMutablePointer<stat>!) -> Int32 { _standIn() }
/// `int mkdir(const char *, mode_t);`
@discardableResult
public func mkdir(_ path: UnsafePointer<CChar>!, _ mode: mode_t) -> Int32 { _standIn() }

// MARK: - unistd (close(2), read(2), pread(2), pwrite(2), fsync(2), ftruncate(2), unlink(2), getpid(2); Libc include/unistd.h)

/// `int close(int);`
@discardableResult
public func close(_ fd: Int32) -> Int32 { _standIn() }
/// `ssize_t read(int, void *, size_t __nbyte);`
@discardableResult
public func read(_ fd: Int32, _ buf: UnsafeMutableRawPointer!, _ __nbyte: Int) -> Int { _standIn() }
/// `ssize_t pread(int __fd, void *__buf, size_t __nbyte, off_t __offset);`
@discardableResult
public func pread(_ __fd: Int32, _ __buf: UnsafeMutableRawPointer!, _ __nbyte: Int, _ __offset: off_t) -> Int { _standIn() }
/// `ssize_t pwrite(int __fd, const void *__buf, size_t __nbyte, off_t __offset);`
@discardableResult
public func pwrite(_ __fd: Int32, _ __buf: UnsafeRawPointer!, _ __nbyte: Int, _ __offset: off_t) -> Int { _standIn() }
/// `int fsync(int);`
@discardableResult
public func fsync(_ fd: Int32) -> Int32 { _standIn() }
/// `int ftruncate(int, off_t);`
@discardableResult
public func ftruncate(_ fd: Int32, _ length: off_t) -> Int32 { _standIn() }
/// `int unlink(const char *);`
@discardableResult
public func unlink(_ path: UnsafePointer<CChar>!) -> Int32 { _standIn() }
/// `pid_t getpid(void);`
@discardableResult
public func getpid() -> pid_t { _standIn() }
/// getenv(3), Libc include/stdlib.h: `char *getenv(const char *);`
@discardableResult
public func getenv(_ name: UnsafePointer<CChar>!) -> UnsafeMutablePointer<CChar>! { _standIn() }

// MARK: - Clocks (clock_gettime(3); Libc include/_time.h)

/// `typedef enum { _CLOCK_REALTIME = 0, … } clockid_t;`: a C enum that is not `NS_ENUM`,
/// which Swift imports as a struct wrapping its raw value (`unsigned int`, all values being
/// non-negative). Glibc's `clockid_t` is Int32 and its `CLOCK_*` are Int32 macros.
public struct clockid_t: Equatable, Hashable, RawRepresentable, Sendable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// `_CLOCK_MONOTONIC_RAW __CLOCK_AVAILABILITY = 4,` with `#define CLOCK_MONOTONIC_RAW _CLOCK_MONOTONIC_RAW`.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public var _CLOCK_MONOTONIC_RAW: clockid_t { clockid_t(4) }
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public var CLOCK_MONOTONIC_RAW: clockid_t { clockid_t(4) }

/// `__CLOCK_AVAILABILITY int clock_gettime(clockid_t __clock_id, struct timespec *__tp);`
@discardableResult
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func clock_gettime(_ __clock_id: clockid_t, _ __tp: UnsafeMutablePointer<timespec>!) -> Int32 { _standIn() }

// MARK: - Mutexes (pthread_mutex_init(3), pthread_mutex_lock(3); apple/darwin-libpthread include/pthread/pthread.h, xnu EXTERNAL_HEADERS/sys/_pthread/_pthread_types.h)

/// `struct _opaque_pthread_mutex_t { long __sig; char __opaque[__PTHREAD_MUTEX_SIZE__]; };` (56 on LP64).
public struct _opaque_pthread_mutex_t: Sendable {
    public var __sig: Int
    public var __opaque: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                          CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                          CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                          CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                          CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                          CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                          CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() {
        __sig = 0
        __opaque = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }
}

/// `struct _opaque_pthread_mutexattr_t { long __sig; char __opaque[__PTHREAD_MUTEXATTR_SIZE__]; };` (8).
public struct _opaque_pthread_mutexattr_t: Sendable {
    public var __sig: Int
    public var __opaque: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { __sig = 0; __opaque = (0, 0, 0, 0, 0, 0, 0, 0) }
}

public typealias __darwin_pthread_mutex_t = _opaque_pthread_mutex_t
public typealias __darwin_pthread_mutexattr_t = _opaque_pthread_mutexattr_t
public typealias pthread_mutex_t = __darwin_pthread_mutex_t
public typealias pthread_mutexattr_t = __darwin_pthread_mutexattr_t

/// `int pthread_mutex_init(pthread_mutex_t * __restrict, const pthread_mutexattr_t * _Nullable __restrict);`
/// inside `assume_nonnull`: the mutex is non-optional, the attributes optional.
@discardableResult
@available(macOS 10.4, iOS 2.0, *)
public func pthread_mutex_init(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ attr: UnsafePointer<pthread_mutexattr_t>?) -> Int32 { _standIn() }
/// `int pthread_mutex_destroy(pthread_mutex_t *);`
@discardableResult
@available(macOS 10.4, iOS 2.0, *)
public func pthread_mutex_destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { _standIn() }
/// `int pthread_mutex_lock(pthread_mutex_t *);`
@discardableResult
@available(macOS 10.4, iOS 2.0, *)
public func pthread_mutex_lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { _standIn() }
/// `int pthread_mutex_unlock(pthread_mutex_t *);`
@discardableResult
@available(macOS 10.4, iOS 2.0, *)
public func pthread_mutex_unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { _standIn() }

// MARK: - Sockets (socket(2), connect(2), setsockopt(2), send(2), recv(2); xnu bsd/sys/socket.h, bsd/netinet/in.h, bsd/netinet/tcp.h)

public var AF_UNSPEC: Int32 { 0 }
/// `#define SOCK_STREAM 1`: an Int32 (Glibc: the enum `__socket_type`, hence `.rawValue` there).
public var SOCK_STREAM: Int32 { 1 }
public var SOL_SOCKET: Int32 { 0xffff }
public var SO_ERROR: Int32 { 0x1007 }
/// `#define SO_NOSIGPIPE 0x1022 /* APPLE: No SIGPIPE on EPIPE */`: Darwin only.
public var SO_NOSIGPIPE: Int32 { 0x1022 }
public var IPPROTO_TCP: Int32 { 6 }
public var TCP_NODELAY: Int32 { 0x01 }

/// `struct sockaddr { __uint8_t sa_len; sa_family_t sa_family; char sa_data[14]; };`
public struct sockaddr: Sendable {
    public var sa_len: UInt8
    public var sa_family: sa_family_t
    public var sa_data: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { sa_len = 0; sa_family = 0; sa_data = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }
}

/// `int socket(int, int, int);`
@discardableResult
public func socket(_ domain: Int32, _ type: Int32, _ protocol: Int32) -> Int32 { _standIn() }
/// `int connect(int, const struct sockaddr *, socklen_t);`
@discardableResult
public func connect(_ socket: Int32, _ address: UnsafePointer<sockaddr>!, _ address_len: socklen_t) -> Int32 { _standIn() }
/// `int setsockopt(int, int, int, const void *, socklen_t);`
@discardableResult
public func setsockopt(_ socket: Int32, _ level: Int32, _ option_name: Int32, _ option_value: UnsafeRawPointer!, _ option_len: socklen_t) -> Int32 { _standIn() }
/// `int getsockopt(int, int, int, void * __restrict, socklen_t * __restrict);`
@discardableResult
public func getsockopt(_ socket: Int32, _ level: Int32, _ option_name: Int32, _ option_value: UnsafeMutableRawPointer!, _ option_len: UnsafeMutablePointer<socklen_t>!) -> Int32 { _standIn() }
/// `ssize_t send(int, const void *, size_t, int);`
@discardableResult
public func send(_ socket: Int32, _ buffer: UnsafeRawPointer!, _ length: Int, _ flags: Int32) -> Int { _standIn() }
/// `ssize_t recv(int, void *, size_t, int);`
@discardableResult
public func recv(_ socket: Int32, _ buffer: UnsafeMutableRawPointer!, _ length: Int, _ flags: Int32) -> Int { _standIn() }

// MARK: - poll (poll(2); xnu bsd/sys/poll.h)

public var POLLIN: Int32 { 0x0001 }
public var POLLOUT: Int32 { 0x0004 }

/// `struct pollfd { int fd; short events; short revents; };`
public struct pollfd: Sendable {
    public var fd: Int32
    public var events: Int16
    public var revents: Int16
    public init() { fd = 0; events = 0; revents = 0 }
    public init(fd: Int32, events: Int16, revents: Int16) { self.fd = fd; self.events = events; self.revents = revents }
}

/// `int poll(struct pollfd *, nfds_t, int);`: `nfds_t` is UInt32 (Glibc: UInt).
@discardableResult
public func poll(_ fds: UnsafeMutablePointer<pollfd>!, _ nfds: nfds_t, _ timeout: Int32) -> Int32 { _standIn() }

// MARK: - Name resolution (getaddrinfo(3), gai_strerror(3); Libinfo lookup.subproj/netdb.h)

/// `struct addrinfo { int ai_flags, ai_family, ai_socktype, ai_protocol; socklen_t ai_addrlen;
/// char *ai_canonname; struct sockaddr *ai_addr; struct addrinfo *ai_next; };`
/// (`ai_canonname` before `ai_addr`, the other way round from Glibc).
public struct addrinfo {
    public var ai_flags: Int32
    public var ai_family: Int32
    public var ai_socktype: Int32
    public var ai_protocol: Int32
    public var ai_addrlen: socklen_t
    public var ai_canonname: UnsafeMutablePointer<CChar>!
    public var ai_addr: UnsafeMutablePointer<sockaddr>!
    public var ai_next: UnsafeMutablePointer<addrinfo>!
    public init() {
        ai_flags = 0; ai_family = 0; ai_socktype = 0; ai_protocol = 0; ai_addrlen = 0
        ai_canonname = nil; ai_addr = nil; ai_next = nil
    }
}

/// `int getaddrinfo(const char * __restrict, const char * __restrict, const struct addrinfo * __restrict, struct addrinfo ** __restrict);`
@discardableResult
public func getaddrinfo(_ hostname: UnsafePointer<CChar>!, _ servname: UnsafePointer<CChar>!, _ hints: UnsafePointer<addrinfo>!,
                        _ res: UnsafeMutablePointer<UnsafeMutablePointer<addrinfo>?>!) -> Int32 { _standIn() }
/// `void freeaddrinfo(struct addrinfo *);`
public func freeaddrinfo(_ ai: UnsafeMutablePointer<addrinfo>!) { _standIn() }
/// `const char *gai_strerror(int);`
@discardableResult
public func gai_strerror(_ ecode: Int32) -> UnsafePointer<CChar>! { _standIn() }
