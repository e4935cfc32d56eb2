/*
 * diff: see diff.h for the design note.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/arena.h"
#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/input.h"
#include "../lib/num.h"
#include "../lib/out.h"
#include "../lib/xmlesc.h"
#include "diff.h"
#include "flame.h"


void
diff_init(struct diff *d, const struct diff_opts *o)
{
	memset(d, 0, sizeof *d);
	d->o = *o;
	folded_sum_init(&d->sum);
}

void
diff_free(struct diff *d)
{
	folded_sum_free(&d->sum);
	free(d->fr);
	free(d->name);
	free(d->nkids);
}

/* What diff_read gives a line to: the table, and the column it fills. */
struct diff_take {
	struct diff *d;
	int col;
};

/*
 * flame_read's take for --diff: one shape an input, two columns or, with
 * DIFF_BOTH, three; the counts added to the stack's.
 */
static int
take_line(void *ctx, const char *s, size_t n, const struct folded *fl,
    const char **why)
{
	struct diff_take *t = ctx;
	struct folded_sum *sum = &t->d->sum;

	(void)s;
	(void)n;
	if (fl->has2 != (t->col == DIFF_BOTH)) {
		*why = t->col == DIFF_BOTH ? " (one count where "
		    "\"STACK BEFORE AFTER\" was expected)" :
		    " (two counts in a file of one side)";
		return 1;
	}
	if (t->col == DIFF_BOTH ?
	    folded_sum_add(sum, fl->stack, fl->stacklen, 0, &fl->c1) < 0 ||
	    folded_sum_add(sum, fl->stack, fl->stacklen, 1, &fl->c) < 0 :
	    folded_sum_add(sum, fl->stack, fl->stacklen, t->col, &fl->c) < 0) {
		*why = "the stack's counts sum to 2^64 or more";
		return -1;
	}
	return 0;
}

int
diff_read(struct diff *d, struct input *in, int col, uint64_t *nbad,
    char *unit)
{
	struct diff_take t = { d, col };
	int kind = FOLDED_UNSEEN;	/* each input's own */

	unit[0] = '\0';
	return flame_read(in, &kind, nbad, take_line, &t, unit);
}

/* A stack to merge: its text (reversed for --reverse) and its id. */
struct ent {
	const char *s;
	size_t n;
	uint32_t id;
};

/*
 * Frame by frame, each frame bytewise with a prefix first: ';' sorts
 * below every byte, so "a;b;c" comes before "a;b1" and a frame's callees
 * are contiguous, whatever their names.
 */
static int
cmp_ent(const void *va, const void *vb)
{
	const struct ent *a = va, *b = vb;
	size_t n = a->n < b->n ? a->n : b->n, i = 0;

	/*
	 * Stacks share long prefixes: the first difference found eight
	 * bytes at a time (equal bytes order nothing, ';' or not).
	 */
	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a->s + i, 8);
		memcpy(&y, b->s + i, 8);
		if (x != y)
			break;
	}
	for (; i < n; i++) {
		unsigned x = (unsigned char)a->s[i], y = (unsigned char)b->s[i];

		if (x == y)
			continue;
		x = x == ';' ? 0 : x + 1;
		y = y == ';' ? 0 : y + 1;
		return x < y ? -1 : 1;
	}
	return (a->n > b->n) - (a->n < b->n);
}

/* s[0..n) with its ';'-separated fields in reverse order, into ar. */
static const char *
reversed(struct arena *ar, const char *s, size_t n)
{
	char *r = arena_alloc(ar, n + 1);

	flame_reverse(r, s, n);
	return r;
}

/* The stacks, trailing ';' dropped (Perl's split), in merge order. */
static struct ent *
sorted_stacks(const struct diff *d, struct arena *ar, int reverse, size_t *np)
{
	size_t n = folded_sum_n(&d->sum);
	struct ent *e = xmalloc((n + 1) * sizeof *e);

	for (uint32_t i = 0; i < n; i++) {
		size_t len;
		const char *s = folded_sum_stack(&d->sum, i, &len);

		while (len > 0 && s[len - 1] == ';')
			len--;
		e[i].s = reverse && len ? reversed(ar, s, len) : s;
		e[i].n = len;
		e[i].id = i;
	}
	if (n > 1)
		qsort(e, n, sizeof *e, cmp_ent);
	*np = n;
	return e;
}

