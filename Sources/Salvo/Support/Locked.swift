import Foundation
#if canImport(Darwin)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a lock, so that a reference type can be shared across threads.
///
/// `Mutex` from the Synchronization module would do this, but it needs macOS 15 / iOS 18 and Salvo
/// supports macOS 12 / iOS 15. This is one allocation holding the value and the platform lock
/// (`os_unfair_lock`, `pthread_mutex_t`) side by side; `NSLock` would add two more on Linux (the
/// object and its mutex), and every firing creates locks. It is `package`-visible so that
/// SalvoTesting shares it rather than keeping a copy.
package struct Locked<Value>: @unchecked Sendable {
    // Safe because the value is only reached inside `withLock`, between lock and unlock of the lock
    // stored next to it; nothing escapes the critical section except copies returned by `body`.
    private let storage: Storage

    /// A lock guarding `value`, which is made in the lock's storage rather than copied into it.
    package init(_ value: @autoclosure () -> Value) {
        storage = Storage.make(value)
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

extension Locked {
    /// The value as the buffer's header and the lock as its one element, so the lock never moves.
    private final class Storage: ManagedBuffer<Value, PlatformLock> {
        static func make(_ value: () -> Value) -> Storage {
            let buffer = create(minimumCapacity: 1) { _ in value() }
            buffer.withUnsafeMutablePointerToElements { PlatformLock.initialize($0) }
            // `create` returns the class it was called on; the cast cannot fail.
            return unsafeDowncast(buffer, to: Storage.self)
        }

        func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
            try withUnsafeMutablePointers { value, lock in
                PlatformLock.lock(lock)
                defer { PlatformLock.unlock(lock) }
                return try body(&value.pointee)
            }
        }

        deinit {
            withUnsafeMutablePointers { _, lock in PlatformLock.destroy(lock) }
        }
    }
}

#if canImport(Darwin)
/// The platform's lightest lock: `os_unfair_lock` on Apple platforms.
typealias PlatformLock = os_unfair_lock

extension os_unfair_lock {
    static func initialize(_ lock: UnsafeMutablePointer<os_unfair_lock>) { lock.initialize(to: os_unfair_lock()) }
    static func lock(_ lock: UnsafeMutablePointer<os_unfair_lock>) { os_unfair_lock_lock(lock) }
    static func unlock(_ lock: UnsafeMutablePointer<os_unfair_lock>) { os_unfair_lock_unlock(lock) }
    static func destroy(_ lock: UnsafeMutablePointer<os_unfair_lock>) { lock.deinitialize(count: 1) }
}
#else
/// The platform's lightest lock: `pthread_mutex_t` elsewhere.
typealias PlatformLock = pthread_mutex_t

extension pthread_mutex_t {
    static func initialize(_ lock: UnsafeMutablePointer<pthread_mutex_t>) {
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }
    static func lock(_ lock: UnsafeMutablePointer<pthread_mutex_t>) { pthread_mutex_lock(lock) }
    static func unlock(_ lock: UnsafeMutablePointer<pthread_mutex_t>) { pthread_mutex_unlock(lock) }
    static func destroy(_ lock: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
    }
}
#endif
