// off_t (st_size) is Int in Glibc on 64-bit Linux, Int64 on Darwin.
// expect: cannot convert value of type 'off_t' (aka 'Int64')
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

func probe(_ fd: Int32) -> Int {
    var info = stat()
    _ = fstat(fd, &info)
    let size: Int = info.st_size
    return size
}
