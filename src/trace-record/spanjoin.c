/*
 * spanjoin: see spanjoin.h for the design note.
 */
#include "spanjoin.h"

#include <stdlib.h>

#include "../lib/err.h"
#include "../lib/sort.h"

static int
by_thread_start(const void *a, const void *b, const void *ctx)
{
	const struct collect_span *v = ctx;
	const struct collect_span *x = &v[*(const uint32_t *)a], *y = &v[*(const uint32_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void
spanjoin_init(struct spanjoin *j, const struct collect_span *v, size_t n)
{
	j->v = v;
	j->n = n;
	j->order = xmalloc((n ? n : 1) * sizeof *j->order);
	for (size_t i = 0; i < n; i++)
		j->order[i] = (uint32_t)i;
	sort_ctx(j->order, n, sizeof *j->order, by_thread_start, v);
}

uint64_t
spanjoin_find(const struct spanjoin *j, uint32_t tid, int64_t t)
{
	size_t lo = 0, hi = j->n, steps = 0;

	/* the first span after (tid, t) in the order */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct collect_span *s = &j->v[j->order[mid]];

		if (s->tid < tid || (s->tid == tid && s->start <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || j->v[j->order[lo - 1]].tid != tid)
		return 0;
	const struct collect_span *s = &j->v[j->order[lo - 1]];

	/* Up the parents (a broken file's cycle ends after n steps). */
	while (!(s->tid == tid && s->start <= t && t < s->end)) {
		if (s->parent == 0 || s->parent > j->n || steps++ > j->n)
			return 0;
		s = &j->v[s->parent - 1];
	}
	return s->id;
}

void
spanjoin_free(struct spanjoin *j)
{
	free(j->order);
}
