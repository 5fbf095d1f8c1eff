#include "CHeapUsage.h"

#if defined(__linux__)
#include <malloc.h>
#endif

#if defined(__GLIBC__)
long long salvo_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)info.uordblks;
}

long long salvo_heap_bytes_in_use_with_mapped(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#else
long long salvo_heap_bytes_in_use(void) {
    return -1;
}

long long salvo_heap_bytes_in_use_with_mapped(void) {
    return -1;
}
#endif
