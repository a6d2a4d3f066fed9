// nfds_t is UInt in Glibc, UInt32 on Darwin (xnu bsd/sys/poll.h).
// expect: to expected argument type 'nfds_t' (aka 'UInt32')
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

func probe(_ fd: Int32) -> Int32 {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let count: UInt = 1
    return poll(&entry, count, 0)
}
