/*
 * fold: a span tree as folded stacks (folded(5)), so a trace can become a
 * flame graph: each span is a frame under its parent's, weighted by its
 * self time in nanoseconds, or by its whole duration (--fold=total).
 *
 * Self time is the span's duration minus the time, within the span, that
 * at least one child covers: overlapping children count once, and the part
 * of a child outside its parent (a child that starts before or ends after
 * it) counts for nothing, so self time is never negative and never more
 * than the duration.  Identical stacks are summed and written sorted
 * bytewise, as stackcollapse writes them.  Stacks are built with one path
 * buffer along the preorder, no recursion.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/count.h"
#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/out.h"
#include "fold.h"

/* Time in [b, e) that x's children cover. */
static uint64_t
covered(const struct tree *t, const struct spanset *s, uint32_t x)
{
	int64_t b = s->v[x].start, e = b + (int64_t)s->v[x].dur;
	int64_t cb = 0, ce = 0;
	uint64_t sum = 0;
	int have = 0;

	for (uint32_t k = t->first[x]; k < t->first[x + 1]; k++) {
		const struct span *c = &s->v[t->kids[k]];
		int64_t lo = c->start > b ? c->start : b;
		int64_t hi = c->start + (int64_t)c->dur;

		hi = hi < e ? hi : e;
		if (lo >= hi)
			continue;
		if (have && lo <= ce) {
			if (hi > ce)
				ce = hi;
			continue;
		}
		if (have)
			sum += (uint64_t)(ce - cb);
		cb = lo;
		ce = hi;
		have = 1;
	}
	if (have)
		sum += (uint64_t)(ce - cb);
	return sum;
}

/* Append a frame, with ';' and line breaks replaced as folded(5) says. */
static size_t
frame(char **buf, size_t *cap, size_t at, const char *name, size_t n)
{
	if (at + n + 2 > *cap) {
		while (at + n + 2 > *cap)
			*cap = *cap ? *cap * 2 : 4096;
		*buf = xrealloc(*buf, *cap);
	}
	if (at)
		(*buf)[at++] = ';';
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		(*buf)[at++] = c == ';' ? ':' : c == '\n' || c == '\r' ? ' ' : c;
	}
	return at;
}

int
fold_write(const struct tree *t, const struct spanset *s, int total, int by_track)
{
	struct intern agg;
	uint64_t *sum = NULL;
	size_t capsum = 0, cap = 0, top = 0;
	char *buf = NULL;
	uint32_t *anc = xmalloc((t->n + 1) * sizeof *anc);
	size_t *len = xmalloc((t->n + 1) * sizeof *len);
	uint32_t *ids;
	size_t nids;
	int ret = 0;

	intern_init(&agg);
	for (size_t i = 0; i < t->n; i++) {
		uint32_t x = t->pre[i], p = t->parent[x];
		const struct span *sp = &s->v[x];
		size_t at;
		uint64_t w;
		uint32_t id;
		int isnew;

		while (top > 0 && anc[top - 1] != p)
			top--;
		if (top == 0) {
			at = 0;
			if (by_track) {
				uint32_t tr = t->band_track[p - t->n];

				at = frame(&buf, &cap, 0, intern_str(&s->tracks, tr),
				    intern_len(&s->tracks, tr));
			}
		} else
			at = len[top - 1];
		at = frame(&buf, &cap, at, intern_str(&s->names, sp->name),
		    intern_len(&s->names, sp->name));
		anc[top] = x;
		len[top++] = at;
		w = total ? sp->dur : sp->dur - covered(t, s, x);
		if (w == 0)
			continue;
		id = intern_put(&agg, buf, at, &isnew);
		if (id >= capsum) {
			size_t c = capsum ? capsum * 2 : 1024;

			sum = xrealloc(sum, c * sizeof *sum);
			memset(sum + capsum, 0, (c - capsum) * sizeof *sum);
			capsum = c;
		}
		if (count_add_u64(&sum[id], w) < 0)
			ret = -1;
	}
	nids = intern_count(&agg);
	ids = xmalloc((nids + 1) * sizeof *ids);
	for (size_t i = 0; i < nids; i++)
		ids[i] = (uint32_t)i;
	intern_sort(&agg, ids, nids);
	for (size_t i = 0; i < nids && ret == 0; i++) {
		out_write(intern_str(&agg, ids[i]), intern_len(&agg, ids[i]));
		out_char(' ');
		out_u64(sum[ids[i]]);
		out_char('\n');
	}
	free(ids);
	free(sum);
	free(buf);
	free(anc);
	free(len);
	intern_free(&agg);
	return ret;
}
