/*
 * bars: a flame graph's frames read back as bars in rows (row 0 the
 * root, which is no frame), made stacks again: what the readers of
 * pictures (svgread.c) and of Pyroscope's flamebearer (flamebearer.c)
 * share.  A bar has a position and a width in count units, the geometry
 * that says which bar of the row below holds it (its parent), and up to
 * two columns of totals (a differential graph's before and after); a
 * frame's self is its total less its children's.  Nothing is guessed
 * here: a bar that no bar below holds, bars of one row that overlap and
 * totals smaller than their children's are errors at the bar's line.
 * flamegraph.pl's rounded positions are resolved by svgread.c, which
 * then sets the parents itself.  The bars own their names (interned).
 */
#ifndef SC_BARS_H
#define SC_BARS_H

#include <stdint.h>

#include "../lib/count.h"
#include "../lib/intern.h"
#include "formats.h"

#define BAR_NONE UINT32_MAX

struct bar {
	struct count start, w;	/* geometry, in count units */
	struct count tot[2];	/* the columns' totals (one: tot[0]) */
	uint32_t row;		/* depth: 0 for the root */
	uint32_t name;		/* in bars.names */
	uint32_t parent;	/* index of the bar below, BAR_NONE in row 0 */
	uint64_t line;		/* where it was read, for messages */
};

struct bars {
	struct bar *b;
	size_t n, cap;
	struct intern names;
	int at_byte;		/* bar.line is a byte offset (one-line JSON) */
};

void bars_init(struct bars *b);
void bars_free(struct bars *b);
/* A new bar named s[0..n) in row row, read at line; zero otherwise. */
struct bar *bars_add(struct bars *b, const char *s, size_t n, uint32_t row,
    uint64_t line);
/*
 * Set every bar's parent from the geometry: the bar of the row below
 * whose span holds it (a bar of width 0 on the border of two: the left
 * one).  0, or -1 after a reported error.
 */
int bars_nest(struct bars *b, struct reader *r);
/*
 * self[i] = bar i's total in column col less its children's; 0, or -1
 * after a reported error (a total smaller than its children's).
 */
int bars_self(const struct bars *b, struct reader *r, int col,
    struct count *self);
/*
 * Each bar with a self as one stack into r's sink, root first (the root's
 * own self as the empty stack, so that the total is kept): one column,
 * or with self1 two (before, after).
 */
void bars_emit(const struct bars *b, struct reader *r,
    const struct count *self0, const struct count *self1);

#endif
