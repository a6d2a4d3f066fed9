// CLOCK_BOOTTIME is Linux only; Darwin's monotonic clocks are CLOCK_MONOTONIC(_RAW), CLOCK_UPTIME_RAW.
// expect: cannot find 'CLOCK_BOOTTIME' in scope
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

func probe() -> Int {
    var now = timespec()
    _ = clock_gettime(CLOCK_BOOTTIME, &now)
    return now.tv_sec
}
