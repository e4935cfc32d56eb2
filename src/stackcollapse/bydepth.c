/*
 * bydepth: see bydepth.h.  An array of names indexed by depth, each in a
 * buffer of its own that grows and is kept: a tree's names at one depth
 * differ, its depths are few, and a name must outlive the line it came
 * from (the next line is read over it).  Rejected: the fstack alone, as
 * the formats without skipped depths use it, since truncating it to a
 * shallower node loses the deeper names the scripts keep.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "bydepth.h"
#include "formats.h"

char *
bd_set(struct bydepth *b, size_t depth, size_t n)
{
	struct bd_name *d;

	if (b->n <= depth) {
		b->d = xgrow(b->d, &b->cap, depth + 1, sizeof *b->d);
		memset(b->d + b->n, 0, (depth + 1 - b->n) * sizeof *b->d);
		b->n = depth + 1;
	}
	d = &b->d[depth];
	d->s = xgrow(d->s, &d->cap, n + 1, 1);
	d->n = n;
	return d->s;
}

void
bd_stack(const struct bydepth *b, size_t depth, struct fstack *fs)
{
	fs_truncate(fs, 0);
	for (size_t i = 0; i <= depth; i++)
		fs_push(fs, b->d[i].s ? b->d[i].s : "", b->d[i].n);
}

void
bd_free(struct bydepth *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->d[i].s);
	free(b->d);
}
