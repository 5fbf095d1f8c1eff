import CHeapUsage

/// Bytes of heap in use right now (glibc `mallinfo2`), to see what a walk keeps alive.
///
/// `nil` where glibc is not the allocator (Darwin); the memory check is then skipped.
public func heapBytesInUse() -> Int? {
    let bytes = salvo_heap_bytes_in_use()
    return bytes < 0 ? nil : Int(bytes)
}

/// Bytes of heap in use including large blocks malloc mapped on their own (glibc `mallinfo2`:
/// `uordblks + hblkhd`), to compare live allocations with the resident set; `nil` off glibc.
public func heapBytesInUseWithMapped() -> Int? {
    let bytes = salvo_heap_bytes_in_use_with_mapped()
    return bytes < 0 ? nil : Int(bytes)
}
