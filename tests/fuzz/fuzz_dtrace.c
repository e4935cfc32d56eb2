/* Fuzz target for stackcollapse --format=dtrace; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "dtrace"
#include "collapse_fuzz.h"
