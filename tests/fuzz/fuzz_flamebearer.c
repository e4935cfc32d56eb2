/* Fuzz target for stackcollapse --format=flamebearer; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "flamebearer"
#include "collapse_fuzz.h"
