/*
 * scriptdata: the flame graph's data for its script, one JSON block:
 * see scriptdata.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/jsonesc.h"
#include "../lib/out.h"
#include "../lib/sort.h"
#include "../lib/xmlesc.h"
#include "color.h"
#include "diffsvg.h"
#include "flame_js.h"
#include "scriptdata.h"

static void
json_key_str(const char *key, const char *s)
{
	out_fmt(",\"%s\":", key);
	json_out_xml(s, strlen(s));
}

/* Whether JSON carries s[0..n) as it is: no byte that json_body replaces. */
static int
json_plain(const char *s, size_t n)
{
	size_t i = 0, k;
	unsigned cp;

	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = utf8_char(s + i, n - i, &cp)) == 0 || !xml_allowed(cp))
			return 0;
		i += k;
	}
	return 1;
}

/*
 * Whether flame.js computes the colour c (in jdata's colors) of the name
 * s[0..n) from the name as the data has it, the default palette and
 * shade (color.c): 0 if from the name, 1 to 4 if from the name and the
 * annotation it lost (_[k], _[w], _[i], _[j]), -1 if not at all.
 */
static int
color_computed(const struct jdata *d, const char *s, size_t n, uint32_t c)
{
	const unsigned char *rgb = (const unsigned char *)intern_str(d->colors, c);
	size_t len = flame_shown(s, n);
	struct rgb h = color_frame(PAL_HOT, SHADE_NAME, s, len);

	if (!json_plain(s, len))
		return -1;
	if (h.r == rgb[0] && h.g == rgb[1] && h.b == rgb[2])
		return 0;
	h = color_frame(PAL_HOT, SHADE_NAME, s, n);
	if (len < n && h.r == rgb[0] && h.g == rgb[1] && h.b == rgb[2])
		return 1 + (int)(strchr("kwij", s[n - 2]) - "kwij");
	return -1;
}

/*
 * A whole number as base-64 digits, five bits a digit, lowest first, the
 * digits of 32 and up saying that more follow (source maps' VLQ, without
 * a sign): a count of 1 to 31 is one character.
 */
static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void
sd_vlq(uint64_t v)
{
	do {
		unsigned dg = (unsigned)(v & 31);

		v >>= 5;
		out_char(b64[dg | (v ? 32 : 0)]);
	} while (v);
}

/* Frames in the order of start, then depth: a caller before its callees. */
static int
start_cmp(const void *pa, const void *pb, const void *ctx)
{
	const struct frame *fr = ctx, *a = &fr[*(const size_t *)pa],
	    *b = &fr[*(const size_t *)pb];

	if (a->stime != b->stime)
		return a->stime < b->stime ? -1 : 1;
	return (a->depth > b->depth) - (a->depth < b->depth);
}

/*
 * Whether pre (flame.h) lists frames fr[0..n) strictly in start_cmp's
 * order, so in the one order a sort gives: not when zero counts made
 * ties of start and depth, which the sort orders by where frames are.
 */
const uint32_t *
sd_pre_ordered(const struct frame *fr, size_t n, const uint32_t *pre)
{
	for (size_t i = 1; pre && i < n; i++) {
		size_t a = pre[i - 1], b = pre[i];

		if (start_cmp(&a, &b, fr) >= 0)
			return NULL;
	}
	return pre;
}

/*
 * The function table (table.js) of frames fr[0..n), t[2 * name id] the
 * self and t[2 * name id + 1] the total: what stackcollapse --to=table
 * prints, the root left out.  A frame's parent is the last one before it
 * of a lower depth, in start_cmp's order; a frame under one of its name
 * adds nothing to the total (open counts them).  pre, when not NULL, is
 * that order already (pre_ordered), so no sort.
 */
long double *
sd_name_table(const struct frame *fr, size_t n, size_t nnames,
    const uint32_t *pre)
{
	size_t *ix = xmalloc((n + 1) * sizeof *ix), *st = xmalloc((n + 1) * sizeof *st), k = 0;
	uint32_t *open = xmalloc((nnames + 1) * sizeof *open);
	long double *t = xmalloc((2 * nnames + 1) * sizeof *t);

	memset(open, 0, (nnames + 1) * sizeof *open);
	for (size_t i = 0; i < 2 * nnames; i++)
		t[i] = 0;
	for (size_t i = 0; i < n; i++)
		ix[i] = pre ? pre[i] : i;
	if (!pre)
		sort_ctx(ix, n, sizeof *ix, start_cmp, fr);
	for (size_t i = 0; i < n; i++) {
		const struct frame *a = &fr[ix[i]];
		long double v = a->etime - a->stime;

		while (k && fr[st[k - 1]].depth >= a->depth)
			open[fr[st[--k]].name]--;
		if (a->depth == 0)
			continue;
		if (k)
			t[2 * fr[st[k - 1]].name] -= v;
		t[2 * a->name] += v;
		if (!open[a->name]++)
			t[2 * a->name + 1] += v;
		st[k++] = ix[i];
	}
	free(open);
	free(st);
	free(ix);
	return t;
}

