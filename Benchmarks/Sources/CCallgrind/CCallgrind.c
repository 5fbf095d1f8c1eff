#include "CCallgrind.h"

// Valgrind's client requests are macros of inline assembly, free when not under valgrind. Where
// its headers are missing (valgrind not installed) the tool still builds and says so when run.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

int salvo_running_on_valgrind(void) {
    return RUNNING_ON_VALGRIND;
}

void salvo_callgrind_zero_stats(void) {
    CALLGRIND_ZERO_STATS;
}

void salvo_callgrind_dump_stats(const char *reason) {
    CALLGRIND_DUMP_STATS_AT(reason);
}
#else
int salvo_running_on_valgrind(void) {
    return 0;
}

void salvo_callgrind_zero_stats(void) {}

void salvo_callgrind_dump_stats(const char *reason) {
    (void)reason;
}
#endif
