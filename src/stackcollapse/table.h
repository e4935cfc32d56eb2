/*
 * table: stackcollapse --to=table, the aggregated stacks as a table of
 * functions (pprof's top, Pyroscope's function table) for scripts.
 */
#ifndef SC_TABLE_H
#define SC_TABLE_H

#include "../lib/folded.h"

/*
 * Write column 0 of a as the table (stackcollapse(1), --to=table):
 *
 *	# total<TAB>T
 *	# self<TAB>total<TAB>self%<TAB>total%<TAB>name
 *	SELF<TAB>TOTAL<TAB>SELF%<TAB>TOTAL%<TAB>NAME
 *	...
 *
 * one row per distinct frame name, heaviest self first, ties by name
 * bytewise.  T is the sum of every stack's count; SELF the sum over the
 * stacks whose leaf is NAME; TOTAL the sum over the stacks that hold NAME
 * anywhere, once per stack however often it recurs; SELF% and TOTAL%
 * those as shares of T, "12.34%" (0.00% when T is 0).  Frames are the
 * stack's ';'-separated fields as flamegraph.pl (and flamegraph-svg)
 * split them: empty ones kept but trailing ones dropped, so an empty
 * stack has no frames and counts only in T.  Counts are exact (count.h).
 * Returns 0, or -1 (nothing written) when T is 2^64 or more, for the
 * caller to report with TABLE_RANGE_WHAT; no SELF or TOTAL can be larger
 * than T, and no stack's sum either: a sum that did not fit while the
 * stacks were summed is this error too.  A unit ("ns", "bytes",
 * "objects", or NULL when unknown) is said first, as folded(5)'s line.
 */
int table_write(const struct folded_sum *a, const char *unit);

/*
 * The same for a differential sum (column 0 before, 1 after: --diff):
 *
 *	# total<TAB>TB<TAB>TA
 *	# self_before<TAB>total_before<TAB>self_after<TAB>total_after<TAB>name
 *	SB<TAB>TOTB<TAB>SA<TAB>TOTA<TAB>NAME
 *	...
 *
 * ordered by the growth of the name's self share, SA/TA - SB/TB (a share
 * of an empty side is 0), largest first, so that what got slower leads;
 * ties by name bytewise.  Returns -1 (nothing written) when TB or TA is
 * 2^64 or more.
 */
int table_write_diff(const struct folded_sum *a, const char *unit);

#define TABLE_RANGE_WHAT "the counts of all stacks sum to 2^64 or more"


#endif