/* Whether the table's fix (write_fix) is whole, so written as VLQ. */
static int
fix_whole(const long double *fix, size_t nnames)
{
	for (size_t i = 0; i < 2 * nnames; i++)
		if (fix[i] != floorl(fix[i]) || fabsl(fix[i]) >= 0x1p52L)
			return 0;
	return 1;
}

/*
 * What the frames left out of the data (narrower than --minwidth) add to
 * the table that table.js computes from the others: for each name with
 * something to add, in the order of the names, how many names were
 * skipped, then self and total; as VLQ (self zigzag: twice its size,
 * plus one if below zero) in units of the frames' unit (write_data) when
 * whole, else as numbers of 15 digits, which table.js rounds to the
 * decimals of the counts.  In units, a system-wide graph's fix is a
 * quarter of what it was.
 */
static void
write_fix(const struct jdata *d, const uint32_t *ord, size_t nnames,
    uint64_t unit)
{
	const long double *fix = d->fix;
	size_t i, last = 0;
	int whole = fix_whole(fix, nnames);

	out_str(whole ? ",\n\"tfix\":\"" : ",\n\"tfix\":[");
	for (i = 0; i < nnames; i++) {
		long double s = fix[2 * ord[i]], t = fix[2 * ord[i] + 1];

		if (s == 0 && t == 0)
			continue;
		if (whole) {
			sd_vlq(i - last);
			sd_vlq(s < 0 ? (uint64_t)-s / unit * 2 + 1 :
			    (uint64_t)s / unit * 2);
			sd_vlq((uint64_t)t / unit);
		} else {
			out_fmt("%s%zu,%.15Lg,%.15Lg", last ? "," : "", i - last,
			    s, t);
		}
		last = i + 1;
	}
	out_str(whole ? "\"" : "]");
}

/* The greatest common divisor of g and v, 0 being divisible by all. */
static uint64_t
gcd(uint64_t g, uint64_t v)
{
	uint64_t r;

	/* most counts are a multiple already: one division */
	if (g && v % g == 0)
		return g;
	for (; v; v = r) {
		r = g % v;
		g = v;
	}
	return g;
}

/* The names of a model, and the first 8 bytes of each as a number. */
struct keyed {
	const struct intern *names;
	const uint64_t *key;
};

static int
cmp_keyed(const void *pa, const void *pb, const void *ctx)
{
	const struct keyed *k = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (k->key[a] != k->key[b])
		return k->key[a] < k->key[b] ? -1 : 1;
	return intern_cmp(k->names, a, b);
}

/*
 * ids[0..n) sorted as intern_sort sorts them, their first 8 bytes
 * compared first as one number (big-endian, zeros after a short name),
 * which orders them as memcmp would where they differ: most pairs of
 * names, without memcmp's call (the sort was a third of write_data).
 */
static void
sort_names(const struct intern *names, uint32_t *ids, size_t n)
{
	uint64_t *key = xmalloc((n + 1) * sizeof *key);
	struct keyed k = { names, key };

	for (size_t i = 0; i < n; i++) {
		const unsigned char *s = (const unsigned char *)intern_str(names,
		    (uint32_t)i);
		uint32_t len = intern_len(names, (uint32_t)i);
		uint64_t v = 0;

		for (uint32_t b = 0; b < 8; b++)
			v = v << 8 | (b < len ? s[b] : 0);
		key[i] = v;
	}
	sort_ctx(ids, n, sizeof *ids, cmp_keyed, &k);
	free(key);
}

/*
 * The frames as data, for the script: the static frames (flamesvg.c)
 * are the picture for viewers without scripts, and the script reads
 * nothing from them.  Per row (a depth, top to bottom as drawn),
 * frames in order of start: the gap from the left neighbour's end (0 for
 * most), the count, and the name and colour as indexes into tables.
 * Names are as the titles show them (no _[k] annotation), and a name's
 * --nameattr title and link are kept by name, so that search, zoom and
 * copy see the function's name.
 */
