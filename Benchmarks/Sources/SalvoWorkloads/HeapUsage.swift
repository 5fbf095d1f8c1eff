import CHeapUsage

/// Bytes of heap in use right now (glibc `mallinfo2`), to see what a walk keeps alive.
///
/// `nil` where glibc is not the allocator (Darwin); the memory check is then skipped.
public func heapBytesInUse() -> Int? {
    let bytes = salvo_heap_bytes_in_use()
    return bytes < 0 ? nil : Int(bytes)
}
