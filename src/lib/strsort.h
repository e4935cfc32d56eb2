/*
 * strsort: byte strings sorted in memcmp's order, a prefix first (Perl's
 * sort, flamegraph.pl's order of folded lines).
 *
 * A multikey quicksort (Bentley and Sedgewick) whose characters are
 * eight bytes: each item carries the eight bytes of its string at the
 * depth its part of the array is being sorted at, as one integer that
 * compares as the bytes do, so a partition reads no string; only the
 * items that tie on all eight go on, eight bytes deeper, and read their
 * strings again.  A comparison sort of whole strings (qsort) compared
 * each pair from the first byte, through long common prefixes, and read
 * the strings scattered over the input at every one of its n log n steps:
 * 40% of a flame graph of 200,000 unsorted stacks.  Long parts are put
 * in the order of their keys by an LSD radix sort instead, with no
 * comparison (it needs a second array of items); short parts end in an
 * insertion sort from the depth reached; a part that partitions badly
 * (quicksort's worst case) is merge sorted (sort.h) from its depth.
 *
 * Not stable: equal strings come out in any order, so callers sort
 * strings that are all distinct, or whose ties do not matter.  The
 * strings are the caller's and are only read.
 */
#ifndef FT_STRSORT_H
#define FT_STRSORT_H

#include <stddef.h>
#include <stdint.h>

struct strsort_item {
	const char *s;		/* the string, s[0..n) */
	uint32_t n;
	uint32_t id;		/* the caller's, carried along */
	uint64_t key;		/* strsort's own */
};

/* Sort v[0..n) by their strings. */
void strsort(struct strsort_item *v, size_t n);

#endif
