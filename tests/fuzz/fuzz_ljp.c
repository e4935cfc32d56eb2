/* Fuzz target for stackcollapse --format=ljp; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "ljp"
#include "collapse_fuzz.h"
