/* Fuzz target for stackcollapse --format=jstack; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "jstack"
#include "collapse_fuzz.h"
