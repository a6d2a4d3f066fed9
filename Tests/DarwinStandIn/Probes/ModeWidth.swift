// mode_t is UInt32 in Glibc, UInt16 on Darwin (xnu bsd/sys/_types.h).
// expect: cannot convert value of type 'mode_t' (aka 'UInt16')
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

func probe() -> UInt32 {
    let permissions: UInt32 = mode_t(0o644)
    return permissions
}
