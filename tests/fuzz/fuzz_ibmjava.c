/* Fuzz target for stackcollapse --format=ibmjava; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "ibmjava"
#include "collapse_fuzz.h"
