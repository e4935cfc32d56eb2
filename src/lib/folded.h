/*
 * folded: parse one line of folded stacks (folded(5)).
 *
 * The rule is flamegraph.pl's, /^(.*)\s+?(\d+(?:\.\d*)?)$/ applied once
 * for the count and, for differential input, once more for the count
 * before it: the count is the last field, digits with an optional
 * fraction, after at least one blank; the stack is everything before that
 * one blank (so extra blanks stay in the last frame, as in the Perl).
 * Counts are kept exactly (count.h: a whole part that does not fit is an
 * error, not a rounding; decimals past the 18th are cut, and said) and as
 * long double for layout: for a whole count its exact
 * value, for a fraction the double Perl converts it to, so that widths
 * are flamegraph.pl's.
 */
#ifndef FT_FOLDED_H
#define FT_FOLDED_H

#include <stddef.h>

#include "count.h"

struct folded {
	const char *stack;	/* frames, ';'-separated, root first */
	size_t stacklen;
	struct count c;		/* the (after) count, exact */
	struct count c1;	/* with two counts: the before count, exact */
	long double count;	/* c for layout */
	long double count1;	/* c1 for layout */
	int has2;		/* two counts: differential input */
	int cut;		/* decimals past count.h's were cut */
};

/*
 * Parse line s[0..n) (no newline; a trailing '\r' is ignored).  Returns 0;
 * -1 when the line is not a folded stack; -2 when it is one but a count's
 * whole part does not fit (an error to report with the line: exit 1).
 */
int folded_parse(const char *s, size_t n, struct folded *f);

#endif
