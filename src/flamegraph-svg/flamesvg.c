/*
 * flamesvg: a flame graph as one self-contained SVG: see flamesvg.h.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/num.h"
#include "../lib/out.h"
#include "../lib/xmlesc.h"
#include "color.h"
#include "diff.h"
#include "diffsvg.h"
#include "flamesvg.h"
#include "hotcold.h"
#include "scriptdata.h"

enum { XPAD = 10, FRAMEPAD = 1 };

/* svg_trim0_n's string, from a num_fmt_fixed string of n bytes */
static void
put_trim0(const char *buf, size_t n)
{
	const char *s = svg_trim0_n(buf, &n);

	out_write(s, n);
}

/* svg_short1's string, with no strlen */
static void
put_short1(double v)
{
	char b[32];

	put_trim0(b, num_fmt_fixed(b, v, 1));
}

/*
 * A whole count with thousands separators, as put_digits writes its
 * digits: three digits at a time from the right, with no string of them
 * first (the two passes were a quarter of a frame's title).
 */
static void
put_thousands(uint64_t v)
{
	char b[32], *p = b + sizeof b;

	while (v >= 1000) {
		unsigned r = (unsigned)(v % 1000);

		v /= 1000;
		p -= 4;
		p[0] = ',';
		p[1] = (char)('0' + r / 100);
		p[2] = (char)('0' + r / 10 % 10);
		p[3] = (char)('0' + r % 10);
	}
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	out_write(p, (size_t)(b + sizeof b - p));
}

/* "%.0f" with thousands separators, as flamegraph.pl's titles have them. */
static void
put_digits(const char *digits)
{
	size_t n = strlen(digits), i, lead = 0;

	if (digits[0] == '-') {
		out_char('-');
		digits++;
		n--;
	}
	lead = n % 3 ? n % 3 : 3;
	for (i = 0; i < n; i++) {
		if (i && (i - lead) % 3 == 0 && i >= lead)
			out_char(',');
		out_char(digits[i]);
	}
}

static void
put_color(struct rgb c)
{
	static const char hex[] = "0123456789abcdef";
	char b[7] = { '#', hex[(c.r >> 4) & 15], hex[c.r & 15],
	    hex[(c.g >> 4) & 15], hex[c.g & 15], hex[(c.b >> 4) & 15],
	    hex[c.b & 15] };

	out_write(b, sizeof b);
}

/*
 * The value of a num_fmt_fixed string with one decimal: the same double
 * strtod would give (an exact integer over 10, correctly rounded).
 */
static double
fixed1_value(const char *s)
{
	int neg = *s == '-';
	long long n = 0;

	for (s += neg; *s; s++)
		if (*s != '.')
			n = n * 10 + (*s - '0');
	return neg ? -(double)n / 10.0 : (double)n / 10.0;
}

/*
 * v rounded as num_fmt_fixed rounds it to one decimal, the value of its
 * string (fixed1_value) without the string, or, where num_fmt_fixed has
 * no fast path, of its string: s, v's already written, or written here.
 */
static double
fixed1_read(const char *s, double v)
{
	char b[32];
	uint64_t n;

	if (num_fixed_scaled(v, 1, &n) == 0)
		return v < 0 ? -(double)n / 10.0 : (double)n / 10.0;
	if (!s) {
		num_fmt_fixed(b, v, 1);
		s = b;
	}
	return fixed1_value(s);
}

/* Where the frames go: the scale and the rows. */
struct geom {
	long double timemax;	/* the total, or --total if above it */
	double wpt;		/* pixels per unit of time */
	double fh, ypad1, ypad2, height;
	char label_y[32];	/* a label's offset in its row */
	long double *kept;	/* name_table of the frames kept, if any left out */
	/* --countname's length, and whether it has nothing to escape */
	size_t cnlen;
	int cnplain;
};

long double
svg_narrow(long double total, const void *ctx)
{
	const struct svg_opts *o = ctx;
	long double timemax = o->total > total ? o->total : total;
	double wpt = (double)((o->width - 2 * XPAD) / timemax);

	return o->minwidth_pct ? timemax * o->minwidth / 100 : o->minwidth / wpt;
}

/*
 * Stage 1: leave out the frames narrower than --minwidth, order the
 * others as they are drawn, and size the picture.  Returns the number
 * left out.
 */
