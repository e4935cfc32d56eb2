/*
 * svg: see svg.h for the design note.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../lib/err.h"
#include "../lib/num.h"
#include "../lib/out.h"
#include "../lib/sort.h"
#include "../lib/xmlesc.h"
#include "color.h"
#include "diff.h"
#include "flame_js.h"
#include "svg.h"

enum { XPAD = 10, FRAMEPAD = 1 };

/*
 * The frames' text is gathered here and handed to out.c a frame at a
 * time: a frame is some twenty pieces of a few bytes, and a call for
 * each (with its strlen and memcpy calls) was a fifth of writing them.
 * fb_flush before anything else writes.
 */
static struct {
	char b[4096];
	size_t n;
} fb;

static void
fb_flush(void)
{
	out_write(fb.b, fb.n);
	fb.n = 0;
}

static inline void
fb_write(const void *p, size_t n)
{
	if (n > sizeof fb.b - fb.n) {
		fb_flush();
		if (n > sizeof fb.b) {
			out_write(p, n);
			return;
		}
	}
	memcpy(fb.b + fb.n, p, n);
	fb.n += n;
}

/* (inlined, a literal's strlen is a constant) */
static inline void
fb_str(const char *s)
{
	fb_write(s, strlen(s));
}

static inline void
fb_char(char c)
{
	if (fb.n == sizeof fb.b)
		fb_flush();
	fb.b[fb.n++] = c;
}

#ifdef __SSE2__
/*
 * Whether the 16 bytes x are all plain: printable ASCII but & < > " '.
 * As signed bytes, those from 0x80 are negative: one comparison finds
 * them and the controls.
 */
static inline int
plain16(__m128i x)
{
	__m128i m = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
	    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('&')),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('<'))),
	    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('>')),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('"'))),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('\'')))));

	return _mm_movemask_epi8(m) == 0;
}
#endif

#ifdef __SSE2__
static inline int
plain_at(const char *p)
{
	return plain16(_mm_loadu_si128((const __m128i *)(const void *)p));
}
#endif

/*
 * Whether s[0..n) has nothing to escape; with SSE2 (every x86-64)
 * sixteen bytes at a time, the last block overlapping the one before; a
 * shorter name as two words or halves that overlap, or three bytes, the
 * rest plain bytes: a byte at a time, with its seven tests, was a
 * quarter of a frame's title.
 */
static int
xml_plain(const char *s, size_t n)
{
	size_t i = 0;

#ifdef __SSE2__
	if (n < 16) {
		uint64_t a, b;
		uint32_t c, d;

		if (n >= 8) {
			memcpy(&a, s, 8);
			memcpy(&b, s + n - 8, 8);
			return plain16(_mm_set_epi64x((long long)b, (long long)a));
		}
		if (n >= 4) {
			memcpy(&c, s, 4);
			memcpy(&d, s + n - 4, 4);
		} else {
			c = n ? (unsigned char)s[0] | (uint32_t)(unsigned char)s[n / 2] << 8 |
			    (uint32_t)(unsigned char)s[n - 1] << 16 | 0x61000000u :
			    0x61616161u;
			d = c;
		}
		return plain16(_mm_set_epi32(0x61616161, 0x61616161, (int)d,
		    (int)c));
	}
	for (; i + 16 < n; i += 16)
		if (!plain_at(s + i))
			return 0;
	return plain_at(s + n - 16);
#else
	while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x80 &&
	    s[i] != '&' && s[i] != '<' && s[i] != '>' && s[i] != '"' &&
	    s[i] != '\'')
		i++;
	return i == n;
#endif
}

/* xml_out's text: a name with nothing to escape, the usual one, as it is. */
static void
fb_xml(const char *s, size_t n)
{
	if (xml_plain(s, n)) {
		fb_write(s, n);
		return;
	}
	fb_flush();
	xml_out(s, n);
}

/*
 * A "%0.1f" string of *n bytes without its trailing ".0", its length in
 * *n: buf's first bytes, or "0" for what was "-0.0".
 */
