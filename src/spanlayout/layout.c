/*
 * layout: see layout.h.
 *
 * Building the tree is O(n log n): ids go into an open-addressing table,
 * cycles are found by walking parent links with a three-state mark (each
 * span is walked once; not at all when every parent is on the same side
 * of its children in the file), and a stable bucket pass by parent
 * followed by a sort of each child list by (start, longer first,
 * position) gives every child list in order.
 *
 * Rows follow the TiDB Dashboard article (Datadog's drawing): siblings
 * are placed from the latest start to the earliest, each subtree whole
 * before the next sibling; the first placed goes one row below its
 * parent; a sibling whose subtree's latest end passes the start of the
 * sibling placed just before it (or starts at the same time) goes one row
 * below that sibling when it is a leaf, else two rows below that
 * sibling's deepest descendant (one empty row between); otherwise it goes
 * one row below its parent.
 *
 * That rule looks only at the previous sibling, so a span can land on a
 * row where an earlier-placed sibling's subtree already is (siblings
 * A=[0,10), B=[5,6), C=[7,20) with children under C: A goes below B, onto
 * C's children).  So every placement is checked against the spans already
 * on that row (struct rows: kept by start; the spans on a row never
 * overlap, so the one starting last before our end is the only one to
 * test).  When the article's row is taken, the span goes below every
 * placed sibling that overlaps it in time (the article's rule applied to
 * all of them, not the last only: a monotonic stack answers that in
 * O(log n)), and further down while that row is still taken (only spans
 * of other subtrees, e.g. children that started before their parent, can
 * be there).  When the article's layout has no overlap, no check fails and
 * the result is the article's exactly.  A zero-length span occupies one
 * nanosecond for this purpose.
 *
 * A subtree's deepest row is only needed once the subtree is complete, so
 * it is passed up when a span's last child is done: O(1) per span, where
 * the article walks up to the root for each span (quadratic on a chain).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/arena.h"
#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/spans.h"
#include "layout.h"

/*
 * id -> index.  Ids are most often dense (a recorder's counter): when they
 * all fall within 2n of the smallest, the index is a plain array by id
 * minus the smallest, read in id order as the spans come; otherwise an
 * open-addressing table by hash.  The hash's two reads at random places
 * (slot, then span) per span were a third of building the tree on 1M
 * spans.
 */
struct ids {
	uint32_t *slots;	/* index + 1, 0 = none */
	size_t mask;		/* hashed: slots - 1 */
	uint64_t base, range;	/* direct: ids base .. base + range - 1 */
	int direct;
};

static uint32_t *
id_slot(const struct spanset *s, const struct ids *x, uint64_t id)
{
	size_t h;

	if (x->direct)
		return id - x->base < x->range ? &x->slots[id - x->base] : NULL;
	h = (size_t)intern_hash_u64(id) & x->mask;
	while (x->slots[h] && s->v[x->slots[h] - 1].id != id)
		h = (h + 1) & x->mask;
	return &x->slots[h];
}

/* What one read of the spans tells: time and id ranges. */
struct extent {
	int64_t origin, end;	/* earliest start, latest end */
	uint64_t idlo, idhi;
};

static void
extent_of(const struct spanset *s, struct extent *e)
{
	const struct span *v = s->v;

	*e = (struct extent){ 0, 0, 0, 0 };
	if (s->n) {
		e->origin = v[0].start;
		e->end = v[0].start + (int64_t)v[0].dur;
		e->idlo = e->idhi = v[0].id;
	}
	for (size_t i = 1; i < s->n; i++) {
		/* Fits: the readers checked start + dur. */
		int64_t end = v[i].start + (int64_t)v[i].dur;

		if (v[i].start < e->origin)
			e->origin = v[i].start;
		if (end > e->end)
			e->end = end;
		if (v[i].id < e->idlo)
			e->idlo = v[i].id;
		if (v[i].id > e->idhi)
			e->idhi = v[i].id;
	}
}

