/*
 * flame: see flame.h for the design note.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/input.h"
#include "../lib/sort.h"
#include "../lib/strsort.h"
#include "flame.h"

/*
 * xgrow (err.h) with its test inline: flame_build grows its arrays a
 * frame at a time, and the calls alone were 2% of a large graph's run.
 */
static inline void *
grow(void *p, size_t *cap, size_t need, size_t sz)
{
	return need <= *cap ? p : xgrow(p, cap, need, sz);
}

void
flame_init(struct flame *f)
{
	memset(f, 0, sizeof *f);
	intern_init(&f->names);
	arena_init(&f->lines_arena);
	arena_init(&f->ids_arena);
	f->maxdelta = 1;
	f->lwhole = 1;
	f->kind = FOLDED_UNSEEN;
}

void
flame_free(struct flame *f)
{
	intern_free(&f->names);
	arena_free(&f->lines_arena);
	arena_free(&f->ids_arena);
	free(f->sorted_ids);
	free(f->split.ids);
	free(f->split.ends);
	free(f->frames);
	free(f->pre);
	free(f->table);
	free(f->lines);
	free(f->slots);
}

/* line_ref.stacklen of a line that flame_build parses again */
#define NOSTACKLEN UINT32_MAX

/* Invalid lines shown of an input; the others only counted. */
#define MAX_SHOWN 5

int
flame_read(struct input *in, int *kind, uint64_t *nbad, flame_take_fn *take,
    void *ctx, char *unit)
{
	uint64_t line = 0, bad = 0;
	const char *p, *why;
	size_t n;
	struct folded fl;
	int r, t, fr;

	while ((r = folded_next(in, &line, &p, &n, &fl, &fr, kind)) > 0) {
		char q[4 * 60 + 8];

		char u[FOLDED_UNIT_MAX + 1];

		if (fr < 0 && line == 1 && folded_unit(p, n, u)) {
			if (unit)
				memcpy(unit, u, sizeof u);
			continue;
		}
		why = fr == -3 ? " (one count in a file whose first line has "
		    "two)" : NULL;
		t = fr < 0 ? 1 : take(ctx, p, n, &fl, &why);
		if (t < 0) {
			warn_at(in->name, line, "%s: %s", why,
			    err_quote(q, p, n, 60));
			r = -1;
			break;
		}
		if (t > 0 && bad++ < MAX_SHOWN)
			warn_at(in->name, line, "skipped invalid line %s%s",
			    err_quote(q, p, n, 60), why ? why : "");
	}
	if (bad)
		warn_at(in->name, 0, "ignored %llu line%s with invalid format",
		    (unsigned long long)bad, bad == 1 ? "" : "s");
	*nbad += bad;
	return r < 0 ? -1 : 0;
}

static int
cmp_line(const void *va, const void *vb)
{
	const struct line_ref *a = va, *b = vb;
	uint32_t n = a->n < b->n ? a->n : b->n;
	int r = memcmp(a->s, b->s, n);

	return r ? r : (a->n > b->n) - (a->n < b->n);
}

/*
 * The slot of f's table of distinct lines for s[0..n), of hash h: the
 * one that holds the line equal to it, or else the empty one where it
 * would go.  A slot is a line's index + 1, and its hash's top half above
 * (whose low bits are its place): most lines that are not the one are
 * told by it, with no look at their bytes, and the table grows without
 * reading a line again.
 */
static uint64_t *
line_slot(const struct flame *f, const char *s, size_t n, uint64_t h)
{
	size_t mask = f->nslots - 1, i = (h >> 32) & mask;
	const struct line_ref *l;
	uint64_t e;

	for (; (e = f->slots[i]) != 0; i = (i + 1) & mask) {
		l = &f->lines[(uint32_t)e - 1];
		if (e >> 32 == h >> 32 && l->n == n && memcmp(l->s, s, n) == 0)
			break;
	}
	return &f->slots[i];
}

