/* Fuzz target for stackcollapse --format=go; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "go"
#include "collapse_fuzz.h"