/* The tree while it is built: per node, beside d->fr. */
struct tree {
	uint32_t *name, *depth, *parent;
	long double *w;
	size_t cap;
};

static uint32_t
new_node(struct diff *d, struct tree *t, uint32_t name, uint32_t depth,
    uint32_t parent)
{
	size_t i = d->nfr, c = d->cap;

	d->fr = xgrow(d->fr, &d->cap, i + 1, sizeof *d->fr);
	if (d->cap != c || t->cap == 0) {
		t->cap = d->cap;
		t->name = xrealloc(t->name, t->cap * sizeof *t->name);
		t->depth = xrealloc(t->depth, t->cap * sizeof *t->depth);
		t->parent = xrealloc(t->parent, t->cap * sizeof *t->parent);
	}
	memset(&d->fr[i], 0, sizeof d->fr[i]);
	t->name[i] = name;
	t->depth[i] = depth;
	t->parent[i] = parent;
	d->nfr++;
	return (uint32_t)i;
}

/*
 * Merge the sorted stacks into the tree, node 0 the root: a stack's
 * counts go to every node on its path, and to its last node's self.
 */
static void
merge_stacks(struct diff *d, struct flame *f, struct tree *t,
    const struct ent *e, size_t n)
{
	uint32_t *path = NULL;
	size_t pathcap = 0, depth = 1;

	path = xgrow(path, &pathcap, 1, sizeof *path);
	path[0] = new_node(d, t, intern_put(&f->names, "", 0, NULL), 0, 0);
	for (size_t i = 0; i < n; i++) {
		long double b = count_ld(folded_sum_count(&d->sum, 0, e[i].id));
		long double a = count_ld(folded_sum_count(&d->sum, 1, e[i].id));
		size_t k = 1, start = 0;
		struct diff_frame *x;

		while (e[i].n > 0 && start <= e[i].n) {
			const char *semi = memchr(e[i].s + start, ';', e[i].n - start);
			size_t fe = semi ? (size_t)(semi - e[i].s) : e[i].n;
			uint32_t id = intern_put(&f->names, e[i].s + start,
			    fe - start, NULL);

			if (k >= depth || t->name[path[k]] != id) {
				path = xgrow(path, &pathcap, k + 1, sizeof *path);
				path[k] = new_node(d, t, id, (uint32_t)k, path[k - 1]);
				depth = k + 1;
			}
			k++;
			start = fe + 1;
		}
		depth = k;
		for (size_t j = 0; j < k; j++) {
			d->fr[path[j]].before += b;
			d->fr[path[j]].after += a;
		}
		x = &d->fr[path[k - 1]];
		x->sbefore += b;
		x->safter += a;
	}
	free(path);
}

/*
 * The n nodes of t breadth first, callees in their order: node ids by
 * depth, then start.  The callees of each node are gathered first (kids,
 * node p's from first[p] to first[p + 1]).  An array for the caller.
 */
static uint32_t *
breadth_first(const struct tree *t, size_t n)
{
	size_t *first = xcalloc(n + 2, sizeof *first), head = 0, tail = 1, i;
	uint32_t *kids = xmalloc((n + 1) * sizeof *kids);
	uint32_t *order = xmalloc((n + 1) * sizeof *order);

	for (i = 1; i < n; i++)
		first[t->parent[i] + 2]++;
	for (i = 2; i < n + 2; i++)
		first[i] += first[i - 1];
	for (i = 1; i < n; i++)
		kids[first[t->parent[i] + 1]++] = (uint32_t)i;
	order[0] = 0;
	while (head < tail) {
		uint32_t p = order[head++];

		for (i = first[p]; i < first[p + 1]; i++)
			order[tail++] = kids[i];
	}
	free(first);
	free(kids);
	return order;
}

/* Each side's exact total, or -1 when one is 2^64 or more. */
static int
totals(struct diff *d)
{
	struct count s[2] = { { 0, 0 }, { 0, 0 } };

	for (uint32_t i = 0; i < folded_sum_n(&d->sum); i++)
		for (int c = 0; c < 2; c++)
			if (count_add(&s[c], folded_sum_count(&d->sum, c, i)) < 0)
				return -1;
	d->tbefore = count_ld(&s[0]);
	d->tafter = count_ld(&s[1]);
	return 0;
}

