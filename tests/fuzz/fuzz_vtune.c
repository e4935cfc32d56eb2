/* Fuzz target for stackcollapse --format=vtune; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "vtune"
#include "collapse_fuzz.h"
