internal import LifecycleLogPlatform

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
    // The state is allocated beside it rather than stored in a `var`: the mutex already
    // makes access exclusive, and a class's `var` would add a runtime exclusivity check
    // (`swift_beginAccess`) to every call, which a recorder call on the app's thread cannot afford.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<State>

    /// Guards `state`.
    package init(_ state: consuming State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state, and returns what it returns.
    @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// Locks and returns the state's address, for the one path that cannot afford a closure
    /// (a recorder call on the app's thread, where capturing a value in a closure copies it).
    /// The caller reaches the state only through the pointer, only until it calls
    /// ``unlock()``, on every path, with nothing that can throw in between.
    @inline(__always)
    package func lockForHotPath() -> UnsafeMutablePointer<State> {
        pthread_mutex_lock(mutex)
        return state
    }

    /// Unlocks after ``lockForHotPath()``.
    @inline(__always)
    package func unlock() {
        pthread_mutex_unlock(mutex)
    }
}