static const char *
trim0_n(const char *buf, size_t *n)
{
	if (*n >= 2 && buf[*n - 2] == '.' && buf[*n - 1] == '0')
		*n -= 2;
	if (*n == 2 && buf[0] == '-' && buf[1] == '0') {
		*n = 1;
		return "0";
	}
	return buf;
}

/* trim0_n of a NUL-ended string, in place. */
static const char *
trim0(char *buf)
{
	size_t n = strlen(buf);
	const char *s = trim0_n(buf, &n);

	if (s == buf)
		buf[n] = '\0';
	return s;
}

/*
 * A coordinate rounded as flamegraph.pl rounds it ("%0.1f"), written
 * without a trailing ".0": the same number in fewer bytes.
 */
static const char *
short1(char *buf, double v)
{
	num_fmt_fixed(buf, v, 1);
	return trim0(buf);
}

/* trim0_n's string, from a num_fmt_fixed string of n bytes, to the frames */
static void
fb_trim0(const char *buf, size_t n)
{
	const char *s = trim0_n(buf, &n);

	fb_write(s, n);
}

/* short1's string to the frames, with no strlen */
static void
fb_short1(double v)
{
	char b[32];

	fb_trim0(b, num_fmt_fixed(b, v, 1));
}

/*
 * A number as Perl prints it by default (%.15g); an integer below 1e15,
 * the usual one (a row's y), is its digits, which is what %.15g prints,
 * without snprintf's thousand instructions.
 */
static const char *
pnum(char *buf, double v)
{
	if (v == floor(v) && fabs(v) < 1e15 && !(v == 0 && signbit(v))) {
		size_t k = v < 0;

		buf[0] = '-';
		buf[k + num_fmt_u64(buf + k, (uint64_t)fabs(v))] = '\0';
	} else
		snprintf(buf, 32, "%.15g", v);
	return buf;
}

/* A count as an attribute value: exact for integers, else %.17g. */
static void
out_count(long double v)
{
	if (v == floorl(v) && v < 18446744073709551616.0L)
		out_u64((uint64_t)v);
	else
		out_fmt("%.17g", (double)v);
}

/*
 * A whole count with thousands separators, as fb_samples writes its
 * digits: three digits at a time from the right, with no string of them
 * first (the two passes were a quarter of a frame's title).
 */
static void
fb_thousands(uint64_t v)
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
	fb_write(p, (size_t)(b + sizeof b - p));
}

/* "%.0f" with thousands separators, as flamegraph.pl's titles have them. */
static void
fb_samples(const char *digits)
{
	size_t n = strlen(digits), i, lead = 0;

	if (digits[0] == '-') {
		fb_char('-');
		digits++;
		n--;
	}
	lead = n % 3 ? n % 3 : 3;
	for (i = 0; i < n; i++) {
		if (i && (i - lead) % 3 == 0 && i >= lead)
			fb_char(',');
		fb_char(digits[i]);
	}
}

/* Drop a trailing annotation _[k] _[w] _[i] _[j], as the titles do. */
static size_t
strip_annotation(const char *s, size_t n)
{
	/* (the letters tested one by one: strchr was a call a frame) */
	if (n >= 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' &&
	    (s[n - 2] == 'k' || s[n - 2] == 'w' || s[n - 2] == 'i' ||
	    s[n - 2] == 'j'))
		return n - 4;
	return n;
}

/*
 * A font name inside a CSS string: anything but letters, digits, space,
 * '-' and '_' is written as a CSS escape, so a value cannot end the string
 * or the rule.
 */
static void
svg_css_string(const char *s)
{
	static const char hex[] = "0123456789abcdef";

	out_char('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == ' ' || c == '-' || c == '_') {
			out_char((char)c);
		} else {
			out_char('\\');
			out_char(hex[c >> 4]);
			out_char(hex[c & 15]);
			out_char(' ');
		}
	}
	out_char('"');
}

/*
 * The inside of a JSON string that can sit in XML and in HTML's <script>:
 * < > & as \u escapes, so neither "]]>" nor "</script" can appear, and
 * what XML cannot carry (bytes that are not UTF-8, forbidden code points)
 * as U+FFFD, as xml_out does.
 */
