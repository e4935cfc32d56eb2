/*
 * pprofout: stackcollapse --to=pprof, the aggregated stacks as a pprof
 * profile (profile.proto), for go tool pprof and the profiling servers
 * (Pyroscope, Parca) that ingest it.
 */
#ifndef SC_PPROFOUT_H
#define SC_PPROFOUT_H

#include "../lib/folded.h"

/*
 * The sample type --sample-unit=UNIT names: "count" or "samples"
 * (samples/count, the default), "nanoseconds" (cpu/nanoseconds), "bytes"
 * (space/bytes), "objects" (objects/count), or "TYPE/UNIT" as given.
 * Returns 0 with *type and *unit set (pointing into arg or static), or
 * -1 when arg is none of those.
 */
int pprof_unit(const char *arg, const char **type, size_t *typelen,
    const char **unit);

/*
 * Write column 0 of a as a profile on standard output, gzip-compressed
 * when zlib is built in: one sample type (pprof_unit(unit); NULL is
 * samples/count), one sample per stack, one function and location per
 * distinct frame name.  Counts must be whole and below 2^63 (pprof's
 * values are int64).  Returns 0, or -1 after saying why (nothing written).
 */
int pprof_write(const struct folded_sum *a, const char *unit);

#endif
