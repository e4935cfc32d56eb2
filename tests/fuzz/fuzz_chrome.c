/* Fuzz target for stackcollapse --format=chrome; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "chrome"
#include "collapse_fuzz.h"