static void
json_body(const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	/* the bytes that need no escape: a table, not seven tests a byte */
	static unsigned char plain[256];
	size_t i = 0, k;
	unsigned cp;

	if (!plain['a'])
		for (unsigned b = 0x20; b < 0x7f; b++)
			plain[b] = strchr("\"\\<>&", (int)b) == NULL;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t j = i;

		/* a run of what needs no escape, written at once */
		while (j < n && plain[(unsigned char)s[j]])
			j++;
		if (j > i) {
			out_write(s + i, j - i);
			i = j;
			continue;
		}
		if (c == '"' || c == '\\') {
			out_char('\\');
			out_char((char)c);
			i++;
		} else if (c < 0x20 || c == '<' || c == '>' || c == '&' ||
		    c == 0x7f) {
			out_str("\\u00");
			out_char(hex[c >> 4]);
			out_char(hex[c & 15]);
			i++;
		} else if ((k = utf8_char(s + i, n - i, &cp)) != 0 &&
		    xml_allowed(cp)) {
			out_write(s + i, k);
			i += k;
		} else {
			out_str("\\ufffd");
			i += k ? k : 1;
		}
	}
}

void
svg_json_str(const char *s, size_t n)
{
	out_char('"');
	json_body(s, n);
	out_char('"');
}

