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
#include "svg.h"

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
diff_read(struct diff *d, struct input *in, int col, uint64_t *nbad)
{
	struct diff_take t = { d, col };
	int kind = FOLDED_UNSEEN;	/* each input's own */

	return flame_read(in, &kind, nbad, take_line, &t);
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

/*
 * "%.0Lf" of v with thousands separators, as the titles write counts,
 * into b[0..size), cut to fit.
 */
static char *
samples_text(char *b, size_t size, long double v)
{
	char d[LDBL_MAX_10_EXP + 3];
	int n, i = 0, lead;
	size_t k = 0;

	/* Whole counts, the usual case, skip float formatting. */
	if (v >= 0 && v == floorl(v) && v < 18446744073709551616.0L)
		n = (int)num_fmt_u64(d, (uint64_t)v);
	else
		n = snprintf(d, sizeof d, "%.0Lf", v);
	if (d[0] == '-')
		b[k++] = d[i++];
	lead = (n - i) % 3 ? (n - i) % 3 : 3;
	for (int j = 0; i < n && k + 2 < size; i++, j++) {
		if (j && j >= lead && (j - lead) % 3 == 0)
			b[k++] = ',';
		b[k++] = d[i];
	}
	b[k] = '\0';
	return b;
}

static void
out_samples(long double v)
{
	char b[2 * LDBL_MAX_10_EXP + 8];

	out_str(samples_text(b, sizeof b, v));
}

/* buf += the printf of fmt, cut at the end of the buffer. */
static void PRINTFLIKE(3, 4)
append(char *buf, size_t size, const char *fmt, ...)
{
	size_t at = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + at, size - at, fmt, ap);
	va_end(ap);
}

