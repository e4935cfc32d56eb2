/* Fuzz target for stackcollapse --format=stap; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "stap"
#include "collapse_fuzz.h"
