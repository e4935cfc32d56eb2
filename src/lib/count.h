/*
 * count: the count of a folded stack (folded(5)), parsed, summed and
 * written the one way by every program, with one overflow policy.
 *
 * A count is a non-negative decimal: a whole part below 2^64 and at most
 * COUNT_FRAC digits after the point (folded input may carry fractions;
 * flamegraph.pl accepts them), held exactly as two integers, so that sums
 * keep every digit and a count is written back as it was read (less
 * leading zeros, and trailing zeros of the fraction).  A whole part that
 * does not fit is an error for the caller to name with its file and line
 * (exit 1), never rounded, clamped or written as "inf".  Digits past the
 * COUNT_FRAC-th decimal are cut, and said: an error where the count is
 * written back, nothing where it is cut to a whole number anyway
 * (difffolded.pl's, inferno's --diff) or laid out in double as
 * flamegraph.pl does.
 *
 * Rejected: long double, which rounds past 2^64 and makes 0.1 + 0.2 a
 * binary fraction to be rounded back for printing; unbounded decimal
 * text, whose sums would cost an allocation each for no real profile.
 */
#ifndef FT_COUNT_H
#define FT_COUNT_H

#include <stddef.h>
#include <stdint.h>

#define COUNT_FRAC 18		/* digits after the point that are kept */
#define COUNT_ONE 1000000000000000000ull	/* 10^COUNT_FRAC */
#define COUNT_TEXT_MAX 40	/* 20 digits, '.', 18 digits, NUL */

/* What is wrong with a count, for the message of every program. */
#define COUNT_RANGE_WHAT "does not fit in 64 bits"
#define COUNT_CUT_WHAT "has more than 18 decimals"

struct count {
	uint64_t whole;
	uint64_t frac;		/* units of 10^-COUNT_FRAC, below COUNT_ONE */
};

/*
 * Parse s[0..n): digits, then optionally '.' and more digits (none is
 * fine: "5." is 5).  Returns 0; 1 when nonzero digits past the
 * COUNT_FRAC-th decimal were cut; -1 when the text is not a count; -2
 * when its whole part is 2^64 or more.
 */
int count_parse(const char *s, size_t n, struct count *c);

/* *a += *b.  Returns 0, or -1 (and *a unchanged) when the sum is 2^64 or more. */
int count_add(struct count *a, const struct count *b);

/* The same for whole counts, where every count is one (perf periods). */
static inline int
count_add_u64(uint64_t *a, uint64_t b)
{
	if (*a > UINT64_MAX - b)
		return -1;
	*a += b;
	return 0;
}

/* *a -= *b.  Returns 0, or -1 (and *a unchanged) when *b is larger. */
int count_sub(struct count *a, const struct count *b);

/* -1, 0 or 1 as *a is less than, equal to or greater than *b. */
int count_cmp(const struct count *a, const struct count *b);

/*
 * Write c in decimal to buf (no NUL): the whole part, then the fraction
 * without its trailing zeros, if it has one.  buf must hold
 * COUNT_TEXT_MAX bytes.  Returns the length.
 */
size_t count_fmt(char *buf, const struct count *c);

/* Write c to the output (out.h), as count_fmt spells it. */
void count_put(const struct count *c);

/* c's value, rounded to long double (exact for whole counts). */
long double count_ld(const struct count *c);

#endif