void
diff_summary(struct diff *d, const struct svg_opts *o)
{
	char *buf = d->summary;
	size_t n = sizeof d->summary;

	buf[0] = '\0';
	if (o->subtitle && *o->subtitle)
		append(buf, n, "%s; ", o->subtitle);
	{
		char b1[2 * LDBL_MAX_10_EXP + 8], b2[sizeof b1];

		append(buf, n, "before: %s, after: %s ", samples_text(b1,
		    sizeof b1, d->tbefore * o->factor), samples_text(b2,
		    sizeof b2, d->tafter * o->factor));
	}
	append(buf, n, "%s", o->countname);
	if (d->o.normalize && d->tbefore > 0 && d->tafter > 0)
		append(buf, n, "; shares compared, before scaled by %.6Lg",
		    d->tafter / d->tbefore);
	else if (!d->o.normalize)
		append(buf, n, "; counts compared");
	append(buf, n, "; width: %s", d->o.width == DIFF_AFTER ? "after" :
	    d->o.width == DIFF_BEFORE ? "before" : "max");
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

/* x's self on each side as compared: a share, or a raw count. */
static void
compared(const struct diff *d, long double before, long double after,
    long double *vb, long double *va)
{
	if (d->o.normalize) {
		*vb = d->tbefore > 0 ? before / d->tbefore : 0;
		*va = d->tafter > 0 ? after / d->tafter : 0;
	} else {
		*vb = before;
		*va = after;
	}
}

/* The change of a self on the colour scale: -1 (less) to 1 (more). */
static double
scale_pos(const struct diff *d, const struct diff_frame *x)
{
	long double vb, va, t;

	/* a frame of one side only is marked as removed or added */
	if (x->after == 0 || x->before == 0)
		return x->after > 0 ? 1 : x->before > 0 ? -1 : 0;
	compared(d, x->sbefore, x->safter, &vb, &va);
	if (vb == 0)
		return va > 0 ? 1 : 0;
	t = (va - vb) / vb * 100 / d->o.clamp;
	return t > 1 ? 1 : t < -1 ? -1 : (double)t;
}

/* The ends of each palette: less, none, more. */
static const struct rgb ends[2][3] = {
	{ { 50, 170, 80 }, { 220, 220, 220 }, { 230, 60, 50 } },
	{ { 40, 120, 220 }, { 220, 220, 220 }, { 240, 140, 30 } },
};

struct rgb
diff_color(const struct diff *d, const struct diff_frame *x, int negate)
{
	double t = scale_pos(d, x) * (negate ? -1 : 1);
	const struct rgb *e = ends[d->o.palette], *to = t < 0 ? &e[0] : &e[2];
	double a = fabs(t);

	return (struct rgb){ (int)(e[1].r + (to->r - e[1].r) * a + 0.5),
	    (int)(e[1].g + (to->g - e[1].g) * a + 0.5),
	    (int)(e[1].b + (to->b - e[1].b) * a + 0.5) };
}

/*
 * A signed number with two decimals, "0.00" for any zero (never "-0.00"
 * or "+0.00"), and past 10^12 the bound, so that printf and the script's
 * toFixed write the same.
 */
static void
out_signed2(double v)
{
	char b[32];

	if (v >= 1e12 || v <= -1e12) {
		out_str(v > 0 ? "+>1e12" : "-<1e12");
		return;
	}
	num_fmt_fixed(b, v, 2);
	if (strcmp(b, "0.00") == 0 || strcmp(b, "-0.00") == 0) {
		out_str("0.00");
		return;
	}
	if (v > 0)
		out_char('+');
	out_str(b);
}

/*
 * The texts compute in double, from the doubles the script's data holds,
 * so that the script's titles (flame.js) are these to the last digit.
 */

/* "N samples, P%" of one side. */
static void
out_side(const struct svg_opts *o, long double v, long double total)
{
	char b[32];

	out_samples(v * o->factor);
	out_char(' ');
	xml_out(o->countname, strlen(o->countname));
	num_fmt_fixed(b, total > 0 ? 100 * (double)v / (double)total : 0, 2);
	out_str(", ");
	out_str(b);
	out_char('%');
}

/* The change from before to after: in points or counts, and in percent. */
static void
out_change(const struct diff *d, const struct svg_opts *o, long double before,
    long double after)
{
	double vb = (double)before, va = (double)after;

	if (d->o.normalize) {
		vb = d->tbefore > 0 ? vb / (double)d->tbefore : 0;
		va = d->tafter > 0 ? va / (double)d->tafter : 0;
		out_signed2(100 * (va - vb));
		out_str(" points");
	} else {
		if (va > vb)
			out_char('+');
		/* long double: a --factor near 10^308 would make it inf */
		out_samples((long double)(va - vb) * o->factor);
		out_char(' ');
		xml_out(o->countname, strlen(o->countname));
	}
	out_str(", ");
	if (vb > 0) {
		out_signed2(100 * (va - vb) / vb);
		out_char('%');
	} else {
		out_str("new");
	}
}

void
diff_title(const struct diff *d, const struct diff_frame *x,
    const struct svg_opts *o)
{
	if (x->after == 0 || x->before == 0) {
		out_str(x->after == 0 ? " (only in before: " : " (only in after: ");
		out_side(o, x->after == 0 ? x->before : x->after,
		    x->after == 0 ? d->tbefore : d->tafter);
		out_char(')');
		return;
	}
	out_str(" (before: ");
	out_side(o, x->before, d->tbefore);
	out_str("; after: ");
	out_side(o, x->after, d->tafter);
	out_str("; ");
	out_change(d, o, x->before, x->after);
	if (x->sbefore > 0 || x->safter > 0) {
		out_str("; self: ");
		out_change(d, o, x->sbefore, x->safter);
	}
	out_char(')');
}

void
diff_legend(const struct diff *d, const struct svg_opts *o, const char *id,
    double y, int negate)
{
	const struct rgb *e = ends[d->o.palette];
	double fs = o->fontsize, x = 10;
	char low[48], high[48];

	out_fmt("<defs><linearGradient id=\"%s-dl\">", id);
	for (int k = 0; k < 3; k++) {
		struct rgb c = e[negate ? 2 - k : k];

		out_fmt("<stop offset=\"%d%%\" stop-color=\"#%02x%02x%02x\"/>",
		    50 * k, c.r, c.g, c.b);
	}
	out_str("</linearGradient></defs>\n<g class=\"dl\"><title>colour: "
	    "the change of a frame's self ");
	out_str(d->o.normalize ? "share" : "count");
	out_fmt(", after against before; full at %g%% and beyond</title>",
	    d->o.clamp);
	/* The bar after the left label, as wide as the font says it is. */
	snprintf(low, sizeof low, "self -%g%%", d->o.clamp);
	snprintf(high, sizeof high, "+%g%%", d->o.clamp);
	out_fmt("<text x=\"%.15g\" y=\"%.15g\">%s</text>", x, y, low);
	x += (double)strlen(low) * fs * o->fontwidth + fs / 2;
	out_fmt("<rect x=\"%.15g\" y=\"%.15g\" width=\"%.15g\" height=\"%.15g\" "
	    "fill=\"url(#%s-dl)\"/>", x, y - fs, fs * 10, fs, id);
	x += fs * 10 + fs / 2;
	out_fmt("<text x=\"%.15g\" y=\"%.15g\">%s</text></g>\n", x, y, high);
}

/*
 * The script's diff data: every node of the tree, drawn or not, in the
 * order drawn (breadth first), its name, number of callees and the two
 * sides' totals and selves, so that the script lays the tree out by
 * another width (flame.js's relayout, the same sums as diff_build) and
 * makes the diff table from the whole tree; and the options it needs.
 * Whole numbers below 2^53 (the usual case) go as strings of VLQ digits,
 * as svg.c writes the counts; others as JSON arrays.
 */
void
diff_data(const struct diff *d, const uint32_t *dn, const uint32_t *rank,
    const struct svg_opts *o)
{
	static const char *const key[4] = { "b", "a", "sb", "sa" };
	static const char *const wname[3] = { "after", "before", "max" };
	size_t n = d->nfr;

	out_fmt(",\n\"diff\":{\"norm\":%d,\"tb\":%.17g,\"ta\":%.17g,"
	    "\"w\":\"%s\",\"cb\":%d,\"clamp\":%.17g,\"minw\":%.17g,"
	    "\"pct\":%d,\"sw\":%d,\"nm\":\"", d->o.normalize,
	    (double)d->tbefore, (double)d->tafter, wname[d->o.width],
	    d->o.palette == DIFF_CB, d->o.clamp, o->minwidth,
	    o->minwidth_pct != 0, o->sort_weight != 0);
	for (size_t i = 0; i < n; i++)
		svg_vlq(rank[dn[i]]);
	out_str("\",\"k\":\"");
	for (size_t i = 0; i < n; i++)
		svg_vlq(d->nkids[i]);
	out_char('"');
	for (int k = 0; k < 4; k++) {
		int whole = 1;

		for (size_t i = 0; i < n && whole; i++) {
			const struct diff_frame *x = &d->fr[i];
			long double v = k == 0 ? x->before : k == 1 ? x->after :
			    k == 2 ? x->sbefore : x->safter;

			whole = v < 0x1p53L && (long double)(uint64_t)v == v;
		}
		out_fmt(whole ? ",\"%s\":\"" : ",\"%s\":[", key[k]);
		for (size_t i = 0; i < n; i++) {
			const struct diff_frame *x = &d->fr[i];
			long double v = k == 0 ? x->before : k == 1 ? x->after :
			    k == 2 ? x->sbefore : x->safter;

			if (whole) {
				svg_vlq((uint64_t)v);
				continue;
			}
			if (i)
				out_char(',');
			if (v == floorl(v) && v < 18446744073709551616.0L)
				out_u64((uint64_t)v);
			else
				out_fmt("%.17g", (double)v);
		}
		out_char(whole ? '"' : ']');
	}
	out_char('}');
}
