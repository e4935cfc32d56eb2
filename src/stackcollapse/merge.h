/*
 * merge: folded stacks read back and summed: the --format=folded merge
 * (cat host*.folded | stackcollapse --format=folded), and --diff
 * (FlameGraph's difffolded.pl), whose -s rewrites each stack as it is read.
 */
#ifndef SC_MERGE_H
#define SC_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/count.h"
#include "../lib/folded.h"

struct merge {
	struct folded_sum sum;	/* columns: before (or only), after */
	int striphex;		/* 0x1234 -> 0x... */
	int integral;		/* --diff: counts cut to whole numbers */
	char *buf;		/* the transformed stack */
	size_t bufcap;
	/* the inputs' "# unit:" (folded.h), "" when none or they differ */
	char unit[FOLDED_UNIT_MAX + 1];
	int unit_seen;
};

void merge_init(struct merge *m);
void merge_free(struct merge *m);

/*
 * Add count to stack s[0..n) (transformed as m says) in column which.
 * Returns 0, or -1 (nothing added) when the sum would not fit (count.h).
 */
int merge_add(struct merge *m, const char *s, size_t n,
    const struct count *count, int which);

/* Set stack s's count (the only column), replacing what it had. */
void merge_set(struct merge *m, const char *s, size_t n,
    const struct count *count);

/*
 * Read the folded file path ("-": stdin) into column which, or with
 * MERGE_BOTH the lines "STACK BEFORE AFTER" of a differential file into
 * columns 0 and 1.  Lines that are not of that shape are reported (the first few, then a count) and
 * skipped.  Returns the number skipped, or -1 on a read error or a count
 * that is out of range or sums out of range (reported with its line).
 */
#define MERGE_BOTH 2
/* An input's unit (folded.h's, without the line): kept when all agree. */
void merge_unit(struct merge *m, const char *u);
long long merge_read(struct merge *m, const char *path, int which);
/* The same from an input already open (left open). */
struct input;
long long merge_read_input(struct merge *m, struct input *in, int which);

/*
 * Write the stacks sorted bytewise: "STACK COUNT", or with diff
 * "STACK BEFORE AFTER" (normalize: BEFORE scaled to AFTER's total, cut to
 * a whole number, as difffolded.pl -n does).  Returns 0, or -1 (reported,
 * nothing written) when a scaled count does not fit.
 */
int merge_write(struct merge *m, int diff, int normalize);

#endif
