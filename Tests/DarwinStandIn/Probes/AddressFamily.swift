// sa_family_t is UInt16 in Glibc, UInt8 on Darwin (where sockaddr starts with sa_len).
// expect: cannot convert value of type 'sa_family_t' (aka 'UInt8')
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

func probe() -> UInt16 {
    let family: UInt16 = sockaddr().sa_family
    return family
}
