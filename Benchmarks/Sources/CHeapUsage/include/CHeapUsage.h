#ifndef C_HEAP_USAGE_H
#define C_HEAP_USAGE_H

/// Bytes of heap in use (glibc mallinfo2().uordblks), or -1 where glibc is not the allocator.
long long salvo_heap_bytes_in_use(void);

/// Bytes of heap in use including chunks malloc mapped on their own (uordblks + hblkhd), or -1.
long long salvo_heap_bytes_in_use_with_mapped(void);

#endif
