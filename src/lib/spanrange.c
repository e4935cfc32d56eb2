/*
 * spanrange: see spanrange.h for the design note.
 */
#include "spanrange.h"

enum span_range
span_range_check(int64_t start, uint64_t dur)
{
	if (start < SPAN_TIME_MIN || start > SPAN_TIME_MAX)
		return SPAN_START_OUT;
	/* SPAN_TIME_MAX - start is at most 2^63: it fits, unsigned. */
	if (dur > (uint64_t)SPAN_TIME_MAX - (uint64_t)start)
		return SPAN_END_OUT;
	return dur > (uint64_t)SPAN_TIME_MAX ? SPAN_TOO_LONG : SPAN_IN_RANGE;
}

const char *
span_range_what(enum span_range r)
{
	return r == SPAN_START_OUT ? "start outside -2^62 to 2^62 ns"
	    : r == SPAN_END_OUT ? "span ends past 2^62 ns"
	    : r == SPAN_TOO_LONG ? "span lasts more than 2^62 ns" : "in range";
}
