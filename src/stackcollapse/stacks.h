/*
 * stacks: turn the counted stacks of one or more parser contexts into
 * sorted folded lines on standard output.
 */
#ifndef SC_STACKS_H
#define SC_STACKS_H

#include "perf.h"

struct fmt_run;

/*
 * Join each distinct stack's frames with ';', merge equal lines across
 * contexts (and across stacks that join to the same text), sort them
 * bytewise as Perl's `sort { $a cmp $b }` does and write "STACK COUNT\n";
 * or what run->to asks (sink_write_sum).  Returns 0, or -1 when a merged
 * count overflows 64 bits or the output could not be written (reported,
 * nothing written).
 */
int stacks_write(struct perf_ctx *ctx, int nctx, const struct fmt_run *run);

/*
 * --no-aggregate: write one sample's stack (frame ids of c, leaf first) and
 * count as a folded line at once, transformed by the options' xf.
 */
void stacks_emit(struct perf_ctx *c, const uint32_t *ids, size_t n,
    uint64_t count);

#endif
