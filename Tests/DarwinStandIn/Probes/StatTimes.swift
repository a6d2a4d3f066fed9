// Glibc's struct stat has st_mtim; Darwin's has st_mtimespec.
// expect: value of type 'stat' has no member 'st_mtim'
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

func probe(_ fd: Int32) -> Int {
    var info = stat()
    _ = fstat(fd, &info)
    return info.st_mtim.tv_sec
}
