/*
 * heap.c: the allocation samples of a --alloc run, weighed and chosen.
 *
 * A block of s bytes was sampled with probability p = 1 - exp(-s/R),
 * R the mean interval (alloc.c), so it stands for s/p bytes and 1/p
 * objects: the Horvitz-Thompson weights that make the totals unbiased,
 * as pprof's scaleHeapSample (Go's runtime/pprof/protomem.go) scales a
 * heap profile.  Weighing every sample by R instead over-counts large
 * blocks (golang/go#26618: 58%).  Weights are rounded to whole bytes or
 * objects when written.
 *
 * A block's life is from its sample to the next record of the same
 * address in the same process: its free, or, if that was lost, the
 * address allocated again (two live blocks cannot share one).  The
 * records are paired by sorting (process, address, time), not with a
 * hash: the run is over, and a sort is one line.  A forked child's
 * copies of its parent's blocks are its parent's: a child freeing one
 * ends nothing, and its own allocations are its own.  inuse: the blocks
 * never freed.  peak: the instant the sum of live sampled bytes, all
 * processes together, was largest, and the blocks live then (allocated
 * at or before it, freed after it), whichever TYPE weighs them.
 */
#include "heap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"

static const char *const types[] = {
	"alloc_space", "alloc_objects", "inuse_space", "inuse_objects",
	"peak_space", "peak_objects",
};

int
heap_type(const char *type, struct heap_opts *o)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(type, types[i]) == 0) {
			o->when = (int)(i / 2);
			o->objects = (int)(i % 2);
			return 0;
		}
	return -1;
}

const char *
heap_event(const struct heap_opts *o)
{
	return types[o->when * 2 + o->objects];
}

/* An allocation sample or a free, at position pos of the sorted records. */
struct ev {
	uint32_t	 pid;
	uint64_t	 addr;
	size_t		 pos;
	size_t		 alloc;		/* index + 1 into lives, or 0: a free */
};

struct life {
	size_t		 pos, end;	/* end SIZE_MAX: never freed */
	double		 bytes;		/* what it stands for */
	double		 objects;
};

/* A change of the live total at pos. */
struct step {
	size_t		 pos;
	double		 d;
};

static int
ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
step_cmp(const void *a, const void *b)
{
	const struct step *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static struct rec_settled *
sample_at(struct recs *r, size_t i)
{
	return (struct rec_settled *)(void *)(r->buf + r->v[i].off);
}

static struct rec_block
block_at(const struct recs *r, size_t i)
{
	struct rec_block b;

	memcpy(&b, r->buf + r->v[i].off + sizeof(struct rec_settled), sizeof b);
	return b;
}

/* The position the live total was largest at, just after it grew there. */
static size_t
peak_pos(const struct life *l, size_t n)
{
	struct step *s = xmalloc((2 * n + 1) * sizeof *s);
	size_t k = 0, at = SIZE_MAX;
	double sum = 0, max = 0;

	for (size_t i = 0; i < n; i++) {
		s[k++] = (struct step){ l[i].pos, l[i].bytes };
		if (l[i].end != SIZE_MAX)
			s[k++] = (struct step){ l[i].end, -l[i].bytes };
	}
	qsort(s, k, sizeof *s, step_cmp);
	for (size_t i = 0; i < k; i++) {
		sum += s[i].d;
		if (s[i].d > 0 && sum > max) {
			max = sum;
			at = s[i].pos;
		}
	}
	free(s);
	return at;
}

void
heap_weigh(struct recs *r, const struct heap_opts *o, struct heap_stats *st)
{
	struct ev *ev;
	struct life *l;
	size_t nev = 0, nl = 0, at = SIZE_MAX;
	double R = (double)o->interval;

	memset(st, 0, sizeof *st);
	recs_sort(r);
	ev = xmalloc((r->n + 1) * sizeof *ev);
	l = xmalloc((r->n + 1) * sizeof *l);
	for (size_t i = 0; i < r->n; i++) {
		const struct rec *e = &r->v[i];

		if (e->type == REC_SETTLED && sample_at(r, i)->kind == REC_ALLOC) {
			struct rec_block b = block_at(r, i);
			double sz = (double)b.size;
			double p = R <= 1 ? 1 : -expm1(-sz / R);

			l[nl] = (struct life){ i, SIZE_MAX, sz / p, 1 / p };
			ev[nev++] = (struct ev){ e->pid, b.addr, i, ++nl };
		} else if (e->type == REC_FREE) {
			uint64_t a;

			memcpy(&a, r->buf + e->off, sizeof a);
			ev[nev++] = (struct ev){ e->pid, a, i, 0 };
		}
	}
	qsort(ev, nev, sizeof *ev, ev_cmp);
	for (size_t i = 0; i + 1 < nev; i++)
		if (ev[i].alloc && ev[i + 1].pid == ev[i].pid && ev[i + 1].addr == ev[i].addr)
			l[ev[i].alloc - 1].end = ev[i + 1].pos;
	if (o->when == HEAP_PEAK) {
		at = peak_pos(l, nl);
		if (at != SIZE_MAX)
			st->peak_time = r->v[at].time;
	}
	for (size_t i = 0; i < nl; i++) {
		struct rec_settled *s = sample_at(r, l[i].pos);
		int shown = o->when == HEAP_ALLOC ||
		    (o->when == HEAP_INUSE && l[i].end == SIZE_MAX) ||
		    (o->when == HEAP_PEAK && at != SIZE_MAX && l[i].pos <= at && l[i].end > at);
		double w = o->objects ? l[i].objects : l[i].bytes;

		s->period = (uint64_t)llround(w);
		if (!shown)
			s->kind = REC_NOSHOW;
		else
			st->bytes += l[i].bytes;
	}
	st->samples = nl;
	free(ev);
	free(l);
}
