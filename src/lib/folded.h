/*
 * folded: folded stacks (folded(5)) read and written, the one way for
 * every program: a line parsed, a frame made fit for a stack, stacks
 * summed by their text and handed out sorted, a line written.
 *
 * Reading.
 * The rule is flamegraph.pl's, /^(.*)\s+?(\d+(?:\.\d*)?)$/ applied once
 * for the count and, for differential input, once more for the count
 * before it: the count is the last field, digits with an optional
 * fraction, after at least one blank; the stack is everything before that
 * one blank (so extra blanks stay in the last frame, as in the Perl).
 * Whether a file is differential is decided once, by its first line
 * (folded(5)), never line by line as the Perl does: in a file of one
 * count a line, a last frame that ends in a number ("handler 12") is a
 * name, not a count before the count.
 * Counts are kept exactly (count.h: a whole part that does not fit is an
 * error, not a rounding; decimals past the 18th are cut, and said) and as
 * long double for layout: for a whole count its exact
 * value, for a fraction the double Perl converts it to, so that widths
 * are flamegraph.pl's.
 */
#ifndef FT_FOLDED_H
#define FT_FOLDED_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "input.h"
#include "intern.h"

/*
 * What the counts are, said on a file's first line (folded(5)): "# unit:
 * NAME" (ns, bytes or objects).  Written where the counts' unit is known
 * and no other tool's output is matched byte for byte (trace-record's
 * folded stacks); flamegraph.pl skips the line with a warning, inferno
 * without one.  folded_unit: whether line p[0..n) is one, its NAME in
 * unit (room for FOLDED_UNIT_MAX bytes and a NUL).
 */
#define FOLDED_UNIT_LINE "# unit: "
#define FOLDED_UNIT_MAX 15
int folded_unit(const char *p, size_t n, char *unit);

/*
 * The leaf frame that marks a stack as off-CPU time (folded(5)): a wall
 * clock run's blocked intervals, perf script's offcpu-time samples.  A
 * frame, not an annotation, so that the frames above it stay those of
 * the on-CPU stacks, and flamegraph.pl and inferno draw it as one.
 */
