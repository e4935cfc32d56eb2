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
 * bytewise, as stackcollapse writes them.
 *
 * A stack is never stored as text: on a chain of a million spans the
 * stacks add up to terabytes, though each is one frame longer than its
 * parent's.  Stacks are nodes of a trie instead, a node being (parent
 * node, frame) found through one hash table, with the sum of its spans;
 * node 0 is the empty stack.  Spans are walked in preorder with a stack
 * of ancestors, no recursion.  Memory is linear in the spans; only the
 * output is as long as the stacks.
 *
 * Writing walks the trie depth first with one path buffer.  A node's own
 * stack and its descendants' stacks are two separate runs in bytewise
 * order, because a ';' can sort after a sibling's frame that extends this
 * one ("a;x" comes after "a0"): the run of stacks below frame F all begin
 * with "F;", and a run sharing a prefix is contiguous in sorted order.  So
 * each frame has two sort keys interned next to each other, "F" (its own
 * stack) and "F;" (the run below it), ranked once by intern_sort, and the
 * children of a node are written in the order of those ranks.  Names
 * are made frames by folded_frame_fix (';' made ':'), so no "F" key ends
 * in ';' and no key is both.  Rejected: sorting the stacks' text (memory as long as the
 * output, the quadratic this replaced).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/count.h"
#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/intern.h"
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

/* The stacks: a trie of (parent, frame) nodes. */
struct trie {
	uint32_t *parent, *frame;	/* frame: id of the "F" key in keys */
	uint64_t *sum;
	size_t n;
	uint32_t *slots;		/* node id, 0 = empty (node 0 is the root) */
	size_t mask;
	struct intern keys;		/* "F" at even ids, "F;" right after */
	char *buf;			/* scratch for a frame being escaped */
	size_t cap;
};

/*
 * The key id of a frame named s[0..n), made a frame by folded.c's rule;
 * *cache remembers it for the name.
 */
static uint32_t
frame_key(struct trie *tr, uint32_t *cache, const char *s, size_t n)
{
	if (*cache != TREE_NONE)
		return *cache;
	if (n + 1 > tr->cap) {
		tr->cap = n + 64;
		tr->buf = xrealloc(tr->buf, tr->cap);
	}
	memcpy(tr->buf, s, n);
	folded_frame_fix(tr->buf, n);
	tr->buf[n] = ';';
	/* Two names can escape alike ("a;b", "a:b"): one frame, as before. */
	*cache = intern_put(&tr->keys, tr->buf, n, NULL);
	intern_put(&tr->keys, tr->buf, n + 1, NULL);
	return *cache;
}

/* The node of frame f under parent p, made when new. */
static uint32_t
node(struct trie *tr, uint32_t p, uint32_t f)
{
	size_t h = (size_t)intern_hash_u64((uint64_t)p << 32 | f) & tr->mask;
	uint32_t x;

	while ((x = tr->slots[h]) != 0) {
		if (tr->parent[x] == p && tr->frame[x] == f)
			return x;
		h = (h + 1) & tr->mask;
	}
	x = (uint32_t)tr->n++;
	tr->parent[x] = p;
	tr->frame[x] = f;
	tr->sum[x] = 0;
	tr->slots[h] = x;
	return x;
}

/*
 * Walk the spans into tr, summing weights; returns -1 when a sum passes
 * 2^64-1.
 */
