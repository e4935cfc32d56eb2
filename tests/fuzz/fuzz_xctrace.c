/* Fuzz target for stackcollapse --format=xctrace; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "xctrace"
#include "collapse_fuzz.h"
