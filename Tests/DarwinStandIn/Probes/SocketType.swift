// Glibc's SOCK_STREAM is the enum __socket_type; Darwin's is an Int32 macro (no rawValue).
// expect: value of type 'Int32' has no member 'rawValue'
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

func probe() -> Int32 {
    Int32(SOCK_STREAM.rawValue)
}
