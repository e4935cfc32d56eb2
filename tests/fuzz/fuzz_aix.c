/* Fuzz target for stackcollapse --format=aix; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "aix"
#include "collapse_fuzz.h"