/* Reports a duplicate and returns -1. */
static int
index_ids(const struct spanset *s, const struct extent *e, struct ids *x)
{
	size_t cap = 16;
	uint64_t lo = e->idlo, hi = e->idhi;

	memset(x, 0, sizeof *x);
	if (s->n && hi - lo < 2 * (uint64_t)s->n) {
		x->direct = 1;
		x->base = lo;
		x->range = hi - lo + 1;
		x->slots = xcalloc((size_t)x->range, sizeof *x->slots);
	} else {
		while (cap < 2 * s->n)
			cap *= 2;
		x->mask = cap - 1;
		x->slots = xcalloc(cap, sizeof *x->slots);
	}
	for (size_t i = 0; i < s->n; i++) {
		uint32_t *slot = id_slot(s, x, s->v[i].id);

		if (*slot) {
			const struct span *a = &s->v[*slot - 1], *b = &s->v[i];

			warn_at(s->files[b->file], b->line,
			    "duplicate span id %llu (also at %s:%llu)",
			    (unsigned long long)b->id, s->files[a->file],
			    (unsigned long long)a->line);
			free(x->slots);
			return -1;
		}
		*slot = (uint32_t)i + 1;
	}
	return 0;
}

static uint32_t
find_id(const struct spanset *s, const struct ids *x, uint64_t id)
{
	const uint32_t *slot = id_slot(s, x, id);

	return slot && *slot ? *slot - 1 : TREE_NONE;
}

/*
 * Make every span reach a root by parent links: in each cycle the span
 * with the smallest id becomes a root.
 */
static void
break_cycles(struct tree *t, const struct spanset *s)
{
	size_t n = t->n, np = 0;
	uint8_t *state = xcalloc(n ? n : 1, 1);	/* 0 new, 1 on path, 2 done */
	uint32_t *path = xmalloc((n ? n : 1) * sizeof *path);

	for (size_t i = 0; i < n; i++) {
		uint32_t v = (uint32_t)i;

		if (state[i])
			continue;
		np = 0;
		while (v != TREE_NONE && state[v] == 0) {
			state[v] = 1;
			path[np++] = v;
			v = t->parent[v];
		}
		if (v != TREE_NONE && state[v] == 1) {
			size_t k = np, b;

			while (path[k - 1] != v)
				k--;
			b = k - 1;
			for (size_t m = k - 1; m < np; m++)
				if (s->v[path[m]].id < s->v[path[b]].id)
					b = m;
			t->parent[path[b]] = TREE_NONE;
			t->broken[path[b]] = 1;
			if (t->cycles < sizeof t->cycle_at / sizeof t->cycle_at[0])
				t->cycle_at[t->cycles] = path[b];
			t->cycles++;
		}
		for (size_t m = 0; m < np; m++)
			state[path[m]] = 2;
	}
	free(state);
	free(path);
}

struct key {
	uint64_t hi, lo;	/* start (sign flipped), then ~duration */
	uint32_t idx;
};

/*
 * LSD radix sort by (hi, lo), stable; skips bytes that are all equal.  The
 * counts of all sixteen bytes come from one read of the keys, and the
 * passes go back and forth between a and tmp: a count pass and a copy back
 * per byte were a third of the sort.  Returns where the sorted keys are.
 */
static struct key *
radix_sort(struct key *a, struct key *tmp, size_t n)
{
	size_t count[16][256];
	struct key *from = a, *to = tmp, *t;

	if (n == 0)
		return a;
	memset(count, 0, sizeof count);
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++) {
			count[b][(a[i].lo >> (8 * b)) & 0xff]++;
			count[8 + b][(a[i].hi >> (8 * b)) & 0xff]++;
		}
	for (int pass = 0; pass < 16; pass++) {
		int shift = (pass & 7) * 8;
		size_t *c = count[pass], sum = 0;

#define KEYBYTE(k) (((pass < 8 ? (k).lo : (k).hi) >> shift) & 0xff)
		if (c[KEYBYTE(a[0])] == n)
			continue;
		for (int b = 0; b < 256; b++) {
			size_t x = c[b];

			c[b] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			to[c[KEYBYTE(from[i])]++] = from[i];
#undef KEYBYTE
		t = from;
		from = to;
		to = t;
	}
	return from;
}

/*
 * The times to be written, relative to the earliest start, must be in
 * range too, or spanlayout would write what its readers refuse: spans
 * near both ends of the range are more than 2^62 ns apart.  Reports the
 * first span that is not and returns -1.
 */
static int
check_relative(const struct spanset *s, const struct extent *e)
{
	int64_t origin = e->origin;

	/* Both within 2^62 of 0: the difference fits, unsigned. */
	if ((uint64_t)e->end - (uint64_t)origin <= (uint64_t)SPAN_TIME_MAX)
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct span *sp = &s->v[i];
		/* At most 2^63: both ends are within 2^62 of 0. */
		uint64_t rel = (uint64_t)sp->start - (uint64_t)origin;

		if (rel > (uint64_t)SPAN_TIME_MAX ||
		    span_range_check((int64_t)rel, sp->dur) != SPAN_IN_RANGE) {
			warn_at(s->files[sp->file], sp->line, "span ends more than "
			    "2^62 ns after the earliest start (%lld ns)", (long long)origin);
			return -1;
		}
	}
	return 0;
}

