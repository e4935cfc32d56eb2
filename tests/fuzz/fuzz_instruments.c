/* Fuzz target for stackcollapse --format=instruments; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "instruments"
#include "collapse_fuzz.h"
