/*
 * speedscope: stackcollapse --to=speedscope, the aggregated stacks as a
 * speedscope file (https://www.speedscope.app, its file-format-schema.json)
 * that speedscope's app opens as it is.
 */
#ifndef SC_SPEEDSCOPE_H
#define SC_SPEEDSCOPE_H

#include "../lib/folded.h"

/*
 * The speedscope unit ("none", "nanoseconds", "microseconds",
 * "milliseconds", "seconds", "bytes") that --unit=name means, or NULL
 * when name is none of those or "samples" (which is "none": a count of
 * samples has no unit in speedscope's sense).
 */
const char *speedscope_unit(const char *name);

/*
 * Write column 0 of a as one speedscope file holding one "sampled"
 * profile in unit (a speedscope_unit value): every distinct frame name
 * once in shared.frames, numbered from 0 in order of first appearance;
 * one sample per stack, its frames' numbers root first, in the stacks'
 * bytewise order, and its count as the sample's weight, exactly
 * (count.h: a fraction stays one); startValue 0 and endValue the total.
 * Frames are split as table.h says (empty ones kept, trailing ones
 * dropped).  Names are JSON strings as jsonesc.h writes them.  The same
 * stacks give the same bytes.  Returns 0, or -1 (nothing written) when
 * the total is 2^64 or more, for the caller to report with
 * TABLE_RANGE_WHAT (table.h).
 */
int speedscope_write(const struct folded_sum *a, const char *unit);

#endif