static void
write_data(const struct flame *f, const struct svg_opts *o,
    const struct jdata *d, const char *label_y)
{
	/* --diff: the frames are diff.c's data, which has every node */
	size_t n = f->diff ? 0 : f->nframes, nnames = intern_count(d->names), i, k;
	uint32_t row, *ncolor = xmalloc((nnames + 1) * sizeof *ncolor);
	uint32_t *ord = xmalloc((nnames + 1) * sizeof *ord);
	uint32_t *rank = xmalloc((nnames + 1) * sizeof *rank);
	const char *prev = NULL;
	size_t prevlen = 0;
	uint64_t g = 0;
	long double unit = 1;
	uint32_t ncolors = intern_count(d->colors), nused = 0, *used, *table;
	int bycolor = 0, whole = 1;
	char b[32];

	for (i = 0; i < nnames; i++) {
		ncolor[i] = UINT32_MAX;
		ord[i] = (uint32_t)i;
	}
	sort_names(d->names, ord, nnames);
	for (i = 0; i < nnames; i++)
		rank[ord[i]] = (uint32_t)i;
	for (i = 0; i < n; i++) {
		uint32_t *c = &ncolor[rank[d->fd[i].name]];

		if (*c != UINT32_MAX && *c != d->fd[i].color)
			bycolor = 1;
		*c = d->fd[i].color;
	}
	for (i = 0; i < n && whole; i++)
		whole = d->fd[i].gap == floorl(d->fd[i].gap) &&
		    d->fd[i].n == floorl(d->fd[i].n) && d->fd[i].gap < 0x1p52L &&
		    d->fd[i].n < 0x1p52L;
	for (i = 0; i < n && whole && g != 1; i++) {
		g = gcd(g, (uint64_t)d->fd[i].gap);
		g = gcd(g, (uint64_t)d->fd[i].n);
	}
	/* the table's fix is written in the same unit (write_fix) */
	if (whole && d->fix && fix_whole(d->fix, nnames))
		for (i = 0; i < 2 * nnames && g != 1; i++)
			g = gcd(g, (uint64_t)fabsl(d->fix[i]));
	if (g > 1)
		unit = (long double)g;
	/*
	 * By name, the colours the script computes from the name alone are
	 * left out.  The others are exceptions, written as 0 to 3 for a
	 * colour it computes from the name and its lost annotation, or 4 on
	 * for the table, where those and only those colours go, numbered
	 * anew (used; table the other way).
	 */
	used = xmalloc((ncolors + 1) * sizeof *used);
	table = xmalloc((ncolors + 1) * sizeof *table);
	for (i = 0; i < ncolors; i++)
		used[i] = table[i] = bycolor ? (uint32_t)i : UINT32_MAX;
	if (bycolor)
		nused = ncolors;
	for (i = 0; !bycolor && i < nnames; i++) {
		uint32_t c = ncolor[i];
		int how;

		if (c == UINT32_MAX)
			continue;
		how = color_computed(d, intern_str(d->names, ord[i]),
		    intern_len(d->names, ord[i]), c);
		if (how >= 0)
			ncolor[i] = how ? (uint32_t)how - 1 : UINT32_MAX;
		else {
			if (used[c] == UINT32_MAX) {
				table[nused] = c;
				used[c] = nused++;
			}
			ncolor[i] = 4 + used[c];
		}
	}
	out_str("{\"total\":");
	svg_count(d->total);
	out_str(",\"unit\":");
	svg_count(unit);
	out_fmt(",\"factor\":%.17g,\"negate\":%d,\"fh\":%s,"
	    "\"label\":%s", o->factor, o->negate != 0,
	    svg_short1(b, d->fh), label_y);
	json_key_str("nametype", o->nametype);
	json_key_str("countname", o->countname);
	/*
	 * The names sorted, each written as the length of the prefix it
	 * shares with the one before (a VLQ, see out_vlq) and the rest:
	 * symbols share long prefixes (namespaces, classes, modules), and
	 * this is where the data is largest.  Only a prefix of ASCII is
	 * shared, so that its length is the same in bytes and in the
	 * script's UTF-16 units.  One string, the names ended by ';', which
	 * no name has (it parts a stack's frames): a JSON array would cost
	 * two quotes a name more.
	 */
	out_str(",\n\"names\":\"");
	for (i = 0; i < nnames; i++) {
		const char *s = intern_str(d->names, ord[i]);
		size_t len = flame_shown(s, intern_len(d->names, ord[i])), p;

		for (p = 0; p < len && p < prevlen && s[p] == prev[p] &&
		    (unsigned char)s[p] < 0x80; p++)
			;
		if (prev != NULL)
			out_char(';');
		sd_vlq(p);
		json_out_xml_body(s + p, len - p);
		prev = s;
		prevlen = len;
	}
	/*
	 * The colours the script cannot compute, in their new order: one
	 * string, each its 24 bits in four base-64 digits, highest first.
	 */
	out_str("\",\n\"colors\":\"");
	for (i = 0; i < nused; i++) {
		const unsigned char *c = (const unsigned char *)intern_str(d->colors,
		    table[i]);
		uint32_t v = (uint32_t)c[0] << 16 | (uint32_t)c[1] << 8 | c[2];

		for (k = 4; k-- > 0; )
			out_char(b64[v >> 6 * k & 63]);
	}
	/* The rows' tops: the root's, and the step to the next row. */
	out_fmt("\",\n\"rowy\":[%s,", svg_pnum(b, d->y0));
	out_fmt("%s],\n\"rowlen\":[", svg_pnum(b, d->dy));
	for (row = 0, i = 0; row < d->rows; row++) {
		for (k = 0; i < n && f->frames[i].depth == row; i++)
			k++;
		out_fmt("%s%zu", row ? "," : "", k);
	}
	/*
	 * Counts in units of their common divisor: profilers that sample by
	 * period (perf's cpu-clock: 1001001 ns) make every count a multiple
	 * of it, and the numbers shrink to a digit or two.  Whole counts go
	 * as one VLQ string, a frame's count times two, plus one if a gap
	 * follows (most frames have none); others as two JSON arrays.
	 */
	if (whole) {
		out_str("],\n\"n\":\"");
		for (i = 0; i < n; i++) {
			uint64_t gap = (uint64_t)(d->fd[i].gap / unit);

			sd_vlq((uint64_t)(d->fd[i].n / unit) * 2 + (gap != 0));
			if (gap)
				sd_vlq(gap);
		}
		out_char('"');
	} else {
		out_str("],\n\"n\":[");
		for (i = 0; i < n; i++) {
			if (i)
				out_char(',');
			svg_count(d->fd[i].n);
		}
		out_str("],\n\"gap\":[");
		for (i = 0; i < n; i++) {
			if (i)
				out_char(',');
			svg_count(d->fd[i].gap);
		}
		out_char(']');
	}
	out_str(",\n\"name\":\"");
	for (i = 0; i < n; i++)
		sd_vlq(rank[d->fd[i].name]);
	/*
	 * A colour by name where every frame of a name has its name's (all
	 * but --random and differential graphs): for the exceptions only,
	 * the names skipped since the last one and how (above).
	 */
	out_str(bycolor ? "\",\n\"color\":\"" : "\",\n\"ncolor\":\"");
	for (i = 0, k = 0; i < (bycolor ? n : nnames); i++) {
		if (bycolor)
			sd_vlq(used[d->fd[i].color]);
		else if (ncolor[i] != UINT32_MAX) {
			sd_vlq(i - k);
			sd_vlq(ncolor[i]);
			k = i + 1;
		}
	}
	out_char('"');
	free(table);
	free(used);
	free(ncolor);
	if (f->differential) {
		out_str(",\n\"delta\":[");
		for (i = 0; i < n; i++) {
			if (i)
				out_char(',');
			if (isnan(d->fd[i].delta))
				out_str("null");
			else
				out_fmt("%.17g", d->fd[i].delta);
		}
		out_char(']');
	}
	if (o->pal == PAL_HOTCOLD && !f->differential) {
		out_str(",\n\"off\":[");
		for (i = 0; i < n; i++)
			out_fmt("%s%.17g", i ? "," : "", d->fd[i].off);
		out_char(']');
	}
	if (d->fix)
		write_fix(d, ord, nnames, (uint64_t)unit);
	if (f->diff)
		diff_data(f->diff, d->dnames, rank, o);
	out_str(",\n\"attrs\":{");
	for (i = 0, k = 0; d->attrs && i < nnames; i++) {
		const struct frame_attrs *a = d->attrs[ord[i]];

		if (!a || (!a->title && !a->href))
			continue;
		out_fmt("%s\"%zu\":{\"target\":", k++ ? "," : "", i);
		json_out_xml(a->target ? a->target : "_top",
		    strlen(a->target ? a->target : "_top"));
		if (a->title)
			json_key_str("title", a->title);
		if (a->href)
			json_key_str("href", a->href);
		out_char('}');
	}
	out_str("}}");
	free(rank);
	free(ord);
}