#define OFFCPU_FRAME	"[off-cpu]"

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
 * Parse line s[0..n) (no newline; a trailing '\r' is ignored), with a
 * count before the count looked for when two is set (a differential
 * file's lines, or a first line).  Returns 0; -1 when the line is not a
 * folded stack; -2 when it is one but a count's whole part does not fit
 * (an error to report with the line: exit 1).
 */
int folded_parse(const char *s, size_t n, int two, struct folded *f);

/*
 * A file's kind, which its first line decides: FOLDED_TWO when that
 * line has two counts (differential), else FOLDED_ONE; FOLDED_UNSEEN
 * before it.  folded_next keeps it.
 */
enum { FOLDED_UNSEEN = -1, FOLDED_ONE = 0, FOLDED_TWO = 1 };

/* Report line p[0..n), line `line` of in, whose count does not fit. */
void folded_range_error(const struct input *in, uint64_t line, const char *p,
    size_t n);

/*
 * The next line of in that is not empty, in *p and *n, parsed into *f
 * as the file's kind *kind says (FOLDED_UNSEEN at its start; the first
 * valid line sets it): 1, with folded_parse's 0 or -1 in *fr, or -3 for
 * a line of one count in a differential file; 0 at the end; -1 after a
 * read error or a count that does not fit, which it reports ("prog:
 * file:line: count does not fit in 64 bits: the line").  *line counts
 * the lines read, empty ones too.  The loop every reader of folded files
 * shares; inline, as input_getline is, on the readers' hot path.
 */
static inline int
folded_next(struct input *in, uint64_t *line, const char **p, size_t *n,
    struct folded *f, int *fr, int *kind)
{
	int r;

	while ((r = input_getline(in, p, n)) > 0) {
		++*line;
		if (*n == 0)
			continue;
		*fr = folded_parse(*p, *n, *kind != FOLDED_ONE, f);
		if (*fr == 0 && *kind == FOLDED_UNSEEN)
			*kind = f->has2 ? FOLDED_TWO : FOLDED_ONE;
		else if (*fr == 0 && *kind == FOLDED_TWO && !f->has2)
			*fr = -3;
		if (*fr != -2)
			return 1;
		folded_range_error(in, *line, *p, *n);
		return -1;
	}
	return r < 0 ? -1 : 0;
}

/*
 * Frames.  A name becomes a frame with ';' (which parts frames) made ':'
 * and a line break ('\n', '\r': it would end the line, or be taken for
 * its end) made ' ', in place; and when it ends in a blank and a number
 * ("handler 12", which as a stack's last frame reads as a count before
 * the count), that blank made '_'.  Every writer calls this on each name
 * it appends, after any tidying that can make those bytes (a Rust "$u3b$"
 * is a ';'), so that no format is left out.  Most names hold none of the
 * three bytes: it tests them a block at a time and writes nothing then.
 */
void folded_frame_fix(char *s, size_t n);

/*
 * Stacks read from a file of one count a line, whose frames were made
 * by another writer: whether a frame of s[0..n) ends in a blank and a
 * number; and that blank of each such frame made '_', in place, as
 * folded_frame_fix does, so that the stack written again is unambiguous.
 */
int folded_stack_ambiguous(const char *s, size_t n);
void folded_stack_fix(char *s, size_t n);

/*
 * Writing: "STACK C\n" on standard output (out.h), or with c1 non-NULL
 * a differential line, "STACK C C1\n" (c before, c1 after).
 */
void folded_write(const char *s, size_t n, const struct count *c,
    const struct count *c1);

/*
 * Aggregation: stacks summed by their text, in up to two columns (a
 * differential file's before and after; one otherwise).  Stacks are
 * interned (intern.h), so each distinct stack is stored once and an id
 * names it; counts are exact (count.h) and a sum that does not fit is
 * refused, never rounded.  Consumers take the ids in bytewise order of
 * the stacks (folded_sum_sorted) and read each stack and count: the
 * folded text writer (folded_sum_write) is one of them, and any other
 * output (a table, pprof) is written the same way.  The table owns its
 * memory; stack texts stay valid until folded_sum_free.  Rejected: a
 * callback per (stack, count), since a writer may need a pass over all
 * counts first (--diff -n scales by the totals); sorting lines and adding
 * equal neighbours (stacks.c's way), a second copy of every stack.
 */
#define FOLDED_COLS 2

struct folded_sum {
	struct intern stacks;
	struct count *col[FOLDED_COLS];	/* per stack id, zero when unset */
	size_t cap;
};

void folded_sum_init(struct folded_sum *a);
void folded_sum_free(struct folded_sum *a);

/*
 * Add *c to stack s[0..n) in column col.  Returns 0, or -1 (nothing
 * added) when the sum would be 2^64 or more.
 */
int folded_sum_add(struct folded_sum *a, const char *s, size_t n, int col,
    const struct count *c);

/* Set stack s[0..n)'s count in column col, replacing what it had. */
void folded_sum_set(struct folded_sum *a, const char *s, size_t n, int col,
    const struct count *c);

/* The number of distinct stacks; their ids are 0 .. that - 1. */
static inline size_t
folded_sum_n(const struct folded_sum *a)
{
	return intern_count(&a->stacks);
}

static inline const char *
folded_sum_stack(const struct folded_sum *a, uint32_t id, size_t *len)
{
	*len = intern_len(&a->stacks, id);
	return intern_str(&a->stacks, id);
}

static inline const struct count *
folded_sum_count(const struct folded_sum *a, int col, uint32_t id)
{
	return &a->col[col][id];
}

/*
 * The ids of all stacks, sorted bytewise by their text (memcmp's order,
 * a prefix first, as Perl's sort): an array of folded_sum_n(a) ids (at
 * least one slot) for the caller to free.
 */
uint32_t *folded_sum_sorted(const struct folded_sum *a);

/* Write every stack with its column-0 count, sorted: a folded file. */
void folded_sum_write(const struct folded_sum *a);

#endif