static void
fb_color(struct rgb c)
{
	static const char hex[] = "0123456789abcdef";
	char b[7] = { '#', hex[(c.r >> 4) & 15], hex[c.r & 15],
	    hex[(c.g >> 4) & 15], hex[c.g & 15], hex[(c.b >> 4) & 15],
	    hex[c.b & 15] };

	fb_write(b, sizeof b);
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

void
svg_head(const struct svg_opts *o, const char *id, double height,
    const char *what, const char *bg)
{
	char b1[32], b2[32], b3[32];

	out_str("<?xml version=\"1.0\" standalone=\"no\"?>\n");
	out_fmt("<svg version=\"1.1\" id=\"%s\" width=\"%s\" height=\"%s\" "
	    "viewBox=\"0 0 %s %s\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "data-fontsize=\"%s\" data-fontwidth=\"%.15g\">\n", id,
	    pnum(b1, o->width), pnum(b2, height), b1, b2, pnum(b3, o->fontsize),
	    o->fontwidth);
	out_fmt("<!-- flamegraph-svg (flametools)%s -->\n", what);
	if (o->notes && *o->notes) {
		out_str("<desc>");
		xml_out(o->notes, strlen(o->notes));
		out_str("</desc>\n");
	}
	if (bg == NULL)
		out_fmt("<defs><linearGradient id=\"%s-bg\" y1=\"0\" y2=\"1\" "
		    "x1=\"0\" x2=\"0\"><stop stop-color=\"%s\" offset=\"5%%\"/>"
		    "<stop stop-color=\"%s\" offset=\"95%%\"/></linearGradient>"
		    "</defs>\n", id, o->bg1, o->bg2);
	out_str("<style>\n");
	out_fmt("#%s text{font-family:", id);
	svg_css_string(o->fonttype);
	out_fmt(";font-size:%spx;fill:#000}\n", pnum(b1, o->fontsize));
}

void
svg_head_end(const struct svg_opts *o, const char *id, const char *bg,
    double subtitle_y)
{
	char b1[32];
	double w = o->width, fs = o->fontsize;

	out_fmt("#%s .t{text-anchor:middle;font-size:%spx}\n", id, pnum(b1, fs + 5));
	out_fmt("#%s .st{text-anchor:middle;fill:#a0a0a0}\n", id);
	out_fmt("#%s .b{opacity:.1;cursor:pointer}\n", id);
	out_fmt("#%s .b:hover,#%s .b.on{opacity:1}\n", id, id);
	out_fmt("#%s .u{cursor:pointer}\n", id);
	out_fmt("#%s .hide{display:none}\n", id);
	out_str("</style>\n");
	if (bg == NULL)
		out_fmt("<rect width=\"100%%\" height=\"100%%\" "
		    "fill=\"url(#%s-bg)\"/>\n", id);
	else
		out_fmt("<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n",
		    bg);
	out_fmt("<text class=\"t\" x=\"%d\" y=\"%s\">", (int)(w / 2),
	    pnum(b1, fs * 2));
	xml_out(o->title, strlen(o->title));
	out_str("</text>\n");
	if (o->subtitle && *o->subtitle) {
		out_fmt("<text class=\"st\" x=\"%d\" y=\"%s\">", (int)(w / 2),
		    pnum(b1, subtitle_y));
		xml_out(o->subtitle, strlen(o->subtitle));
		out_str("</text>\n");
	}
}

void
svg_controls(const struct svg_opts *o, const char *reset, double mx, double my)
{
	char b1[32], b2[32];
	double w = o->width, fs = o->fontsize;

	out_fmt("<text class=\"u hide\" x=\"%d\" y=\"%s\">%s</text>\n",
	    XPAD, pnum(b1, fs * 2), reset);
	out_fmt("<text class=\"b s\" x=\"%s\" y=\"%s\">Search</text>\n",
	    pnum(b1, w - XPAD - 100), pnum(b2, fs * 2));
	out_fmt("<text class=\"b ic\" x=\"%s\" y=\"%s\">ic</text>\n",
	    pnum(b1, w - XPAD - 16), pnum(b2, fs * 2));
	out_fmt("<text class=\"m hide\" x=\"%s\" y=\"%s\"> </text>\n",
	    pnum(b1, mx), pnum(b2, my));
}

void
svg_script(const char *const *part, int nparts, const unsigned char *take)
{
	out_str("<script><![CDATA[\n(function (me) {\n");
	for (int p = 0; p < nparts; p++)
		if (take == NULL || take[p])
			out_str(part[p]);
	out_str("})(document.currentScript);\n"
	    "document.currentScript.parentNode.setAttribute(\"data-ready\", \"\");\n"
	    "]]></script>\n");
}

/* svg_id_add with the name's intern_hash already computed, nh */
static uint64_t
id_add_h(uint64_t h, uint64_t nh, const void *v, size_t vn)
{
	h ^= nh + intern_hash(v, vn);
	return h * 0xff51afd7ed558ccdull;
}

uint64_t
svg_id_add(uint64_t h, const char *name, size_t n, const void *v, size_t vn)
{
	return id_add_h(h, intern_hash(name, n), v, vn);
}

void
svg_id(char *buf, const char *prefix, uint64_t h)
{
	snprintf(buf, SVG_ID_SIZE, "%.2s%08llx", prefix,
	    (unsigned long long)(h & 0xffffffffull));
}

/* A frame as the script sees it; see write_data. */
struct fdata {
	long double gap;	/* start minus the end of its left neighbour */
	long double n;
	double delta;		/* differential: after - before, or NaN */
	uint32_t name, color;	/* in jdata's names and colors */
};

/* The model the script reads. */
struct jdata {
	const struct fdata *fd;
	const struct intern *names, *colors;	/* names by their raw bytes */
	const struct frame_attrs *const *attrs;	/* by name, or NULL */
	double y0, dy;		/* the root row's top, and the step to the next */
	uint32_t rows;
	long double total;
	const long double *fix;	/* by name: self, total to add; or NULL */
	const uint32_t *dnames;	/* --diff: each node's name id in names */
	int frac;		/* a count, drawn or not, has a fraction */
};

static void
json_key_str(const char *key, const char *s)
{
	out_fmt(",\"%s\":", key);
	svg_json_str(s, strlen(s));
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
	size_t len = strip_annotation(s, n);
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

static void
out_vlq(uint64_t v)
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
static const uint32_t *
pre_ordered(const struct frame *fr, size_t n, const uint32_t *pre)
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
static long double *
name_table(const struct frame *fr, size_t n, size_t nnames,
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
 * quarter of what it was, and so is what deflate reads of it.
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
			out_vlq(i - last);
			out_vlq(s < 0 ? (uint64_t)-s / unit * 2 + 1 :
			    (uint64_t)s / unit * 2);
			out_vlq((uint64_t)t / unit);
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

void
svg_vlq(uint64_t v)
{
	out_vlq(v);
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
 * The frames as data, for the script: the static frames above are the
 * picture for viewers without scripts, and the script reads only the
 * names from them (below).  Per row (a depth, top to bottom as drawn),
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
	out_count(d->total);
	out_str(",\"unit\":");
	out_count(unit);
	out_fmt(",\"factor\":%.17g,\"negate\":%d,\"fh\":%s,"
	    "\"label\":%s", o->factor, o->negate != 0,
	    short1(b, o->frameheight - FRAMEPAD), label_y);
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
		size_t len = strip_annotation(s, intern_len(d->names, ord[i])), p;

		for (p = 0; p < len && p < prevlen && s[p] == prev[p] &&
		    (unsigned char)s[p] < 0x80; p++)
			;
		if (prev != NULL)
			out_char(';');
		out_vlq(p);
		json_body(s + p, len - p);
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
	out_fmt("\",\n\"rowy\":[%s,", pnum(b, d->y0));
	out_fmt("%s],\n\"rowlen\":[", pnum(b, d->dy));
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

			out_vlq((uint64_t)(d->fd[i].n / unit) * 2 + (gap != 0));
			if (gap)
				out_vlq(gap);
		}
		out_char('"');
	} else {
		out_str("],\n\"n\":[");
		for (i = 0; i < n; i++) {
			if (i)
				out_char(',');
			out_count(d->fd[i].n);
		}
		out_str("],\n\"gap\":[");
		for (i = 0; i < n; i++) {
			if (i)
				out_char(',');
			out_count(d->fd[i].gap);
		}
		out_char(']');
	}
	out_str(",\n\"name\":\"");
	for (i = 0; i < n; i++)
		out_vlq(rank[d->fd[i].name]);
	/*
	 * A colour by name where every frame of a name has its name's (all
	 * but --random and differential graphs): for the exceptions only,
	 * the names skipped since the last one and how (above).
	 */
	out_str(bycolor ? "\",\n\"color\":\"" : "\",\n\"ncolor\":\"");
	for (i = 0, k = 0; i < (bycolor ? n : nnames); i++) {
		if (bycolor)
			out_vlq(used[d->fd[i].color]);
		else if (ncolor[i] != UINT32_MAX) {
			out_vlq(i - k);
			out_vlq(ncolor[i]);
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
		svg_json_str(a->target ? a->target : "_top",
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
	case flame_js_frac:
		return d->frac;
	case flame_js_links:
		return o->nameattr != NULL;
	default:
		return 1;
	}
}

/* Whether a frame's count (before layout leaves some out) has a fraction. */
static int
fractional(const struct flame *f)
{
	size_t i;

	for (i = 0; i < f->nframes; i++)
		if (f->frames[i].stime != floorl(f->frames[i].stime) ||
		    f->frames[i].etime != floorl(f->frames[i].etime))
			return 1;
	return 0;
}

/* The model (write_data) as JSON, and the parts of the script f needs. */
static void
write_script(const struct flame *f, const struct svg_opts *o,
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

/* The script's model, gathered as the frames are drawn (write_data). */
struct model {
	struct fdata *fd;
	struct intern names, colors;
	const struct frame_attrs **attrs;	/* by id in names */
	size_t attrs_cap;
	/*
	 * per id in flame.names, 1 + its id in names, 0 for none yet: a
	 * name's id without hashing it again (a seventh of writing a frame)
	 */
	uint32_t *to;
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
	    pre_ordered(f->frames, kept, f->pre))
		g->kept = name_table(f->frames, kept, nnames, f->pre);
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
		g->kept = name_table(f->frames, kept, nnames, NULL);
	g->height = (depthmax + 1) * g->fh + g->ypad1 + g->ypad2;
	if (o->subtitle && *o->subtitle)
		g->height += fs * 2;
	/*
	 * A --diff graph has its legend on a row of its own, under the
	 * subtitle; flamegraph.pl draws an icicle's first row over the
	 * subtitle, this one starts below both.
	 */
	if (f->diff) {
		g->height += fs * 2;
		if (o->inverted)
			g->ypad1 += fs * 4;
	}
	pnum(g->label_y, 3 + (o->frameheight - FRAMEPAD) / 2);
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
		h = id_add_h(h, f->names.ents[fr->name].hash, v, sizeof v);
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
	    short1(b, o->frameheight - FRAMEPAD));
	out_fmt("#%s .f text{transform:translateY(%spx)}\n", id, g->label_y);
	out_fmt("#%s .f>g>:hover rect{stroke:#000;stroke-width:.5;cursor:pointer}\n", id);
	svg_head_end(o, id, NULL, o->fontsize * 4);
}

/*
 * A title's count and what it counts: the whole count u with its
 * thousands separators, or else the digits in samples.
 */
static void
fb_count(const struct svg_opts *o, const struct geom *g, int whole,
    uint64_t u, const char *samples)
{
	if (whole)
		fb_thousands(u);
	else
		fb_samples(samples);
	fb_char(' ');
	if (g->cnplain)
		fb_write(o->countname, g->cnlen);
	else
		fb_xml(o->countname, g->cnlen);
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
		fb_xml(attrs->title, strlen(attrs->title));
	} else if (fr->diff) {
		if (root)
			fb_str("all");
		else
			fb_xml(name, shown);
		fb_flush();
		diff_title(f->diff, &f->diff->fr[fr->diff - 1], o);
	} else if (root) {
		fb_str("all (");
		fb_count(o, g, whole, u, samples);
		fb_str(", 100%)");
	} else {
		/*
		 * In double, as Perl computes: 0.095 must round up.  Past
		 * double's range (a --factor near 1e308) that is inf / inf:
		 * the share of the time instead.
		 */
		double all = (double)g->timemax * o->factor;
		double pct = isfinite(all) ? 100 * read / all :
		    (double)(100 * (etime - fr->stime) / g->timemax);

		fb_xml(name, shown);
		fb_str(" (");
		fb_count(o, g, whole, u, samples);
		fb_str(", ");
		fb_write(b, num_fmt_fixed(b, pct, 2));
		fb_char('%');
		if (fr->has_delta) {
			/* + 0: Perl's integer 0 negates to 0, not -0. */
			double d = (double)(o->negate ? -fr->delta :
			    fr->delta) + 0.0;

			if (d == 0)
				d = 0;
			num_fmt_fixed(b, 100 * d / ((double)g->timemax *
			    o->factor), 2);
			fb_str("; ");
			if (d > 0)
				fb_char('+');
			fb_str(b);
			fb_char('%');
		}
		fb_char(')');
	}
}

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
	fb_str("<text x=\"");
	fb_short1(x1 + 3);
	fb_str("\">");
	if ((size_t)chars < total) {
		fb_xml(name, utf8_prefix(name, shown, (size_t)chars - 2));
		fb_str("..");
	} else {
		fb_xml(name, shown);
	}
	fb_str("</text>");
}

