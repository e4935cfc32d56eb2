/* Fuzz target for stackcollapse --format=bpftrace; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "bpftrace"
#include "collapse_fuzz.h"
