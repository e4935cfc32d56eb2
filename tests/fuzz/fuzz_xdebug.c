/* Fuzz target for stackcollapse --format=xdebug; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "xdebug"
#include "collapse_fuzz.h"