static size_t
layout(struct flame *f, const struct svg_opts *o, struct geom *g)
{
	double fs = o->fontsize;
	long double minwidth_time;
	uint32_t depthmax = 0, *to = f->pre ? xmalloc((f->nframes + 1) *
	    sizeof *to) : NULL;
	size_t i, k, kept = 0, elided, nnames = intern_count(&f->names);

	g->fh = o->frameheight;
	g->cnlen = strlen(o->countname);
	g->cnplain = xml_plain(o->countname, g->cnlen);
	g->ypad1 = fs * 3;
	g->ypad2 = fs * 2 + 10;
	g->timemax = f->total;
	if (o->total > g->timemax)
		g->timemax = o->total;
	g->wpt = (double)((o->width - 2 * XPAD) / g->timemax);
	minwidth_time = svg_narrow(f->total, o);
	for (i = 0; i < f->nframes; i++) {
		struct frame *fr = &f->frames[i];

		if (to)
			to[i] = UINT32_MAX;
		if (fr->etime - fr->stime < minwidth_time)
			continue;
		if (to)
			to[i] = (uint32_t)kept;
		f->frames[kept++] = *fr;
		if (fr->depth > depthmax)
			depthmax = fr->depth;
	}
	/* pre (flame.h) of the frames kept, for their table before the sort */
	for (i = 0, k = 0; to && i < f->nframes; i++)
		if (to[f->pre[i]] != UINT32_MAX)
			f->pre[k++] = to[f->pre[i]];
	free(to);
	elided = f->nframes - kept + f->nelided;
	f->nframes = kept;
	g->kept = NULL;
	if (!f->diff && elided && !o->sort_weight &&
	    sd_pre_ordered(f->frames, kept, f->pre))
		g->kept = sd_name_table(f->frames, kept, nnames, f->pre);
	/* --diff: room for the rows of every width the script may draw */
	if (f->diff && f->diff->depth > depthmax)
		depthmax = f->diff->depth;
	/* a --diff graph's frames are in this order (diff_build) */
	if (!f->diff)
		flame_sort(f);
	if (o->sort_weight)
		flame_sort_weight(f);
	/*
	 * Else (--sort=weight moved them, or zero counts tied starts) the
	 * sort, on the frames as drawn: the sums add in the order they did.
	 */
	if (!f->diff && elided && !g->kept)
		g->kept = sd_name_table(f->frames, kept, nnames, NULL);
	g->height = (depthmax + 1) * g->fh + g->ypad1 + g->ypad2;
	if (o->subtitle && *o->subtitle)
		g->height += fs * 2;
	/*
	 * A --diff graph has its legend on a row of its own, under the
	 * subtitle; flamegraph.pl draws an icicle's first row over the
	 * subtitle, this one starts below both.
	 */
	if (f->diff || o->pal == PAL_HOTCOLD) {
		g->height += fs * 2;
		if (o->inverted)
			g->ypad1 += fs * 4;
	}
	svg_pnum(g->label_y, 3 + (o->frameheight - FRAMEPAD) / 2);
	return elided;
}

/* Stage 2, an id from the content: equal graphs, equal ids; else distinct. */
static void
content_id(const struct flame *f, char *id)
{
	uint64_t h = SVG_ID_SEED;

	for (size_t i = 0; i < f->nframes; i++) {
		const struct frame *fr = &f->frames[i];
		double v[3] = { (double)fr->stime, (double)fr->etime, fr->depth };

		/* the name's hash as flame.names has it: not hashed again */
		h = svg_id_add_h(h, f->names.ents[fr->name].hash, v, sizeof v);
	}
	svg_id(id, "fg", h);
}

/* Stage 3: the head, with the style that every frame shares. */
static void
write_head(const struct svg_opts *o, const struct geom *g, const char *id)
{
	char b[32];

	/* (the toolbar and flamegraph-svg(1) tell how to use it: every byte
	 * counts against flamegraph.pl's size, issue 17) */
	svg_head(o, id, g->height, "", NULL);
	/* What every frame shares is said once: height and corners. */
	out_fmt("#%s .f rect{height:%spx;rx:2px;ry:2px}\n", id,
	    svg_short1(b, o->frameheight - FRAMEPAD));
	out_fmt("#%s .f text{transform:translateY(%spx)}\n", id, g->label_y);
	out_fmt("#%s .f>g>:hover rect{stroke:#000;stroke-width:.5;cursor:pointer}\n", id);
	svg_head_end(o, id, NULL, o->fontsize * 4);
}

