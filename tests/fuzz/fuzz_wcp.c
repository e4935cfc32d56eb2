/* Fuzz target for stackcollapse --format=wcp; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "wcp"
#include "collapse_fuzz.h"
