/* Fuzz target for stackcollapse --format=svg; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "svg"
#include "collapse_fuzz.h"
