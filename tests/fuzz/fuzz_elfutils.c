/* Fuzz target for stackcollapse --format=elfutils; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "elfutils"
#include "collapse_fuzz.h"