/* Whether span a goes before span b among siblings: by start, longer first. */
static int
kid_before(const struct span *v, uint32_t a, uint32_t b)
{
	return v[a].start != v[b].start ? v[a].start < v[b].start
	    : v[a].dur > v[b].dur;
}

/*
 * Every child list, in position order, into (start, longer first,
 * position) order.  Most lists are a few spans, and most come already in
 * order (recorders write spans by start or by end): an insertion sort
 * does those in one pass.  A long list out of order (the roots of a
 * band, a span with thousands of children) is radix sorted, so no input
 * is quadratic.
 */
static void
sort_kids(struct tree *t, const struct spanset *s)
{
	const struct span *v = s->v;
	struct key *k = NULL, *tmp = NULL, *sorted;
	size_t cap = 0, nodes = t->n + t->nbands;

	for (size_t x = 0; x < nodes; x++) {
		uint32_t *a = t->kids + t->first[x];
		size_t len = t->first[x + 1] - t->first[x], i;

		for (i = 1; i < len && !kid_before(v, a[i], a[i - 1]); i++)
			;
		if (i >= len)
			continue;
		if (len <= 16) {
			for (; i < len; i++) {
				uint32_t c = a[i];
				size_t j = i;

				for (; j > 0 && kid_before(v, c, a[j - 1]); j--)
					a[j] = a[j - 1];
				a[j] = c;
			}
			continue;
		}
		if (len > cap) {
			free(k);
			free(tmp);
			cap = len;
			k = xmalloc(cap * sizeof *k);
			tmp = xmalloc(cap * sizeof *tmp);
		}
		for (i = 0; i < len; i++) {
			k[i].hi = (uint64_t)v[a[i]].start ^ (1ULL << 63);
			k[i].lo = ~v[a[i]].dur;
			k[i].idx = a[i];
		}
		sorted = radix_sort(k, tmp, len);
		for (i = 0; i < len; i++)
			a[i] = sorted[i].idx;
	}
	free(k);
	free(tmp);
}

