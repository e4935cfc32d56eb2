/*
 * spanrange: the one range of times that every reader of spans(5) takes.
 *
 * A span's start and its end (start + duration) lie within plus or minus
 * 2^62 ns, about 146 years either side of the epoch (or of whatever time
 * the trace counts from), and it lasts at most 2^62 ns.  Then the time
 * between any two of them fits a signed 64-bit integer, and so does a
 * duration, so no reader overflows computing an end, a self time or a
 * time relative to the earliest start.  The same check is made
 * of the times spanlayout writes, relative to the earliest start, so that
 * whatever it writes its readers (itself, flamegraph-svg's timeline) take
 * back.  Rejected: all of int64 (an end, or the distance between two
 * starts, overflows; one reader took starts another then refused) and a
 * check per program (three programs drew three different edges).
 */
#ifndef FT_SPANRANGE_H
#define FT_SPANRANGE_H

#include <stdint.h>

#define SPAN_TIME_MAX ((int64_t)1 << 62)
#define SPAN_TIME_MIN (-SPAN_TIME_MAX)

enum span_range { SPAN_IN_RANGE, SPAN_START_OUT, SPAN_END_OUT, SPAN_TOO_LONG };

/*
 * Whether a span starting at start (ns) and lasting dur ns is in range;
 * the start is checked first, then the end, then the duration.
 */
enum span_range span_range_check(int64_t start, uint64_t dur);

/* What is wrong, for a message: "start outside ...", "span ends past ...". */
const char *span_range_what(enum span_range r);

#endif
