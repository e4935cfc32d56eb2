/* Fuzz target for stackcollapse --format=java-exceptions; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "java-exceptions"
#include "collapse_fuzz.h"