static int
fill(struct trie *tr, const struct tree *t, const struct spanset *s, int total,
    int by_track)
{
	size_t nnames = intern_count(&s->names), ntracks = intern_count(&s->tracks);
	uint32_t *namekey = xmalloc((nnames + 1) * sizeof *namekey);
	uint32_t *trackkey = xmalloc((ntracks + 1) * sizeof *trackkey);
	uint32_t *anc = xmalloc((t->n + 1) * sizeof *anc);
	uint32_t *ancnode = xmalloc((t->n + 1) * sizeof *ancnode);
	size_t top = 0;
	int ret = 0;

	/* All bits set: TREE_NONE, no key yet. */
	memset(namekey, 0xff, (nnames + 1) * sizeof *namekey);
	memset(trackkey, 0xff, (ntracks + 1) * sizeof *trackkey);
	for (size_t i = 0; i < t->n; i++) {
		uint32_t x = t->pre[i], p = t->parent[x], up = 0, f, me;
		const struct span *sp = &s->v[x];
		uint64_t w;

		while (top > 0 && anc[top - 1] != p)
			top--;
		if (top > 0)
			up = ancnode[top - 1];
		else if (by_track) {
			uint32_t k = t->band_track[p - t->n];

			f = frame_key(tr, &trackkey[k], intern_str(&s->tracks, k),
			    intern_len(&s->tracks, k));
			up = intern_len(&tr->keys, f) > 0 ? node(tr, 0, f) : 0;
		}
		f = frame_key(tr, &namekey[sp->name], intern_str(&s->names, sp->name),
		    intern_len(&s->names, sp->name));
		me = node(tr, up, f);
		anc[top] = x;
		/*
		 * An empty first frame leaves no ';' behind it, so the stacks
		 * below it are those of the frames alone, as folded(5) text has
		 * always read: its children hang at the root.
		 */
		ancnode[top++] = up == 0 && intern_len(&tr->keys, f) == 0 ? 0 : me;
		w = total ? sp->dur : sp->dur - covered(t, s, x);
		if (count_add_u64(&tr->sum[me], w) < 0 && ret == 0) {
			warn_at(s->files[sp->file], sp->line,
			    "a stack's total time does not fit in 64 bits");
			ret = -1;
		}
	}
	free(namekey);
	free(trackkey);
	free(anc);
	free(ancnode);
	return ret;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Every weighted stack of tr, in bytewise order.  The entries of node p
 * are ent[first[p] .. first[p + 1]), each rank << 32 | child: a child's
 * own stack (rank of "F") when weighted, its run (rank of "F;") when it
 * has children.
 */
static void
write_trie(const struct trie *tr)
{
	size_t nkeys = intern_count(&tr->keys), n = tr->n, depth, cap = 0;
	uint32_t *sorted = xmalloc((nkeys + 1) * sizeof *sorted);
	uint32_t *rank = xmalloc((nkeys + 1) * sizeof *rank);
	uint8_t *haskids = xcalloc(n, 1);
	size_t *first = xcalloc(n + 1, sizeof *first), *at;
	uint64_t *ent;
	/* The path being walked: per level its node, next entry, length. */
	uint32_t *lnode = xmalloc(n * sizeof *lnode);
	size_t *lnext = xmalloc(n * sizeof *lnext), *llen = xmalloc(n * sizeof *llen);
	char *path = NULL;

	for (size_t i = 0; i < nkeys; i++)
		sorted[i] = (uint32_t)i;
	intern_sort(&tr->keys, sorted, nkeys);
	for (size_t i = 0; i < nkeys; i++)
		rank[sorted[i]] = (uint32_t)i;
	for (size_t x = 1; x < n; x++)
		haskids[tr->parent[x]] = 1;
	for (size_t x = 1; x < n; x++)
		first[tr->parent[x] + 1] += (tr->sum[x] > 0) + haskids[x];
	for (size_t p = 0; p < n; p++)
		first[p + 1] += first[p];
	ent = xmalloc((first[n] + 1) * sizeof *ent);
	at = xmalloc(n * sizeof *at);
	memcpy(at, first, n * sizeof *at);
	for (size_t x = 1; x < n; x++) {
		uint32_t p = tr->parent[x], f = tr->frame[x];

		if (tr->sum[x] > 0)
			ent[at[p]++] = (uint64_t)rank[f] << 32 | x;
		if (haskids[x])
			ent[at[p]++] = (uint64_t)rank[f + 1] << 32 | x;
	}
	for (size_t p = 0; p < n; p++)
		qsort(ent + first[p], first[p + 1] - first[p], sizeof *ent, cmp_u64);
	free(at);
	free(rank);
	free(haskids);

	lnode[0] = 0;
	lnext[0] = first[0];
	llen[0] = 0;
	depth = 1;
	while (depth > 0) {
		size_t d = depth - 1, len = llen[d];
		uint64_t e;
		uint32_t x, f, fn;

		if (lnext[d] == first[lnode[d] + 1]) {
			depth--;
			continue;
		}
		e = ent[lnext[d]++];
		x = (uint32_t)e;
		f = tr->frame[x];
		fn = intern_len(&tr->keys, f);
		if (len + fn + 2 > cap) {
			while (len + fn + 2 > cap)
				cap = cap ? cap * 2 : 4096;
			path = xrealloc(path, cap);
		}
		if (len > 0)
			path[len++] = ';';
		memcpy(path + len, intern_str(&tr->keys, f), fn);
		len += fn;
		if (sorted[e >> 32] == f) {
			struct count c = { tr->sum[x], 0 };

			folded_write(path, len, &c, NULL);
		} else {
			lnode[depth] = x;
			lnext[depth] = first[x];
			llen[depth++] = len;
		}
	}
	free(path);
	free(sorted);
	free(first);
	free(ent);
	free(lnode);
	free(lnext);
	free(llen);
}

int
fold_write(const struct tree *t, const struct spanset *s, int total, int by_track)
{
	/* Node 0, a node per span at most, and one per track. */
	size_t max = t->n + intern_count(&s->tracks) + 1, slots = 16;
	struct trie tr;
	int ret;

	while (slots < 2 * max)
		slots *= 2;
	tr.parent = xmalloc(max * sizeof *tr.parent);
	tr.frame = xmalloc(max * sizeof *tr.frame);
	tr.sum = xmalloc(max * sizeof *tr.sum);
	tr.slots = xcalloc(slots, sizeof *tr.slots);
	tr.mask = slots - 1;
	tr.n = 1;
	tr.parent[0] = tr.frame[0] = TREE_NONE;
	tr.sum[0] = 0;
	tr.buf = NULL;
	tr.cap = 0;
	intern_init(&tr.keys);
	ret = fill(&tr, t, s, total, by_track);
	free(tr.slots);
	free(tr.buf);
	if (ret == 0)
		write_trie(&tr);
	free(tr.parent);
	free(tr.frame);
	free(tr.sum);
	intern_free(&tr.keys);
	return ret;
}