int
tree_build(struct tree *t, const struct spanset *s, enum bands bands)
{
	size_t n = s->n, nodes;
	struct ids ids;
	struct extent ext;
	uint32_t *bandof, *cnt;
	uint32_t *stack;
	size_t top = 0, np = 0, up = 0, down = 0, across = 0;

	memset(t, 0, sizeof *t);
	t->n = n;
	extent_of(s, &ext);
	t->origin = ext.origin;
	if (check_relative(s, &ext) < 0 || index_ids(s, &ext, &ids) < 0)
		return -1;
	t->parent = xmalloc((n ? n : 1) * sizeof *t->parent);
	t->broken = xcalloc(n ? n : 1, 1);
	for (size_t i = 0; i < n; i++) {
		const struct span *sp = &s->v[i];
		uint32_t p = TREE_NONE;

		if (sp->parent == sp->id)
			t->self_parents++;
		else if (sp->parent != 0 &&
		    (p = find_id(s, &ids, sp->parent)) == TREE_NONE)
			t->orphans++;
		if (p != TREE_NONE) {
			across += s->v[p].track != sp->track;
			if (p > i)
				up++;
			else
				down++;
		}
		t->parent[i] = p;
	}
	free(ids.slots);
	if (across && bands == BANDS_AUTO)
		bands = BANDS_ONE;
	t->by_track = bands != BANDS_ONE;
	for (size_t i = 0; i < n && t->by_track && across; i++)
		if (t->parent[i] != TREE_NONE &&
		    s->v[t->parent[i]].track != s->v[i].track)
			t->parent[i] = TREE_NONE;
	/*
	 * A cycle goes to a later span and back to an earlier one: when every
	 * parent comes after its children in the file (spans written as they
	 * end) or every one before (as they start), there is none to break.
	 */
	if (up && down)
		break_cycles(t, s);

	/* Bands: tracks in order of first appearance, or one. */
	bandof = xmalloc((intern_count(&s->tracks) + 1) * sizeof *bandof);
	t->band_track = xmalloc((intern_count(&s->tracks) + 1) * sizeof *t->band_track);
	t->nbands = t->by_track ? 0 : 1;
	t->band_track[0] = 0;
	for (size_t i = 0; i < intern_count(&s->tracks); i++)
		bandof[i] = TREE_NONE;
	for (size_t i = 0; i < n; i++) {
		uint32_t tr = s->v[i].track;

		if (t->by_track && bandof[tr] == TREE_NONE) {
			bandof[tr] = (uint32_t)t->nbands;
			t->band_track[t->nbands++] = tr;
		}
		if (t->parent[i] == TREE_NONE)
			t->parent[i] = (uint32_t)(n + (t->by_track ? bandof[tr] : 0));
	}
	free(bandof);
	nodes = n + t->nbands;

	/* Children by parent in position order, then each list sorted. */
	t->first = xcalloc(nodes + 2, sizeof *t->first);
	cnt = t->first + 1;
	for (size_t i = 0; i < n; i++)
		cnt[t->parent[i]]++;
	for (size_t x = 1; x <= nodes; x++)
		t->first[x] += t->first[x - 1];
	t->kids = xmalloc((n ? n : 1) * sizeof *t->kids);
	/*
	 * Filled from the end of each list, the spans taken last to first, so
	 * that each list is in file order and first[x + 1] ends at x's start:
	 * shifted down one, first is right again, with no second array.
	 */
	for (size_t i = n; i-- > 0;)
		t->kids[--cnt[t->parent[i]]] = (uint32_t)i;
	memmove(t->first, t->first + 1, nodes * sizeof *t->first);
	t->first[nodes] = (uint32_t)n;
	sort_kids(t, s);

	/* Preorder: bands in order, children by start. */
	t->pre = xmalloc((n ? n : 1) * sizeof *t->pre);
	stack = xmalloc((n + t->nbands + 1) * sizeof *stack);
	for (size_t b = t->nbands; b-- > 0;)
		stack[top++] = (uint32_t)(n + b);
	while (top > 0) {
		uint32_t x = stack[--top];

		if (x < n)
			t->pre[np++] = x;
		for (uint32_t c = t->first[x + 1]; c-- > t->first[x];)
			stack[top++] = t->kids[c];
	}
	free(stack);
	return 0;
}

void
tree_free(struct tree *t)
{
	free(t->parent);
	free(t->first);
	free(t->kids);
	free(t->pre);
	free(t->band_track);
	free(t->broken);
	memset(t, 0, sizeof *t);
}

/*
 * Spans on rows.  Placing goes from the latest start to the earliest, so
 * a span placed on a row most often starts before every span already
 * there: those are kept in a run per row, in the order placed (start
 * decreasing), where the test is one comparison with the last and the
 * insertion an append.  The others go in a treap per row, keyed by start.
 * The run and the treap each hold spans that do not overlap, so the span
 * starting last before an end is, in each, the only one to test.  The
 * treap alone (every span in it) was half the time of laying out 1M spans.
 */
struct row {
	uint32_t *run;		/* start decreasing; from the arena */
	uint32_t nrun, caprun;
	uint32_t root;		/* treap of the others */
};

struct rows {
	const int64_t *st, *oe;	/* start and occupied end per span */
	uint32_t *l, *r;	/* treap children per span */
	struct row *row;
	size_t nrows, cap;
	uint32_t *path;
	size_t pathcap;
	struct arena runs;
};

static uint32_t
prio(uint32_t x)
{
	return (uint32_t)intern_hash_u64(x);
}

/* Whether [b, e) overlaps a span on row. */
static int
taken(const struct rows *R, uint32_t row, int64_t b, int64_t e)
{
	const struct row *w;
	uint32_t x, cand = TREE_NONE;

	if (row >= R->nrows)
		return 0;
	w = &R->row[row];
	if (w->nrun && R->st[w->run[w->nrun - 1]] < e) {
		/* The first in the run (start decreasing) to start before e. */
		size_t lo = 0, hi = w->nrun - 1;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (R->st[w->run[mid]] < e)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (R->oe[w->run[lo]] > b)
			return 1;
	}
	for (x = w->root; x != TREE_NONE;) {
		if (R->st[x] < e) {
			cand = x;
			x = R->r[x];
		} else
			x = R->l[x];
	}
	return cand != TREE_NONE && R->oe[cand] > b;
}

