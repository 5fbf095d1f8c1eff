#ifndef C_CALLGRIND_H
#define C_CALLGRIND_H

/// Whether this process runs under valgrind (0 where valgrind's headers were not found at build time).
int salvo_running_on_valgrind(void);

/// Zeroes callgrind's counters, every thread's.
void salvo_callgrind_zero_stats(void);

/// Writes callgrind's counters since the last zeroing to a dump named `reason`.
void salvo_callgrind_dump_stats(const char *reason);

#endif