int
diff_build(struct diff *d, struct flame *f, int reverse)
{
	struct arena ar;
	struct tree t = { NULL, NULL, NULL, NULL, 0 };
	struct diff_frame *fr;
	struct ent *e;
	long double *cursor, *start, s = 1;
	uint32_t *order;
	size_t n, i, k;
	int ret = 0;

	if (totals(d) < 0)
		return -1;
	if ((d->o.width == DIFF_AFTER && d->tafter == 0) ||
	    (d->o.width == DIFF_BEFORE && d->tbefore == 0)) {
		ret = d->tbefore + d->tafter > 0;
		d->o.width = DIFF_MAX;
	}
	arena_init(&ar);
	e = sorted_stacks(d, &ar, reverse, &n);
	merge_stacks(d, f, &t, e, n);
	free(e);
	arena_free(&ar);
	/* Widths, callees (higher indexes) before callers. */
	if (d->o.normalize && d->tbefore > 0 && d->tafter > 0)
		s = d->tafter / d->tbefore;
	t.w = xcalloc(d->nfr + 1, sizeof *t.w);
	cursor = xcalloc(d->nfr + 1, sizeof *cursor);
	for (i = d->nfr; i-- > 0;) {
		const struct diff_frame *x = &d->fr[i];
		long double w = d->o.width == DIFF_AFTER ? x->after :
		    d->o.width == DIFF_BEFORE ? x->before : x->after;

		if (d->o.width == DIFF_MAX) {
			/* the callees' sum (cursor, so far) and the larger self */
			long double self = x->sbefore * s > x->safter ?
			    x->sbefore * s : x->safter;

			if (x->before * s > w)
				w = x->before * s;
			if (cursor[i] + self > w)
				w = cursor[i] + self;
		}
		t.w[i] = w;
		if (i)
			cursor[t.parent[i]] += w;
	}
	/* Starts, callers first: each callee after its earlier siblings. */
	start = xcalloc(d->nfr + 1, sizeof *start);
	cursor[0] = 0;
	for (i = 1; i < d->nfr; i++) {
		start[i] = cursor[t.parent[i]];
		cursor[t.parent[i]] += t.w[i];
		cursor[i] = start[i];
	}
	/*
	 * The nodes in the order they are drawn (by depth, then start: a
	 * walk of the tree breadth first), so that the drawing's reads of
	 * d->fr go forward through memory.
	 */
	order = breadth_first(&t, d->nfr);
	fr = xmalloc((d->nfr + 1) * sizeof *fr);
	d->name = xmalloc((d->nfr + 1) * sizeof *d->name);
	d->nkids = xcalloc(d->nfr + 1, sizeof *d->nkids);
	for (i = 1; i < d->nfr; i++)
		d->nkids[t.parent[i]]++;
	for (k = 0; k < d->nfr; k++) {
		struct frame *x;

		i = order[k];
		fr[k] = d->fr[i];
		d->name[k] = t.name[i];
		if (t.depth[i] > d->depth)
			d->depth = t.depth[i];
		/* kept beside d->fr: in merge order until now */
		cursor[k] = d->nkids[i];
		if (t.w[i] <= 0)
			continue;
		f->frames = xgrow(f->frames, &f->cap, f->nframes + 1,
		    sizeof *f->frames);
		x = &f->frames[f->nframes++];
		memset(x, 0, sizeof *x);
		x->name = t.name[i];
		x->depth = t.depth[i];
		x->stime = start[i];
		x->etime = start[i] + t.w[i];
		x->diff = (uint32_t)k + 1;
	}
	free(d->fr);
	d->fr = fr;
	d->cap = d->nfr + 1;
	for (k = 0; k < d->nfr; k++)
		d->nkids[k] = (uint32_t)cursor[k];
	f->total = d->nfr ? t.w[0] : 0;
	free(order);
	free(start);
	free(cursor);
	free(t.w);
	free(t.name);
	free(t.depth);
	free(t.parent);
	return ret;
}
