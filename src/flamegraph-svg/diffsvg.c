/*
 * diffsvg: a --diff graph's own parts of the SVG and of its script's
 * data, from diff.c's merged tree: see diffsvg.h.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/jsonesc.h"
#include "../lib/num.h"
#include "../lib/out.h"
#include "../lib/xmlesc.h"
#include "diffsvg.h"
#include "scriptdata.h"

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
 * as scriptdata.c writes the counts; others as JSON arrays.
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
		sd_vlq(rank[dn[i]]);
	out_str("\",\"k\":\"");
	for (size_t i = 0; i < n; i++)
		sd_vlq(d->nkids[i]);
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
				sd_vlq((uint64_t)v);
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
