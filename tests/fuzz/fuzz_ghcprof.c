/* Fuzz target for stackcollapse --format=ghcprof; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "ghcprof"
#include "collapse_fuzz.h"