/*
 * Whether graph f's script needs part p of the script (js2c.awk): the
 * files that only some graphs use are left out of the others (a plain
 * graph's script is a fifth smaller without them), and only those.
 */
static int
script_needs(const struct flame *f, const struct svg_opts *o,
    const struct jdata *d, int p)
{
	switch (p) {
	case flame_js_diffview:
		return f->diff != NULL;
	case flame_js_units:
		return strcmp(o->countname, "samples") != 0;
	case flame_js_delta:
		return f->differential;
	case flame_js_hotcold:
		return o->pal == PAL_HOTCOLD && !f->differential;
	case flame_js_frac:
		return d->frac;
	case flame_js_links:
		return o->nameattr != NULL;
	default:
		return 1;
	}
}

void
sd_script_function(void)
{
	unsigned char take[flame_js_nparts];

	for (int p = 0; p < flame_js_nparts; p++)
		take[p] = p != flame_js_delta && p != flame_js_hotcold &&
		    p != flame_js_frac && p != flame_js_links;
	out_str("function flameGraph(me) {\n");
	svg_script_parts(flame_js_part, flame_js_nparts, take);
	out_str("}\n");
}

/* Whether a frame's count (before layout leaves some out) has a fraction. */
int
sd_fractional(const struct flame *f)
{
	size_t i;

	for (i = 0; i < f->nframes; i++)
		if (f->frames[i].stime != floorl(f->frames[i].stime) ||
		    f->frames[i].etime != floorl(f->frames[i].etime))
			return 1;
	return 0;
}