/* x into row's treap. */
static void
put_treap(struct rows *R, uint32_t row, uint32_t x)
{
	size_t m = 0;
	uint32_t y, *link, *root = &R->row[row].root;

	R->l[x] = R->r[x] = TREE_NONE;
	for (y = *root; y != TREE_NONE; y = R->st[x] < R->st[y] ? R->l[y] : R->r[y]) {
		if (m == R->pathcap) {
			R->pathcap = R->pathcap ? R->pathcap * 2 : 64;
			R->path = xrealloc(R->path, R->pathcap * sizeof *R->path);
		}
		R->path[m++] = y;
	}
	if (m == 0) {
		*root = x;
		return;
	}
	y = R->path[m - 1];
	if (R->st[x] < R->st[y])
		R->l[y] = x;
	else
		R->r[y] = x;
	/* Rotate x up while its priority beats its parent's. */
	while (m > 0 && prio(x) > prio(R->path[m - 1])) {
		y = R->path[m - 1];
		if (R->l[y] == x) {
			R->l[y] = R->r[x];
			R->r[x] = y;
		} else {
			R->r[y] = R->l[x];
			R->l[x] = y;
		}
		m--;
		if (m == 0)
			link = root;
		else
			link = R->l[R->path[m - 1]] == y ? &R->l[R->path[m - 1]]
			    : &R->r[R->path[m - 1]];
		*link = x;
	}
}

static void
put_row(struct rows *R, uint32_t row, uint32_t x)
{
	struct row *w;

	while (row >= R->cap) {
		size_t c = R->cap ? R->cap * 2 : 64;

		R->row = xrealloc(R->row, c * sizeof *R->row);
		for (size_t i = R->cap; i < c; i++)
			R->row[i] = (struct row){ NULL, 0, 0, TREE_NONE };
		R->cap = c;
	}
	if (row >= R->nrows)
		R->nrows = row + 1;
	w = &R->row[row];
	if (w->nrun && R->st[x] >= R->st[w->run[w->nrun - 1]]) {
		put_treap(R, row, x);
		return;
	}
	if (w->nrun == w->caprun) {
		uint32_t c = w->caprun ? w->caprun * 2 : 2, *v;

		/* The old copy stays in the arena: at most as much again. */
		v = arena_alloc(&R->runs, c * sizeof *v);
		if (w->nrun)
			memcpy(v, w->run, w->nrun * sizeof *v);
		w->run = v;
		w->caprun = c;
	}
	w->run[w->nrun++] = x;
}

/* A finished sibling: CSR position and the row the next one goes under. */
struct mono {
	uint32_t pos;
	uint32_t below;
};

struct frame {
	uint32_t x;		/* the span (or band) whose children are placed */
	uint32_t k;		/* next child to place is kids[k - 1] */
	uint32_t mbase;		/* its siblings' monotonic stack starts here */
};

/* What placing the spans of one trace keeps, per span (or band node). */
struct placing {
	const struct tree *t;
	int64_t *st, *oe;	/* start, and end as occupied on its row */
	int64_t *maxend;	/* latest end in its subtree */
	uint32_t *deep;		/* deepest row + 1 in its subtree */
	uint32_t *rowp1;	/* row + 1 */
	struct mono *ms;	/* placed siblings' rows, a monotonic stack */
	size_t mtop;
	struct rows R;
};

/* The row (plus one) for child c of f's span, the next to place. */
static uint32_t
place(struct placing *P, const struct frame *f, uint32_t c)
{
	const struct tree *t = P->t;
	const int64_t *st = P->st, *oe = P->oe, *maxend = P->maxend;
	uint32_t end = t->first[f->x + 1], du = P->rowp1[f->x], cand;

	/* The article's row. */
	cand = du + 1;
	if (f->k + 1 < end) {
		uint32_t last = t->kids[f->k + 1];

		if (maxend[c] > st[last] || st[c] == st[last])
			cand = P->deep[last] == P->rowp1[last] ? P->rowp1[last] + 1
			    : P->deep[last] + 2;
	}
	if (taken(&P->R, cand - 1, st[c], oe[c])) {
		/* Below every overlapping placed sibling, then free. */
		int64_t lim = maxend[c] > st[c] ? maxend[c]
		    : st[c] == INT64_MAX ? st[c] : st[c] + 1;
		uint32_t lo = f->k + 1, hi = end, g = du + 1;
		size_t a = f->mbase, z = P->mtop;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (st[t->kids[mid]] < lim)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* Oldest stack entry with pos < lo holds the max. */
		while (a < z) {
			size_t mid = a + (z - a) / 2;

			if (P->ms[mid].pos < lo)
				z = mid;
			else
				a = mid + 1;
		}
		if (a < P->mtop && P->ms[a].below > g)
			g = P->ms[a].below;
		if (g > cand)
			cand = g;
		while (taken(&P->R, cand - 1, st[c], oe[c]))
			cand++;
	}
	return cand;
}

