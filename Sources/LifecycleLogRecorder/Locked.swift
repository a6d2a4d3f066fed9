#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a mutex, for state shared between threads.
///
/// The standard library's `Synchronization.Mutex` needs macOS 15, iOS 18,
/// tvOS 18, watchOS 11 and visionOS 2; the recorder runs inside apps that
/// support older systems, so the package uses this instead: a POSIX mutex,
/// which every platform it declares has. `package`: shared by the library and
/// the `replay` executable, not part of the public API.
package final class Locked<State>: @unchecked Sendable {
    // @unchecked Sendable: `state` is only reached inside `withLock`, under `mutex`.
    // `unsafe`: the mutex lives at a fixed address (POSIX forbids moving one), allocated here and freed in deinit.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Guards `state`.
    package init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state, and returns what it returns.
    @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