/*
 * A title's count and what it counts: the whole count u with its
 * thousands separators, or else the digits in samples.
 */
static void
put_count(const struct svg_opts *o, const struct geom *g, int whole,
    uint64_t u, const char *samples)
{
	if (whole)
		put_thousands(u);
	else
		put_digits(samples);
	out_char(' ');
	if (g->cnplain)
		out_write(o->countname, g->cnlen);
	else
		xml_out(o->countname, g->cnlen);
}

/*
 * A frame's <title>: its attribute's, or name, count, share and delta,
 * or name and --diff's (diff.c).
 */
static void
frame_title(const struct flame *f, const struct svg_opts *o,
    const struct geom *g, const struct frame *fr, long double etime,
    const char *name, size_t shown, int root, const struct frame_attrs *attrs)
{
	/* "%.0Lf" of any long double: --factor may be up to 1e308 */
	char samples[LDBL_MAX_10_EXP + 3], b[32];
	long double count = (etime - fr->stime) * o->factor;
	/* the count as Perl reads the digits, whole ones without strtod */
	double read;
	/* Whole counts, the usual case, skip float formatting. */
	int whole = count == floorl(count) && count < 18446744073709551616.0L;
	uint64_t u = whole ? (uint64_t)count : 0;

	if (whole)
		read = (double)u;	/* rounded to nearest, as strtod */
	else {
		snprintf(samples, sizeof samples, "%.0Lf", count);
		read = strtod(samples, NULL);
	}
	if (attrs && attrs->title) {
		xml_out(attrs->title, strlen(attrs->title));
	} else if (fr->diff) {
		if (root)
			out_str("all");
		else
			xml_out(name, shown);
				diff_title(f->diff, &f->diff->fr[fr->diff - 1], o);
	} else if (root) {
		out_str("all (");
		put_count(o, g, whole, u, samples);
		out_str(", 100%)");
	} else {
		/*
		 * In double, as Perl computes: 0.095 must round up.  Past
		 * double's range (a --factor near 1e308) that is inf / inf:
		 * the share of the time instead.
		 */
		double all = (double)g->timemax * o->factor;
		double pct = isfinite(all) ? 100 * read / all :
		    (double)(100 * (etime - fr->stime) / g->timemax);

		xml_out(name, shown);
		out_str(" (");
		put_count(o, g, whole, u, samples);
		out_str(", ");
		out_write(b, num_fmt_fixed(b, pct, 2));
		out_char('%');
		if (o->pal == PAL_HOTCOLD)
			hotcold_title(fr);
		if (fr->has_delta) {
			/* + 0: Perl's integer 0 negates to 0, not -0. */
			double d = (double)(o->negate ? -fr->delta :
			    fr->delta) + 0.0;

			if (d == 0)
				d = 0;
			num_fmt_fixed(b, 100 * d / ((double)g->timemax *
			    o->factor), 2);
			out_str("; ");
			if (d > 0)
				out_char('+');
			out_str(b);
			out_char('%');
		}
		out_char(')');
	}
}

/* Above so many frames, the static picture's narrowest frame, in
 * pixels: see write_frames. */
#define STATIC_ALL_MAX 20000
#define STATIC_MIN_PX 0.1

/* A frame's fill: separators grey, else by delta, palette file or palette. */
static struct rgb
frame_color(const struct flame *f, const struct svg_opts *o,
    const struct frame *fr, const char *name, size_t nlen)
{
	if (nlen == 2 && memcmp(name, "--", 2) == 0)
		return (struct rgb){ 160, 160, 160 };
	if (nlen == 1 && name[0] == '-')
		return (struct rgb){ 200, 200, 200 };
	if (fr->has_delta)
		return color_delta(fr->delta, f->maxdelta, o->negate);
	if (fr->diff)
		return diff_color(f->diff, &f->diff->fr[fr->diff - 1], o->negate);
	if (o->pal == PAL_HOTCOLD)
		return hotcold_color(fr, o->shade, name, nlen);
	if (o->palmap)
		return palmap_get(o->palmap, name, nlen, o->pal, o->shade);
	return color_frame(o->pal, o->shade, name, nlen);
}

/*
 * A frame's label, where three characters fit; never on the root, whose
 * name is "" (flamegraph.pl writes an empty <text>).
 */