/* x's subtree is complete; f is its parent's frame. */
static void
subtree_done(struct placing *P, const struct frame *f, uint32_t x)
{
	uint32_t p = f->x, below;

	if (P->deep[x] > P->deep[p])
		P->deep[p] = P->deep[x];
	below = P->deep[x] == P->rowp1[x] ? P->rowp1[x] + 1 : P->deep[x] + 2;
	while (P->mtop > f->mbase && P->ms[P->mtop - 1].below <= below)
		P->mtop--;
	P->ms[P->mtop++] = (struct mono){ f->k, below };
}

uint32_t
layout_rows(const struct tree *t, const struct spanset *s, uint32_t *row)
{
	size_t n = t->n, nodes = n + t->nbands, top = 0;
	struct frame *fs = xmalloc((n + 2) * sizeof *fs);
	struct placing P;
	uint32_t base = 0, used = 0;

	memset(&P, 0, sizeof P);
	P.t = t;
	P.st = xmalloc((n ? n : 1) * sizeof *P.st);
	P.oe = xmalloc((n ? n : 1) * sizeof *P.oe);
	P.maxend = xmalloc((nodes + 1) * sizeof *P.maxend);
	P.deep = xmalloc((nodes + 1) * sizeof *P.deep);
	P.rowp1 = xmalloc((nodes + 1) * sizeof *P.rowp1);
	P.ms = xmalloc((n + 1) * sizeof *P.ms);
	arena_init(&P.R.runs);
	P.R.st = P.st;
	P.R.oe = P.oe;
	P.R.l = xmalloc((n ? n : 1) * sizeof *P.R.l);
	P.R.r = xmalloc((n ? n : 1) * sizeof *P.R.r);
	for (size_t i = 0; i < n; i++) {
		int64_t st = s->v[i].start;

		P.st[i] = st;
		P.maxend[i] = st + (int64_t)s->v[i].dur;
		P.oe[i] = s->v[i].dur ? P.maxend[i] : st == INT64_MAX ? st : st + 1;
	}
	for (size_t i = n; i-- > 0;) {
		uint32_t x = t->pre[i], p = t->parent[x];

		if (p < n && P.maxend[x] > P.maxend[p])
			P.maxend[p] = P.maxend[x];
	}

	/*
	 * Rows are kept plus one, so that a band's virtual root sits on "row"
	 * base (the row above the band's first).  Each band is walked depth
	 * first with an explicit stack of frames: a frame places its span's
	 * children one at a time, latest start first.
	 */
	for (size_t b = 0; b < t->nbands; b++) {
		uint32_t vr = (uint32_t)(n + b);

		P.rowp1[vr] = base;
		P.deep[vr] = base;
		fs[0] = (struct frame){ vr, t->first[vr + 1], 0 };
		top = 1;
		P.mtop = 0;
		while (top > 0) {
			struct frame *f = &fs[top - 1];
			uint32_t c;

			if (f->k == t->first[f->x]) {
				/* f's span is complete: tell its parent's frame. */
				if (--top > 0) {
					P.mtop = f->mbase;
					subtree_done(&P, &fs[top - 1], f->x);
				}
				continue;
			}
			c = t->kids[--f->k];
			P.rowp1[c] = P.deep[c] = place(&P, f, c);
			put_row(&P.R, P.rowp1[c] - 1, c);
			if (t->first[c + 1] > t->first[c])
				fs[top++] = (struct frame){ c, t->first[c + 1],
				    (uint32_t)P.mtop };
			else
				subtree_done(&P, f, c);
		}
		if (P.deep[vr] > used)
			used = P.deep[vr];
		/* The next band starts after one empty row. */
		base = P.deep[vr] + 1;
	}
	for (size_t i = 0; i < n; i++)
		row[i] = P.rowp1[i] - 1;
	free(P.st);
	free(P.oe);
	free(P.maxend);
	free(P.deep);
	free(P.rowp1);
	free(P.ms);
	free(P.R.l);
	free(P.R.r);
	free(P.R.row);
	free(P.R.path);
	arena_free(&P.R.runs);
	free(fs);
	return used;
}
