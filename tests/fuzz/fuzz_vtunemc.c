/* Fuzz target for stackcollapse --format=vtune-mc; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "vtune-mc"
#include "collapse_fuzz.h"
