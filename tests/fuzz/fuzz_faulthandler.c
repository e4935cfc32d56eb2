/* Fuzz target for stackcollapse --format=faulthandler; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "faulthandler"
#include "collapse_fuzz.h"