static void
frame_label(const struct svg_opts *o, const char *name, size_t shown,
    int root, double x1, double x2)
{
	int chars = (int)((x2 - x1) / (o->fontsize * o->fontwidth));
	size_t total;

	if (chars < 3 || root)
		return;
	total = utf8_count(name, shown);
	/*
	 * The labels' y is a translation in the style sheet.  It slows
	 * Chromium's rendering of the frames by 40%, but only without
	 * scripts: with them, the frames are drawn on a canvas and never
	 * rendered as SVG.
	 */
	out_str("<text x=\"");
	put_short1(x1 + 3);
	out_str("\">");
	if ((size_t)chars < total) {
		xml_out(name, utf8_prefix(name, shown, (size_t)chars - 2));
		out_str("..");
	} else {
		xml_out(name, shown);
	}
	out_str("</text>");
}

/* One frame, for viewers without scripts: link, title, rect, label. */
static struct rgb
write_frame(const struct flame *f, const struct svg_opts *o,
    const struct geom *g, const struct frame *fr, long double etime,
    const struct frame_attrs *attrs)
{
	const char *name = intern_str(&f->names, fr->name);
	size_t nlen = intern_len(&f->names, fr->name);
	size_t shown = flame_shown(name, nlen);
	int root = nlen == 0 && fr->depth == 0, link = attrs && attrs->href;
	double x1 = XPAD + (double)fr->stime * g->wpt;
	double x2 = XPAD + (double)etime * g->wpt, rx1, rx2;
	char x1s[32];
	size_t x1n = num_fmt_fixed(x1s, x1, 1);
	struct rgb c;

	rx1 = fixed1_read(x1s, x1);
	rx2 = fixed1_read(NULL, x2);
	out_str(link ? "<a" : "<g");
	if (link) {
		out_str(" href=\"");
		xml_out(attrs->href, strlen(attrs->href));
		out_str("\" target=\"");
		out_str(attrs->target ? attrs->target : "_top");
		out_char('"');
	}
	if (attrs && attrs->klass) {
		out_str(" class=\"");
		out_str(attrs->klass);
		out_char('"');
	}
	out_str("><title>");
	frame_title(f, o, g, fr, etime, name, shown, root, attrs);
	out_str("</title><rect x=\"");
	put_trim0(x1s, x1n);
	out_str("\" width=\"");
	put_short1(rx2 - rx1);
	out_str("\" fill=\"");
	c = frame_color(f, o, fr, name, nlen);
	put_color(c);
	out_str("\"/>");
	frame_label(o, name, shown, root, x1, x2);
	out_str(link ? "</a>" : "</g>");
	return c;
}

/*
 * Stage 4: the frames, one group per depth moved to its row, so frames
 * carry no y; and the script's model of them in m.  Returns the number
 * of rows.
 */