/* One frame, for viewers without scripts: link, title, rect, label. */
static struct rgb
write_frame(const struct flame *f, const struct svg_opts *o,
    const struct geom *g, const struct frame *fr, long double etime,
    const struct frame_attrs *attrs)
{
	const char *name = intern_str(&f->names, fr->name);
	size_t nlen = intern_len(&f->names, fr->name);
	size_t shown = strip_annotation(name, nlen);
	int root = nlen == 0 && fr->depth == 0, link = attrs && attrs->href;
	double x1 = XPAD + (double)fr->stime * g->wpt;
	double x2 = XPAD + (double)etime * g->wpt, rx1, rx2;
	char x1s[32];
	size_t x1n = num_fmt_fixed(x1s, x1, 1);
	struct rgb c;

	rx1 = fixed1_read(x1s, x1);
	rx2 = fixed1_read(NULL, x2);
	fb_str(link ? "<a" : "<g");
	if (link) {
		fb_str(" href=\"");
		fb_xml(attrs->href, strlen(attrs->href));
		fb_str("\" target=\"");
		fb_str(attrs->target ? attrs->target : "_top");
		fb_char('"');
	}
	if (attrs && attrs->klass) {
		fb_str(" class=\"");
		fb_str(attrs->klass);
		fb_char('"');
	}
	fb_str("><title>");
	frame_title(f, o, g, fr, etime, name, shown, root, attrs);
	fb_str("</title><rect x=\"");
	fb_trim0(x1s, x1n);
	fb_str("\" width=\"");
	fb_short1(rx2 - rx1);
	fb_str("\" fill=\"");
	c = frame_color(f, o, fr, name, nlen);
	fb_color(c);
	fb_str("\"/>");
	frame_label(o, name, shown, root, x1, x2);
	fb_str(link ? "</a>" : "</g>");
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
				fb_str("</g>");
			fb_str("\n<g transform=\"translate(0 ");
			fb_str(pnum(b, y1));
			fb_str(")\">");
			row = fr->depth;
			prev_end = 0;
		}
		d->gap = fr->stime - prev_end;
		d->n = etime - fr->stime;
		d->delta = fr->has_delta ? (double)fr->delta : NAN;
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
	fb_flush();
	out_str(row == UINT32_MAX ? "</g>\n" : "</g>\n</g>\n");
	return row == UINT32_MAX ? 0 : row + 1;
}