/* A table of distinct lines of nslots slots (a power of two) from old's. */
static void
grow_slots(struct flame *f, size_t nslots)
{
	uint64_t *old = f->slots;
	size_t n = f->nslots, mask = nslots - 1;

	f->slots = xcalloc(nslots, sizeof *f->slots);
	f->nslots = nslots;
	for (size_t k = 0; k < n; k++) {
		size_t i = (old[k] >> 32) & mask;

		if (old[k] == 0)
			continue;
		while (f->slots[i] != 0)
			i = (i + 1) & mask;
		f->slots[i] = old[k];
	}
	free(old);
}

/* Every line so far in a new table of distinct lines, at most half full. */
static void
index_lines(struct flame *f)
{
	size_t want = 1024;

	while (want < 2 * f->nlines)
		want *= 2;
	f->slots = xcalloc(want, sizeof *f->slots);
	f->nslots = want;
	for (size_t i = 0; i < f->nlines; i++) {
		const struct line_ref *l = &f->lines[i];
		uint64_t h = intern_hash(l->s, l->n);

		*line_slot(f, l->s, l->n, h) = (h >> 32 << 32) | (i + 1);
	}
}

/* Length of the common prefix of a and b, both at least n bytes. */
static size_t
common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return i + (size_t)__builtin_ctzll(x ^ y) / 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * Split a stack into frame ids as Perl's split(";") does (trailing empty
 * fields dropped), after the root "".  Sorted neighbours share long
 * prefixes, so the frames that the previous stack (prev, whose ids are
 * previds[0..nprev), the root's first) has byte for byte are taken from
 * it, not hashed again; and those of them that end before the first byte
 * the two differ at, where the previous split found them ((*ends)[k]:
 * frame k's end, increasing), found by bisection, with no search for
 * their ';' (memchr over every frame was 6% of a system-wide graph's
 * run) and no pass over them (a deep stack's frames were walked three
 * times a line).  (*ends)[k] is set for every frame of this stack.
 */
static size_t
split_frames(struct flame *f, const char *s, size_t n, const char *prev,
    size_t prevn, const uint32_t *previds, size_t nprev, uint32_t **ids,
    size_t *cap, size_t **ends, size_t *ecap)
{
	size_t k = 0, start = 0, end = n, common = 0, lim, hi;

	while (end > 0 && s[end - 1] == ';')
		end--;
	lim = end < prevn ? end : prevn;
	common = common_prefix(s, prev, lim);
	*ids = grow(*ids, cap, 1, sizeof **ids);
	/* the root: the previous stack's first frame, looked up once */
	(*ids)[k++] = nprev ? previds[0] : intern_put(&f->names, "", 0, NULL);
	*ids = grow(*ids, cap, nprev + 1, sizeof **ids);
	/* the first frame k >= 1 of prev's that does not end before common */
	for (hi = nprev > k ? nprev : k; k < hi;) {
		size_t mid = k + (hi - k) / 2;

		if ((*ends)[mid] < common)
			k = mid + 1;
		else
			hi = mid;
	}
	if (k > 1)
		start = (*ends)[k - 1] + 1;
	while (end > 0 && start <= end) {
		const char *semi = memchr(s + start, ';', end - start);
		size_t fe = semi ? (size_t)(semi - s) : end;
		int same = k < nprev && (fe < common ||
		    (fe == end && end == prevn && common == end));

		uint32_t id = same ? previds[k] :
		    intern_put(&f->names, s + start, fe - start, NULL);

		*ids = grow(*ids, cap, k + 1, sizeof **ids);
		*ends = grow(*ends, ecap, k + 1, sizeof **ends);
		(*ids)[k] = id;
		(*ends)[k++] = fe;
		start = fe + 1;
	}
	return k;
}

/*
 * The name ids of stack s[0..n) (as line_ref.ids has them), split by
 * split_frames after the stack sp split last; s must stay where it is
 * until the next split.
 */
static const uint32_t *
split_ids(struct flame *f, struct flame_split *sp, const char *s, size_t n)
{
	size_t nids = split_frames(f, s, n, sp->prev, sp->prevn,
	    sp->previds ? sp->previds + 1 : NULL,
	    sp->previds ? sp->previds[0] : 0, &sp->ids, &sp->idscap,
	    &sp->ends, &sp->endscap);
	uint32_t *run = arena_alloc(&f->ids_arena, (nids + 1) * sizeof *run);

	run[0] = (uint32_t)nids;
	memcpy(run + 1, sp->ids, nids * sizeof *run);
	sp->prev = s;
	sp->prevn = n;
	sp->previds = run;
	return run;
}

/* A stack whose leaf, or root, is folded(5)'s off-CPU mark. */
static int
offcpu_line(const char *s, size_t n)
{
	size_t k = sizeof OFFCPU_FRAME - 1;

	return n >= k && ((memcmp(s + n - k, OFFCPU_FRAME, k) == 0 &&
	    (n == k || s[n - k - 1] == ';')) || (memcmp(s, OFFCPU_FRAME, k) == 0 &&
	    (n == k || s[k] == ';')));
}

void
flame_add_line(struct flame *f, const char *s, size_t n,
    const struct folded *fl)
{
	struct line_ref *last = f->nlines ? &f->lines[f->nlines - 1] : NULL;
	const struct line_ref key = { s, (uint32_t)n, 0, 0, 0, NULL };
	struct line_ref *l;
	uint64_t *slot = NULL, h = 0;
	int c;

	/* (a sum that does not fit: flame_build says so, with no narrowing) */
	if (fl->c.frac != 0 || count_add(&f->lsum, &fl->c) < 0)
		f->lwhole = 0;
	f->ltotal += fl->count;
	if (!f->offcpu && offcpu_line(fl->stack, fl->stacklen))
		f->offcpu = 1;
	/* the same as the line before, or the first out of order (flame.h) */
	if (!f->slots) {
		c = last ? cmp_line(last, &key) : -1;
		if (c == 0) {
			last->times++;
			return;
		}
		if (c > 0 && !f->in_order)
			index_lines(f);
	}
	if (f->slots) {
		h = intern_hash(s, n);
		slot = line_slot(f, s, n, h);
		if (*slot != 0) {
			f->lines[(uint32_t)*slot - 1].times++;
			return;
		}
	}
	f->lines = grow(f->lines, &f->linescap, f->nlines + 1, sizeof *f->lines);
	l = &f->lines[f->nlines];
	if ((uintptr_t)s - (uintptr_t)f->kept < f->keptlen &&
	    (uintptr_t)s - (uintptr_t)f->kept + n <= f->keptlen)
		l->s = s;
	else
		l->s = arena_strndup(&f->lines_arena, s, n);
	l->n = (uint32_t)n;
	l->times = 1;
	l->stacklen = NOSTACKLEN;
	if (!fl->has2 && fl->c.frac == 0 &&
	    fl->count == (long double)fl->c.whole && fl->stacklen < n) {
		l->stacklen = (uint32_t)fl->stacklen;
		l->whole = fl->c.whole;
	}
	/* (the kept copy: split_ids reads it again at the next line) */
	l->ids = f->rewrites ? NULL : split_ids(f, &f->split,
	    l->s + (fl->stack - s), fl->stacklen);
	f->nlines++;
	if (slot) {
		*slot = (h >> 32 << 32) | f->nlines;
		if (2 * f->nlines > f->nslots)
			grow_slots(f, 2 * f->nslots);
	}
}

/*
 * Whether the lines are in cmp_line's order already: stackcollapse writes
 * its stacks sorted, and so do most tools that write folded stacks.  The
 * check costs n - 1 comparisons where the sort took n log n, a tenth of a
 * system-wide graph's run; equal neighbours are in order.
 */
static int
lines_sorted(const struct flame *f)
{
	for (size_t i = 1; i < f->nlines; i++)
		if (cmp_line(&f->lines[i - 1], &f->lines[i]) > 0)
			return 0;
	return 1;
}

/*
 * The lines in cmp_line's order, by strsort (strsort.h): the lines are
 * distinct (flame_add_line), or equal only after --reverse, where the
 * order of equals makes no difference.  The sorted items say where each
 * line goes; the lines are gathered there into a new array, whose reads
 * the processor overlaps, as it cannot those of a permutation in place
 * (cycle by cycle, each read waiting for the one before: a tenth of a
 * graph of 200,000 unsorted stacks).
 */
static void
sort_lines(struct flame *f)
{
	struct strsort_item *v = xmalloc(f->nlines * sizeof *v);
	struct line_ref *out;
	uint32_t *ids;
	size_t i, n;

	for (i = 0; i < f->nlines; i++) {
		v[i].s = f->lines[i].s;
		v[i].n = f->lines[i].n;
		v[i].id = (uint32_t)i;
	}
	strsort(v, f->nlines);
	out = xmalloc(f->nlines * sizeof *out);
	for (i = 0; i < f->nlines; i++)
		out[i] = f->lines[v[i].id];
	free(v);
	free(f->lines);
	f->lines = out;
	f->linescap = f->nlines;
	/*
	 * Their ids gathered so too, in one array in the new order, which
	 * flame_build then reads straight through (in ids_arena they were
	 * in the order read: a cache miss a line, a sixth of the run).
	 */
	for (i = 0, n = 0; i < f->nlines; i++)
		n += f->lines[i].ids ? f->lines[i].ids[0] + 1 : 0;
	ids = xmalloc((n + 1) * sizeof *ids);
	for (i = 0, n = 0; i < f->nlines; i++) {
		const uint32_t *r = f->lines[i].ids;

		if (r == NULL)
			continue;
		memcpy(ids + n, r, (r[0] + 1) * sizeof *ids);
		f->lines[i].ids = ids + n;
		n += r[0] + 1;
	}
	arena_free(&f->ids_arena);
	arena_init(&f->ids_arena);
	f->split.previds = NULL;	/* (it was in the arena) */
	f->split.prevn = 0;
	free(f->sorted_ids);
	f->sorted_ids = ids;
}

/* An open frame of the previous line. */
struct open {
	uint32_t name;
	uint32_t seq;		/* the order it opened in: its place in pre */
	uint64_t istart;	/* with narrow, stime (set if it is drawn) */
	long double stime, delta;
	long double off0;	/* hot/cold: the off-CPU time before it */
	int has_delta;
};

/*
 * With flame_opts.narrow: the width below which frames are left out, and
 * what is summed of every frame (flame.h's table) and needed for it: per
 * name id, how many frames of that name are open (the root not).
 *
 * Narrowing needs whole counts that sum below 2^64, so here the times
 * are uint64_t, exactly the long doubles that the frames keep: the x87
 * loads, stores and arithmetic of long doubles, for frames that are
 * then left out, were a fifth of a large graph's run.  The table's sums
 * are taken modulo 2^64 (a self is below its frame's width only until
 * its callees are taken off it) and come out exact, each ending between
 * 0 and the total.
 */
struct narrow {
	uint64_t below;		/* frames narrower than this: ceil() */
	int all;		/* below is 2^64 or more: every frame */
	uint64_t *t;
	uint32_t *open;
	size_t cap;		/* of open, and half of t's */
};

/* Make room in n's arrays for name id, zeroed. */
static void
narrow_room(struct narrow *n, uint32_t id)
{
	size_t old = n->cap;

	if (id < old)
		return;
	n->open = grow(n->open, &n->cap, (size_t)id + 1, sizeof *n->open);
	n->t = xrealloc(n->t, 2 * n->cap * sizeof *n->t);
	for (size_t i = old; i < n->cap; i++) {
		n->open[i] = 0;
		n->t[2 * i] = n->t[2 * i + 1] = 0;
	}
}

/*
 * Frame o, at depth, closing at etime (its parent open[depth - 1]), in
 * n's table as scriptdata.c's sd_name_table counts it: its width to its self, out
 * of its parent's self (but the root's), and to its total unless a frame
 * of its name is open around it.  Whole counts: exact in any order.
 */
static void
narrow_close(struct narrow *n, const struct open *open, uint32_t depth,
    uint64_t etime)
{
	const struct open *o = &open[depth];
	uint64_t v = etime - o->istart;

	if (depth == 0)
		return;
	n->t[2 * o->name] += v;
	if (depth > 1)
		n->t[2 * open[depth - 1].name] -= v;
	if (n->open[o->name]-- == 1)
		n->t[2 * o->name + 1] += v;
}

static void
emit(struct flame *f, const struct open *o, uint32_t depth, long double etime)
{
	struct frame *fr;

	f->frames = grow(f->frames, &f->cap, f->nframes + 1, sizeof *f->frames);
	f->pre[o->seq] = (uint32_t)f->nframes;
	fr = &f->frames[f->nframes++];
	fr->name = o->name;
	fr->depth = depth;
	fr->stime = o->stime;
	fr->etime = etime;
	fr->delta = o->delta;
	fr->has_delta = o->has_delta;
	fr->diff = 0;
}

/*
 * --colors=chain, exactly as flamegraph.pl rewrites the stack: split at
 * ";--;" (Perl's split, trailing empty fields dropped), keep the first
 * part, then ";--;" (always, even with no waker), then the waker parts
 * with "_[w]" after each frame, joined by ";--;".
 */
static char *
mark_wakers(const char *s, size_t *n)
{
	char *out = xmalloc(*n * 5 + 8), *w = out;
	const char *p = s, *e = s + *n, *sep;
	int part = 0;

	while (e - s >= 4 && memcmp(e - 4, ";--;", 4) == 0)
		e -= 4;
	for (;;) {
		const char *pe;

		sep = p < e ? memmem(p, (size_t)(e - p), ";--;", 4) : NULL;
		pe = sep ? sep : e;
		if (part > 1) {
			memcpy(w, ";--;", 4);
			w += 4;
		}
		for (const char *q = p; q < pe; q++) {
			if (part > 0 && *q == ';') {
				memcpy(w, "_[w]", 4);
				w += 4;
			}
			*w++ = *q;
		}
		if (part > 0) {
			memcpy(w, "_[w]", 4);
			w += 4;
		} else {
			memcpy(w, ";--;", 4);
			w += 4;
		}
		part++;
		if (!sep)
			break;
		p = sep + 4;
	}
	*n = (size_t)(w - out);
	return out;
}

size_t
flame_reverse(char *r, const char *s, size_t n)
{
	size_t k = 0, i, j;

	/* Fields from the last to the first: s[i..j) each time. */
	for (i = j = n; n > 0; i--) {
		if (i == 0 || s[i - 1] == ';') {
			if (j < n)	/* not the first field */
				r[k++] = ';';
			memcpy(r + k, s + i, j - i);
			k += j - i;
			if (i == 0)
				break;
			j = i - 1;
		}
	}
	return k;
}

/*
 * --reverse rewrites each line before sorting, as flamegraph.pl does:
 * frames in reverse order (Perl's split, trailing empty fields dropped),
 * then the count field(s) as they stood.
 */
static void
reverse_lines(struct flame *f)
{
	size_t li;

	for (li = 0; li < f->nlines; li++) {
		struct folded fl;
		const char *s = f->lines[li].s;
		size_t n = f->lines[li].n, end, k;
		char *r;

		if (folded_parse(s, n, f->kind != FOLDED_ONE, &fl) < 0)
			continue;
		r = arena_alloc(&f->lines_arena, n + 1);
		end = fl.stacklen;
		while (end > 0 && s[end - 1] == ';')
			end--;
		k = flame_reverse(r, s, end);
		memcpy(r + k, s + fl.stacklen, n - fl.stacklen);
		k += n - fl.stacklen;
		f->lines[li].s = r;
		f->lines[li].n = (uint32_t)k;
		f->lines[li].stacklen = NOSTACKLEN;
	}
}

/*
 * Split every line into frames (line_ref.ids) as flame_build merges
 * them: the stacks as --reverse rewrote them, and with chain, as
 * mark_wakers rewrites them (the lines keep their text: they sort by
 * it).  A line that --reverse left unparsed is no stack: NULL.
 */
static void
split_lines(struct flame *f, int chain)
{
	struct flame_split sp = { NULL, 0, NULL, NULL, NULL, 0, 0 };
	char *prevbuf = NULL;	/* sp.prev's storage when rewritten */

	for (size_t li = 0; li < f->nlines; li++) {
		struct line_ref *lr = &f->lines[li];
		struct folded fl;
		const char *stack = lr->s;
		size_t stacklen = lr->stacklen;
		char *marked = NULL;

		if (lr->stacklen == NOSTACKLEN) {
			if (folded_parse(lr->s, lr->n, f->kind != FOLDED_ONE,
			    &fl) < 0) {
				lr->ids = NULL;
				continue;
			}
			stack = fl.stack;
			stacklen = fl.stacklen;
		}
		if (chain) {
			marked = mark_wakers(stack, &stacklen);
			stack = marked;
		}
		lr->ids = split_ids(f, &sp, stack, stacklen);
		free(prevbuf);
		prevbuf = marked;
	}
	free(prevbuf);
	free(sp.ids);
	free(sp.ends);
}

/*
 * Whether flame_build leaves narrow frames out (flame_opts.narrow): only
 * when every count is whole, so that the total, which gives the width,
 * is the build's sum in any order; that width in *below.
 */
static int
narrow_below(const struct flame *f, const struct flame_opts *o,
    struct narrow *nw)
{
	long double below;

	if (!o->narrow || !f->lwhole || f->ltotal <= 0)
		return 0;
	below = ceill(o->narrow(f->ltotal, o->narrow_ctx));
	nw->all = !(below < 0x1p64L);
	nw->below = nw->all ? 0 : (uint64_t)below;
	return 1;
}

int
flame_build(struct flame *f, const struct flame_opts *o)
{
	struct open *open = NULL;
	size_t nopen = 0, opencap = 0, li, i, opened = 0;
	size_t precap = 0;
	long double time = 0;
	uint64_t itime = 0;	/* with narrow, time (set at a frame drawn) */
	struct count sum = { 0, 0 };	/* time, exactly: the overflow test */
	struct narrow nw = { 0, 0, NULL, NULL, 0 };
	int narrow, unsorted;
	long double off = 0;	/* hot/cold: the marked lines' counts so far */
	uint32_t mark = o->hotcold ? intern_put(&f->names, OFFCPU_FRAME,
	    sizeof OFFCPU_FRAME - 1, NULL) : UINT32_MAX;

	if (o->reverse)
		reverse_lines(f);
	if (o->reverse || o->chain || f->rewrites)
		split_lines(f, o->chain);
	if ((narrow = narrow_below(f, o, &nw)) != 0)
		narrow_room(&nw, 0);
	/* lines read in order are (flame_add_line), unless --reverse rewrote them */
	unsorted = f->slots || f->in_order || o->reverse;
	/* (the table of distinct lines is done with: its memory to the sort) */
	free(f->slots);
	f->slots = NULL;
	f->nslots = 0;
	if (o->order == ORDER_NAME && f->nlines > 1 && unsorted &&
	    !lines_sorted(f))
		sort_lines(f);
	for (li = 0; li <= f->nlines; li++) {
		struct folded fl;
		size_t nids = 0, same = 0;
		const uint32_t *ids = NULL;
		uint64_t k, icount = 0;	/* with narrow: fl.count */
		long double d = 0;
		int has_d = 0;

		if (li < f->nlines) {
			const struct line_ref *lr = &f->lines[li];

			if (!lr->ids)	/* not a stack after --reverse */
				continue;
			if (lr->stacklen != NOSTACKLEN) {
				fl.stack = lr->s;
				fl.stacklen = lr->stacklen;
				fl.c.whole = lr->whole;
				fl.c.frac = 0;
				fl.count = (long double)lr->whole;
				fl.has2 = 0;
				icount = lr->whole;
			} else if (folded_parse(lr->s, lr->n,
			    f->kind != FOLDED_ONE, &fl) < 0)
				continue;
			/* (a long double's conversion was 4% of a run) */
			else if (narrow)
				icount = fl.c.whole;
			ids = lr->ids + 1;
			nids = lr->ids[0];
			if (fl.has2) {
				long double ad;

				d = fl.count - fl.count1;
				has_d = 1;
				f->differential = 1;
				ad = d < 0 ? -d : d;
				if (ad > f->maxdelta)
					f->maxdelta = ad;
			}
		}
		while (same < nopen && same < nids && open[same].name == ids[same])
			same++;
		for (i = nopen; i-- > same;) {
			if (narrow) {
				narrow_close(&nw, open, (uint32_t)i, itime);
				if (nw.all || itime - open[i].istart < nw.below) {
					f->pre[open[i].seq] = UINT32_MAX;
					f->nelided++;
					continue;
				}
				open[i].stime = (long double)open[i].istart;
				time = (long double)itime;
			}
			emit(f, &open[i], (uint32_t)i, time);
			if (o->hotcold)
				f->frames[f->nframes - 1].off = off - open[i].off0;
		}
		nopen = same;
		for (i = same; i < nids; i++) {
			open = grow(open, &opencap, nopen + 1, sizeof *open);
			f->pre = grow(f->pre, &precap, opened + 1,
			    sizeof *f->pre);
			open[nopen].name = ids[i];
			open[nopen].seq = (uint32_t)opened++;
			if (narrow)
				open[nopen].istart = itime;
			else
				open[nopen].stime = time;
			open[nopen].has_delta = has_d;
			open[nopen].delta = has_d && i == nids - 1 ? d : 0;
			if (o->hotcold)
				open[nopen].off0 = off;
			nopen++;
			if (narrow && i > 0) {
				if (ids[i] >= nw.cap)	/* the call's test, inline */
					narrow_room(&nw, ids[i]);
				nw.open[ids[i]]++;
			}
		}
		/* a line read k times: its count added k times, as k lines were */
		for (k = li < f->nlines ? f->lines[li].times : 0; k > 0; k--) {
			if (count_add(&sum, &fl.c) < 0) {
				free(open);
				free(nw.t);
				free(nw.open);
				return -1;
			}
			if (narrow)
				itime += icount;
			else
				time += fl.count;
			if (nids > 1 && (ids[nids - 1] == mark || (o->reverse && ids[1] == mark)))
				off += fl.count;
		}
	}
	f->total = narrow ? (long double)itime : time;
	if (narrow) {
		/* pre without the frames left out */
		for (i = 0, li = 0; i < opened; i++)
			if (f->pre[i] != UINT32_MAX)
				f->pre[li++] = f->pre[i];
		if (f->nelided) {
			/* room for every name, whatever scriptdata.c reads */
			narrow_room(&nw, (uint32_t)intern_count(&f->names));
			f->table = xmalloc(2 * nw.cap * sizeof *f->table);
			for (i = 0; i < 2 * nw.cap; i++)
				f->table[i] = (long double)nw.t[i];
		}
	}
	free(open);
	free(nw.t);
	free(nw.open);
	return 0;
}

/* Order of callees under --sort=weight: heaviest first, then by name. */
static int
cmp_weight(const void *va, const void *vb, const void *ctx)
{
	const struct flame *f = ctx;
	const struct frame *a = &f->frames[*(const size_t *)va];
	const struct frame *b = &f->frames[*(const size_t *)vb];
	long double wa = a->etime - a->stime, wb = b->etime - b->stime;
	const struct intern *n = &f->names;
	uint32_t la = intern_len(n, a->name), lb = intern_len(n, b->name);
	int r;

	if (wa != wb)
		return wa > wb ? -1 : 1;
	r = memcmp(intern_str(n, a->name), intern_str(n, b->name),
	    la < lb ? la : lb);
	return r ? r : (la > lb) - (la < lb);
}

static int
cmp_depth_start(const void *va, const void *vb)
{
	const struct frame *a = va, *b = vb;

	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	if (a->stime != b->stime)
		return a->stime < b->stime ? -1 : 1;
	return (a->etime > b->etime) - (a->etime < b->etime);
}

/*
 * flame_build emits the frames of a depth in order of start (one closes
 * before the next of its depth opens), so a stable counting sort by
 * depth is the sort, in a pass, where a sort was a tenth of a graph's
 * drawing.  Kept only where it comes out sorted (--sort=weight moves
 * starts, then sorts again): returns 0 when not, the frames untouched.
 * Frames equal in all three keys stay in the order they came, as the
 * stable sort keeps them.
 */
static int
sort_by_depth(struct flame *f)
{
	size_t n = f->nframes, i, *at;
	uint32_t maxd = 0;
	struct frame *out;

	for (i = 0; i < n; i++)
		if (f->frames[i].depth > maxd)
			maxd = f->frames[i].depth;
	at = xcalloc((size_t)maxd + 2, sizeof *at);
	for (i = 0; i < n; i++)
		at[f->frames[i].depth + 1]++;
	for (i = 1; i <= maxd; i++)
		at[i] += at[i - 1];
	out = xmalloc(n * sizeof *out);
	for (i = 0; i < n; i++)
		out[at[f->frames[i].depth]++] = f->frames[i];
	free(at);
	for (i = 1; i < n; i++)
		if (cmp_depth_start(&out[i - 1], &out[i]) > 0) {
			free(out);
			return 0;
		}
	free(f->frames);
	f->frames = out;
	f->cap = n;
	return 1;
}

void
flame_sort(struct flame *f)
{
	free(f->pre);
	f->pre = NULL;
	if (f->nframes > 1 && !sort_by_depth(f))
		qsort(f->frames, f->nframes, sizeof *f->frames, cmp_depth_start);
}

void
flame_sort_weight(struct flame *f)
{
	size_t nf = f->nframes, i = 0, j, k, c, m;
	size_t *first = xcalloc(nf + 1, sizeof *first);
	size_t *count = xcalloc(nf + 1, sizeof *count);
	size_t *order = xcalloc(nf + 1, sizeof *order);
	long double *news = xcalloc(nf + 1, sizeof *news);

	/*
	 * Pass 1, in the original coordinates: a frame's callees are the
	 * frames one deeper that start inside it, a run since each depth is
	 * sorted by start.
	 */
	for (i = 0; i < nf; i++)
		news[i] = f->frames[i].stime;
	for (i = 0; i < nf; i = j) {
		uint32_t d = f->frames[i].depth;

		for (j = i; j < nf && f->frames[j].depth == d; j++)
			;
		for (k = j, c = i; c < j; c++) {
			const struct frame *p = &f->frames[c];

			while (k < nf && f->frames[k].depth == d + 1 &&
			    f->frames[k].stime < p->stime)
				k++;
			first[c] = k;
			while (k < nf && f->frames[k].depth == d + 1 &&
			    f->frames[k].stime < p->etime)
				k++;
			count[c] = k - first[c];
		}
	}
	/*
	 * Pass 2, callers before callees: each run is laid out heaviest
	 * first from where it began, moved with its caller.
	 */
	for (c = 0; c < nf; c++) {
		long double at;

		if (count[c] == 0)
			continue;
		at = news[c] + (f->frames[first[c]].stime - f->frames[c].stime);
		for (m = 0; m < count[c]; m++)
			order[m] = first[c] + m;
		sort_ctx(order, count[c], sizeof *order, cmp_weight, f);
		for (m = 0; m < count[c]; m++) {
			const struct frame *ch = &f->frames[order[m]];

			news[order[m]] = at;
			at += ch->etime - ch->stime;
		}
	}
	for (i = 0; i < nf; i++) {
		long double w = f->frames[i].etime - f->frames[i].stime;

		f->frames[i].stime = news[i];
		f->frames[i].etime = news[i] + w;
	}
	flame_sort(f);
	free(first);
	free(count);
	free(order);
	free(news);
}

size_t
flame_shown(const char *s, size_t n)
{
	/* (the letters tested one by one: strchr was a call a frame) */
	if (n >= 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' &&
	    (s[n - 2] == 'k' || s[n - 2] == 'w' || s[n - 2] == 'i' ||
	    s[n - 2] == 'j'))
		return n - 4;
	return n;
}