static uint32_t
write_frames(const struct flame *f, const struct svg_opts *o,
    const struct geom *g, struct model *m)
{
	long double prev_end = 0;
	uint32_t row = UINT32_MAX;
	/*
	 * the colours' ids last seen, by a hash of the colour: most frames'
	 * colour is one seen before, found here without intern_put
	 */
	struct { uint32_t key, id; } seen[256];
	char b[32];

	memset(seen, 0, sizeof seen);
	out_str("<g class=\"f\">");
	for (size_t i = 0; i < f->nframes; i++) {
		const struct frame *fr = &f->frames[i];
		const char *name = intern_str(&f->names, fr->name);
		size_t nlen = intern_len(&f->names, fr->name);
		long double etime = nlen == 0 && fr->depth == 0 ? g->timemax :
		    fr->etime;
		const struct frame_attrs *attrs = o->nameattr ?
		    nameattr_get(o->nameattr, name, nlen) : NULL;
		struct fdata *d = &m->fd[i];
		struct rgb c;
		int isnew;

		if (fr->depth != row) {
			/* The row's top; its height is the style sheet's. */
			double y1 = o->inverted ? g->ypad1 + fr->depth * g->fh :
			    g->height - g->ypad2 - (fr->depth + 1) * g->fh +
			    FRAMEPAD;

			if (row != UINT32_MAX)
				out_str("</g>");
			out_str("\n<g transform=\"translate(0 ");
			out_str(svg_pnum(b, y1));
			out_str(")\">");
			row = fr->depth;
			prev_end = 0;
		}
		d->gap = fr->stime - prev_end;
		d->n = etime - fr->stime;
		d->delta = fr->has_delta ? (double)fr->delta : NAN;
		d->off = o->pal == PAL_HOTCOLD ? (double)fr->off : 0;
		if (m->to[fr->name] == 0) {
			d->name = intern_put_h(&m->names, name, nlen,
			    f->names.ents[fr->name].hash, &isnew);
			m->to[fr->name] = d->name + 1;
			if (isnew) {
				m->attrs = xgrow(m->attrs, &m->attrs_cap,
				    d->name + 1, sizeof *m->attrs);
				m->attrs[d->name] = attrs;
			}
		} else
			d->name = m->to[fr->name] - 1;
		prev_end = etime;
		/*
		 * The picture without scripts cannot zoom: in a large graph a
		 * frame narrower than flamegraph.pl's default --minwidth is
		 * not seen there, and is in the script's data only.  At
		 * --minwidth 0 most of a large graph's frames are so (104,210
		 * of 104,291 under 1 px in a 22,000-stack graph), and Chromium
		 * parsed each before the script ran: 2.2 s to open, 0.32 s
		 * now.  A smaller graph keeps them all, as flamegraph.pl does.
		 */
		if (f->nframes > STATIC_ALL_MAX && fr->depth > 0 &&
		    (etime - fr->stime) * g->wpt < STATIC_MIN_PX)
			c = frame_color(f, o, fr, name, nlen);
		else
			c = write_frame(f, o, g, fr, etime, attrs);
		{
			unsigned char key[3] = { (unsigned char)c.r,
			    (unsigned char)c.g, (unsigned char)c.b };
			/* 1 << 24: a key, where 0 is none */
			uint32_t k = 1u << 24 | (uint32_t)key[0] << 16 |
			    (uint32_t)key[1] << 8 | key[2];
			unsigned h = (k * 0x9e3779b1u) >> 24;

			if (seen[h].key != k) {
				seen[h].key = k;
				seen[h].id = intern_put(&m->colors, key, 3, NULL);
			}
			d->color = seen[h].id;
		}
	}
		out_str(row == UINT32_MAX ? "</g>\n" : "</g>\n</g>\n");
	return row == UINT32_MAX ? 0 : row + 1;
}

/*
 * Write the graph: stages 1 to 5 above, then the details line and the
 * controls, the model and the script (sd_write).
 */
size_t
svg_write(struct flame *f, const struct svg_opts *o)
{
	struct geom g;
	struct model m;
	/* --diff: table.js makes its table from diff.c's data, not these */
	long double *all = f->diff ? NULL : f->table ? f->table :
	    sd_name_table(f->frames, f->nframes, intern_count(&f->names),
	    sd_pre_ordered(f->frames, f->nframes, f->pre)), *fix;
	int frac = sd_fractional(f);
	size_t elided;
	char id[SVG_ID_SIZE], b[32];
	uint32_t rows, *dnames;

	f->table = NULL;	/* all has it now */
	elided = layout(f, o, &g);
	content_id(f, id);
	write_head(o, &g, id);
	if (f->diff)
		diff_legend(f->diff, o, id, o->fontsize * 6, o->negate);
	else if (o->pal == PAL_HOTCOLD)
		hotcold_legend(o, id, o->fontsize * 6);
	m.fd = xmalloc((f->nframes + 1) * sizeof *m.fd);
	intern_init(&m.names);
	intern_init(&m.colors);
	m.attrs = NULL;
	m.attrs_cap = 0;
	m.to = xcalloc(intern_count(&f->names) + 1, sizeof *m.to);
	rows = write_frames(f, o, &g, &m);
	fix = sd_table_fix(f, &m, all, g.kept);
	dnames = f->diff ? sd_diff_names(f, &m) : NULL;
	out_fmt("<text class=\"d\" x=\"%d\" y=\"%s\"> </text>\n", XPAD,
	    svg_pnum(b, g.height - g.ypad2 / 2));
	svg_controls(o, "Reset Zoom", o->width - XPAD - 100,
	    g.height - g.ypad2 / 2);
	{
		struct jdata d = { m.fd, &m.names, &m.colors, m.attrs,
		    o->inverted ? g.ypad1 : g.height - g.ypad2 - g.fh + FRAMEPAD,
		    o->inverted ? g.fh : -g.fh, o->frameheight - FRAMEPAD, rows,
		    g.timemax, fix, dnames, frac };

		sd_write(f, o, &d, id, g.label_y);
	}
	intern_free(&m.names);
	intern_free(&m.colors);
	free(m.attrs);
	free(m.to);
	free(m.fd);
	free(fix);
	free(dnames);
	out_str("</svg>\n");
	return elided;
}
