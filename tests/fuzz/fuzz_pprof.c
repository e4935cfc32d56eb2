/* Fuzz target for stackcollapse --format=pprof (profile.proto, protobuf.c); the body is collapse_fuzz.h. */
#define FUZZ_FORMAT "pprof"
#include "collapse_fuzz.h"
