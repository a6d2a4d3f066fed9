// os.Logger's methods take an OSLogMessage, a string literal or interpolation: a String
// variable does not convert (Logger.error(_:) documentation). No Glibc counterpart: this
// probe only has to fail against the stand-in.
// expect: cannot convert value of type 'String' to expected argument type 'OSLogMessage'
#if canImport(os)
import os

func probe(_ text: String) {
    Logger(subsystem: "LifecycleLog", category: "probe").error(text)
}
#endif
