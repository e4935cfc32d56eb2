/* Fuzz target for stackcollapse --format=gdb; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "gdb"
#include "collapse_fuzz.h"
