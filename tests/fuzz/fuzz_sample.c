/* Fuzz target for stackcollapse --format=sample; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "sample"
#include "collapse_fuzz.h"
