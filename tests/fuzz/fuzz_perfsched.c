/* Fuzz target for stackcollapse --format=perf-sched; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "perf-sched"
#include "collapse_fuzz.h"