/*
 * Stage 5: what the table (write_fix) misses of all, the table of every
 * frame, in kept, layout's table of the frames the data keeps (NULL when
 * none was left out), by name id in m, which gets the names only
 * left-out frames have; NULL if nothing.  Frees all and kept.
 */
static long double *
table_fix(const struct flame *f, struct model *m, long double *all,
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
static uint32_t *
diff_names(const struct flame *f, struct model *m)
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

/*
 * Write the graph: stages 1 to 5 above, then the details line and the
 * controls, the model (write_data) and the script.
 */
size_t
svg_write(struct flame *f, const struct svg_opts *o)
{
	struct geom g;
	struct model m;
	/* --diff: table.js makes its table from diff.c's data, not these */
	long double *all = f->diff ? NULL : f->table ? f->table :
	    name_table(f->frames, f->nframes, intern_count(&f->names),
	    pre_ordered(f->frames, f->nframes, f->pre)), *fix;
	int frac = fractional(f);
	size_t elided;
	char id[SVG_ID_SIZE], b[32];
	uint32_t rows, *dnames;

	f->table = NULL;	/* all has it now */
	elided = layout(f, o, &g);
	content_id(f, id);
	write_head(o, &g, id);
	if (f->diff)
		diff_legend(f->diff, o, id, o->fontsize * 6, o->negate);
	m.fd = xmalloc((f->nframes + 1) * sizeof *m.fd);
	intern_init(&m.names);
	intern_init(&m.colors);
	m.attrs = NULL;
	m.attrs_cap = 0;
	m.to = xcalloc(intern_count(&f->names) + 1, sizeof *m.to);
	rows = write_frames(f, o, &g, &m);
	fix = table_fix(f, &m, all, g.kept);
	dnames = f->diff ? diff_names(f, &m) : NULL;
	out_fmt("<text class=\"d\" x=\"%d\" y=\"%s\"> </text>\n", XPAD,
	    pnum(b, g.height - g.ypad2 / 2));
	svg_controls(o, "Reset Zoom", o->width - XPAD - 100,
	    g.height - g.ypad2 / 2);
	{
		struct jdata d = { m.fd, &m.names, &m.colors, m.attrs,
		    o->inverted ? g.ypad1 : g.height - g.ypad2 - g.fh + FRAMEPAD,
		    o->inverted ? g.fh : -g.fh, rows, g.timemax, fix, dnames,
		    frac };

		write_script(f, o, &d, id, g.label_y);
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

void
svg_write_empty(const struct svg_opts *o)
{
	char b1[32], b2[32];
	double fs = o->fontsize, h = fs * 5;

	out_str("<?xml version=\"1.0\" standalone=\"no\"?>\n");
	out_fmt("<svg version=\"1.1\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" "
	    "xmlns=\"http://www.w3.org/2000/svg\">\n", pnum(b1, o->width),
	    pnum(b2, h), b1, b2);
	out_fmt("<text x=\"%d\" y=\"%s\" style=\"font-family:Verdana,sans-serif;"
	    "font-size:%spx;text-anchor:middle\">ERROR: No valid input "
	    "provided to flamegraph-svg.</text>\n</svg>\n", (int)(o->width / 2),
	    pnum(b1, fs * 2), pnum(b2, fs));
}