/* The model (write_data) as JSON, and the parts of the script f needs. */
void
sd_write(const struct flame *f, const struct svg_opts *o,
    const struct jdata *d, const char *id, const char *label_y)
{
	unsigned char take[flame_js_nparts];

	out_fmt("<script type=\"application/json\" id=\"%s-data\">", id);
	write_data(f, o, d, label_y);
	out_str("</script>\n");
	for (int p = 0; p < flame_js_nparts; p++)
		take[p] = (unsigned char)script_needs(f, o, d, p);
	svg_script(flame_js_part, flame_js_nparts, take);
}

/*
 * Stage 5: what the table (write_fix) misses of all, the table of every
 * frame, in kept, layout's table of the frames the data keeps (NULL when
 * none was left out), by name id in m, which gets the names only
 * left-out frames have; NULL if nothing.  Frees all and kept.
 */
long double *
sd_table_fix(const struct flame *f, struct model *m, long double *all,
    long double *kept)
{
	size_t n = intern_count(&f->names), i;
	long double *fix = NULL;

	if (!kept) {
		free(all);
		return NULL;
	}
	for (i = 0; i < 2 * n; i++)
		kept[i] = all[i] - kept[i];
	for (i = 0; i < n; i++) {
		uint32_t id;
		int isnew;

		if (kept[2 * i] == 0 && kept[2 * i + 1] == 0)
			continue;
		if (m->to[i]) {		/* drawn: write_frames has it */
			id = m->to[i] - 1;
			isnew = 0;
		} else		/* the same bytes: flame.names' hash */
			id = intern_put_h(&m->names,
			    intern_str(&f->names, (uint32_t)i),
			    intern_len(&f->names, (uint32_t)i),
			    f->names.ents[i].hash, &isnew);
		if (isnew) {
			m->attrs = xgrow(m->attrs, &m->attrs_cap, id + 1,
			    sizeof *m->attrs);
			m->attrs[id] = NULL;
		}
		if (!fix) {
			fix = xmalloc((2 * n + 1) * sizeof *fix);
			for (size_t k = 0; k < 2 * n; k++)
				fix[k] = 0;
		}
		fix[2 * id] = kept[2 * i];
		fix[2 * id + 1] = kept[2 * i + 1];
	}
	free(kept);
	free(all);
	return fix;
}

/*
 * --diff: the names of the tree's nodes, drawn or not (diff.c's data has
 * them all), by id in m, which gets those it lacks.
 */
uint32_t *
sd_diff_names(const struct flame *f, struct model *m)
{
	const struct diff *d = f->diff;
	uint32_t *dn = xmalloc((d->nfr + 1) * sizeof *dn);

	for (size_t k = 0; k < d->nfr; k++) {
		int isnew;

		dn[k] = intern_put(&m->names, intern_str(&f->names, d->name[k]),
		    intern_len(&f->names, d->name[k]), &isnew);
		if (isnew) {
			m->attrs = xgrow(m->attrs, &m->attrs_cap, dn[k] + 1,
			    sizeof *m->attrs);
			m->attrs[dn[k]] = NULL;
		}
	}
	return dn;
}
