/*
 * folded: parse one line of folded stacks (folded(5)).
 *
 * The rule is flamegraph.pl's, /^(.*)\s+?(\d+(?:\.\d*)?)$/ applied once
 * for the count and, for differential input, once more for the count
 * before it: the count is the last field, digits with an optional
 * fraction, after at least one blank; the stack is everything before that
 * one blank (so extra blanks stay in the last frame, as in the Perl).
 * Counts are kept as text spans and as long double, which on x86-64 holds
 * every integer below 2^64 exactly.
 */
#ifndef FT_FOLDED_H
#define FT_FOLDED_H

#include <stddef.h>

struct folded {
	const char *stack;	/* frames, ';'-separated, root first */
	size_t stacklen;
	long double count;	/* the (after) count */
	long double count1;	/* with two counts: the before count */
	int has2;		/* two counts: differential input */
};

/*
 * Parse line s[0..n) (no newline; a trailing '\r' is ignored).  Returns 0,
 * or -1 when the line is not a folded stack.
 */
int folded_parse(const char *s, size_t n, struct folded *f);

#endif
