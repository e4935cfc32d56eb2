/* Fuzz target for stackcollapse --format=vsprof; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "vsprof"
#include "collapse_fuzz.h"
