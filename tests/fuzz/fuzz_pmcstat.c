/* Fuzz target for stackcollapse --format=pmcstat; the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "pmcstat"
#include "collapse_fuzz.h"
