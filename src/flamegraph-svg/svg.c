/*
 * svg: the SVG document the flame graph (flamesvg.c) and the timeline
 * (timeline.c) share: see svg.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../lib/intern.h"
#include "../lib/num.h"
#include "../lib/out.h"
#include "../lib/xmlesc.h"
#include "svg.h"

enum { XPAD = 10 };

/*
 * A "%0.1f" string of *n bytes without its trailing ".0", its length in
 * *n: buf's first bytes, or "0" for what was "-0.0".
 */
const char *
svg_trim0_n(const char *buf, size_t *n)
{
	if (*n >= 2 && buf[*n - 2] == '.' && buf[*n - 1] == '0')
		*n -= 2;
	if (*n == 2 && buf[0] == '-' && buf[1] == '0') {
		*n = 1;
		return "0";
	}
	return buf;
}

/* svg_trim0_n of a NUL-ended string, in place. */
static const char *
trim0(char *buf)
{
	size_t n = strlen(buf);
	const char *s = svg_trim0_n(buf, &n);

	if (s == buf)
		buf[n] = '\0';
	return s;
}

/*
 * A coordinate rounded as flamegraph.pl rounds it ("%0.1f"), written
 * without a trailing ".0": the same number in fewer bytes.
 */
const char *
svg_short1(char *buf, double v)
{
	num_fmt_fixed(buf, v, 1);
	return trim0(buf);
}

/*
 * A number as Perl prints it by default (%.15g); an integer below 1e15,
 * the usual one (a row's y), is its digits, which is what %.15g prints,
 * without snprintf's thousand instructions.
 */
const char *
svg_pnum(char *buf, double v)
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
void
svg_count(long double v)
{
	if (v == floorl(v) && v < 18446744073709551616.0L)
		out_u64((uint64_t)v);
	else
		out_fmt("%.17g", (double)v);
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

void
svg_head(const struct svg_opts *o, const char *id, double height,
    const char *what, const char *bg)
{
	char b1[32], b2[32], b3[32];

	out_str("<?xml version=\"1.0\" standalone=\"no\"?>\n");
	out_fmt("<svg version=\"1.1\" id=\"%s\" width=\"%s\" height=\"%s\" "
	    "viewBox=\"0 0 %s %s\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "data-fontsize=\"%s\" data-fontwidth=\"%.15g\">\n", id,
	    svg_pnum(b1, o->width), svg_pnum(b2, height), b1, b2, svg_pnum(b3, o->fontsize),
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
	out_fmt(";font-size:%spx;fill:#000}\n", svg_pnum(b1, o->fontsize));
}

void
svg_head_end(const struct svg_opts *o, const char *id, const char *bg,
    double subtitle_y)
{
	char b1[32];
	double w = o->width, fs = o->fontsize;

	out_fmt("#%s .t{text-anchor:middle;font-size:%spx}\n", id, svg_pnum(b1, fs + 5));
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
	    svg_pnum(b1, fs * 2));
	xml_out(o->title, strlen(o->title));
	out_str("</text>\n");
	if (o->subtitle && *o->subtitle) {
		out_fmt("<text class=\"st\" x=\"%d\" y=\"%s\">", (int)(w / 2),
		    svg_pnum(b1, subtitle_y));
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
	    XPAD, svg_pnum(b1, fs * 2), reset);
	out_fmt("<text class=\"b s\" x=\"%s\" y=\"%s\">Search</text>\n",
	    svg_pnum(b1, w - XPAD - 100), svg_pnum(b2, fs * 2));
	out_fmt("<text class=\"b ic\" x=\"%s\" y=\"%s\">ic</text>\n",
	    svg_pnum(b1, w - XPAD - 16), svg_pnum(b2, fs * 2));
	out_fmt("<text class=\"m hide\" x=\"%s\" y=\"%s\"> </text>\n",
	    svg_pnum(b1, mx), svg_pnum(b2, my));
}

void
svg_script_open(void)
{
	out_str("<script><![CDATA[\n(function (me) {\n");
}

void
svg_script_parts(const char *const *part, int nparts, const unsigned char *take)
{
	for (int p = 0; p < nparts; p++)
		if (take == NULL || take[p])
			out_str(part[p]);
}

void
svg_script_close(void)
{
	out_str("})(document.currentScript);\n"
	    "document.currentScript.parentNode.setAttribute(\"data-ready\", \"\");\n"
	    "]]></script>\n");
}

void
svg_script(const char *const *part, int nparts, const unsigned char *take)
{
	svg_script_open();
	svg_script_parts(part, nparts, take);
	svg_script_close();
}

uint64_t
svg_id_add_h(uint64_t h, uint64_t nh, const void *v, size_t vn)
{
	h ^= nh + intern_hash(v, vn);
	return h * 0xff51afd7ed558ccdull;
}

uint64_t
svg_id_add(uint64_t h, const char *name, size_t n, const void *v, size_t vn)
{
	return svg_id_add_h(h, intern_hash(name, n), v, vn);
}

void
svg_id(char *buf, const char *prefix, uint64_t h)
{
	snprintf(buf, SVG_ID_SIZE, "%.2s%08llx", prefix,
	    (unsigned long long)(h & 0xffffffffull));
}

void
svg_write_empty(const struct svg_opts *o)
{
	char b1[32], b2[32];
	double fs = o->fontsize, h = fs * 5;

	out_str("<?xml version=\"1.0\" standalone=\"no\"?>\n");
	out_fmt("<svg version=\"1.1\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" "
	    "xmlns=\"http://www.w3.org/2000/svg\">\n", svg_pnum(b1, o->width),
	    svg_pnum(b2, h), b1, b2);
	out_fmt("<text x=\"%d\" y=\"%s\" style=\"font-family:Verdana,sans-serif;"
	    "font-size:%spx;text-anchor:middle\">ERROR: No valid input "
	    "provided to flamegraph-svg.</text>\n</svg>\n", (int)(o->width / 2),
	    svg_pnum(b1, fs * 2), svg_pnum(b2, fs));
}

