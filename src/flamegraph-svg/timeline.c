/*
 * timeline: see timeline.h for the design note.
 *
 * Geometry, top to bottom: title, legend of tracks, the overview strip
 * (time ticks, then every row squeezed into at most OV_MAX pixels), the
 * detail view (time ticks, then one row of --height pixels per layout
 * row), and below it the status lines the script fills: the selected
 * span's details and the search result.  Times are written as the
 * script writes them: integer ns below a microsecond, else two decimals
 * of µs, ms or s ("13.39 ms").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/input.h"
#include "../lib/num.h"
#include "../lib/out.h"
#include "../lib/sort.h"
#include "../lib/spanrange.h"
#include "../lib/xmlesc.h"
#include "timeline.h"
#include "timeline_js.h"

#define SHOWN 5			/* bad lines named before they are only counted */

enum { XPAD = 10, AXIS = 16, OV_MAX = 80, LEGEND = 18, PANEL_LINES = 3 };

/* Track colours: distinct hues that keep black labels readable. */
static const char *const track_colors[] = {
	"#8fb5e0", "#e6b87a", "#9fd49b", "#e39a9a", "#c2a8e0", "#e0d27a",
	"#8fd4cf", "#e0a8cf", "#b8c48a", "#c9b49a", "#a3c0c9", "#d4a37a",
};
#define NCOLORS (sizeof track_colors / sizeof track_colors[0])

void
timeline_init(struct timeline *t)
{
	memset(t, 0, sizeof *t);
	intern_init(&t->names);
	intern_init(&t->tracks);
	intern_init(&t->ids);
}

void
timeline_free(struct timeline *t)
{
	free(t->v);
	free(t->command);
	intern_free(&t->names);
	intern_free(&t->tracks);
	intern_free(&t->ids);
}

int
timeline_detect(const char *p, size_t n)
{
	static const char magic[] = "# spanlayout v1";
	size_t k = sizeof magic - 1;

	return n >= k && memcmp(p, magic, k) == 0 &&
	    (n == k || p[k] == '\n' || p[k] == '\r');
}

/* The next tab-separated field of l[*i..n), or -1 if there is no tab. */
static int
field(const char *l, size_t n, size_t *i, const char **f, size_t *fl)
{
	const char *tab = memchr(l + *i, '\t', n - *i);

	if (tab == NULL)
		return -1;
	*f = l + *i;
	*fl = (size_t)(tab - *f);
	*i = (size_t)(tab - l) + 1;
	return 0;
}

/* NAME with \t, \n and \\ decoded, into buf (at least n bytes). */
static size_t
unescape(const char *s, size_t n, char *buf)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			char c = s[i + 1];

			if (c == 't' || c == 'n' || c == '\\') {
				buf[w++] = c == 't' ? '\t' : c == 'n' ? '\n' : '\\';
				i++;
				continue;
			}
		}
		buf[w++] = s[i];
	}
	return w;
}

static const char *
parse_span(struct timeline *t, const char *l, size_t n, uint64_t *parent_id,
    char **tmp, size_t *tmpcap)
{
	const char *f[6];
	size_t fl[6], i = 0, k;
	uint64_t id, start, dur, row;
	struct tspan *s;
	int isnew;

	for (k = 0; k < 6; k++)
		if (field(l, n, &i, &f[k], &fl[k]) < 0)
			return "expected 7 tab-separated fields "
			    "(ID PARENT START DURATION TRACK ROW NAME)";
	if (num_parse_u64(f[0], fl[0], &id) < 0 || id == 0)
		return "ID is not a positive integer";
	if (num_parse_u64(f[1], fl[1], parent_id) < 0)
		return "PARENT is not an integer";
	if (num_parse_u64(f[2], fl[2], &start) < 0)
		return "START_NS is not a time from the trace's start "
		    "(laid out by spanlayout?)";
	if (num_parse_u64(f[3], fl[3], &dur) < 0)
		return "DURATION_NS is not a duration in ns";
	if (start > (uint64_t)SPAN_TIME_MAX)
		return span_range_what(SPAN_START_OUT);
	if (span_range_check((int64_t)start, dur) != SPAN_IN_RANGE)
		return span_range_what(span_range_check((int64_t)start, dur));
	if (num_parse_u64(f[5], fl[5], &row) < 0 || row >= 1u << 24)
		return "ROW is not a row number below 16777216";
	intern_put(&t->ids, &id, sizeof id, &isnew);
	if (!isnew)
		return "ID appears twice";
	t->v = xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
	s = &t->v[t->n++];
	memset(s, 0, sizeof *s);
	s->start = start;
	s->dur = dur;
	s->row = (uint32_t)row;
	s->track = intern_put(&t->tracks, f[4], fl[4], NULL);
	*tmp = xgrow(*tmp, tmpcap, n - i + 1, 1);
	s->name = intern_put(&t->names, *tmp, unescape(l + i, n - i, *tmp), NULL);
	if (row + 1 > t->rows)
		t->rows = (uint32_t)row + 1;
	return NULL;
}

int
timeline_read(struct timeline *t, struct input *in)
{
	const char *l, *why;
	size_t n, tmpcap = 0, first = t->n;
	uint64_t line = 0, bad = 0, *parents = NULL;
	size_t pcap = 0;
	char *tmp = NULL, q[4 * 60 + 8];
	int r, open = 0;

	while ((r = input_getline(in, &l, &n)) > 0) {
		uint64_t pid;

		line++;
		if (line == 1) {
			if (!timeline_detect(l, n)) {
				warn_at(in->name, 1, "not laid-out spans: the first "
				    "line is not \"# spanlayout v1\" (run spanlayout "
				    "first)");
				r = -1;
				break;
			}
			continue;
		}
		if (n == 0)
			continue;
		if (l[0] == '#') {
			if (n > 11 && memcmp(l, "# command: ", 11) == 0 &&
			    t->command == NULL) {
				t->command = xmalloc(n - 10);
				memcpy(t->command, l + 11, n - 11);
				t->command[n - 11] = '\0';
			} else if (n == 6 && memcmp(l, "# open", 6) == 0) {
				/* spanlayout's mark of the span on the next line */
				open = 1;
			}
			continue;
		}
		if ((why = parse_span(t, l, n, &pid, &tmp, &tmpcap)) != NULL) {
			if (bad++ < SHOWN)
				warn_at(in->name, line, "skipped span: %s: %s", why,
				    err_quote(q, l, n, 60));
			open = 0;
			continue;
		}
		t->v[t->n - 1].open = (uint32_t)open;
		open = 0;
		parents = xgrow(parents, &pcap, t->n - first, sizeof *parents);
		parents[t->n - 1 - first] = pid;
	}
	if (r == 0 && line == 0) {
		warn_at(in->name, 0, "empty input: no \"# spanlayout v1\" line");
		r = -1;
	}
	/* Parents by id, now that every id is known; unknown ones are roots. */
	for (size_t i = first; i < t->n; i++) {
		uint64_t pid = parents ? parents[i - first] : 0;
		uint32_t idx;

		t->v[i].parent = pid && intern_find(&t->ids, &pid, sizeof pid,
		    &idx) == 0 && idx != i ? idx : TL_NONE;
	}
	if (bad)
		warn_at(in->name, 0, "skipped %llu span line%s",
		    (unsigned long long)bad, bad == 1 ? "" : "s");
	t->nbad += bad;
	free(parents);
	free(tmp);
	return r < 0 ? -1 : 0;
}

/* Units of time, largest first. */
static const struct {
	double div;
	const char *unit;
} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "\xc2\xb5s" }, { 1, "ns" } };

/*
 * A time as the script shows it: in the largest unit that v reaches (or
 * that unit_of reaches, for tick labels whose step must stay visible),
 * with two decimals, "13.39 ms"; whole ns below a microsecond.
 */
static const char *
fmt_time(char *b, double v, double unit_of)
{
	size_t i = 0;

	while (i < 3 && unit_of < units[i].div)
		i++;
	/* The value's own unit, where two decimals of it still show the step. */
	for (size_t j = 0; j < i; j++)
		if (v >= units[j].div && unit_of * 100 >= units[j].div) {
			i = j;
			break;
		}
	if (i == 3)
		snprintf(b, 40, "%.0f ns", v);
	else
		snprintf(b, 40, "%.2f %s", v / units[i].div, units[i].unit);
	return b;
}

static const char *
fmt_ns(char *b, double ns)
{
	return fmt_time(b, ns, ns);
}

static int
cmp_pos(const void *va, const void *vb, const void *ctx)
{
	const struct timeline *t = ctx;
	const struct tspan *a = &t->v[*(const uint32_t *)va],
	    *b = &t->v[*(const uint32_t *)vb];

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return *(const uint32_t *)va < *(const uint32_t *)vb ? -1 : 1;
}

/* A tick step of 1, 2 or 5 times a power of ten ns, about px apart. */
static double
tick_step(double span_ns, double width, double px)
{
	double raw = span_ns * px / width, p = 1;

	while (p * 10 <= raw)
		p *= 10;
	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

static void
write_ticks(double y, double h, double total, double w, double fs)
{
	double step = tick_step(total, w - 2 * XPAD, 100);
	char b[40];

	for (double v = 0; v <= total; v += step) {
		double x = XPAD + v * (w - 2 * XPAD) / total;

		if (x > w - XPAD - 50)	/* no room for the label */
			break;
		out_fmt("<line class=\"tk\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
		    "y2=\"%.1f\"/><text class=\"tl\" x=\"%.1f\" y=\"%.1f\">%s"
		    "</text>", x, x, y, y + h, x + 2, y + fs,
		    v == 0 ? "0" : fmt_time(b, v, step));
	}
	out_char('\n');
}

/* The tracks, in order of first appearance, with their colours. */
static void
write_legend(const struct timeline *t, const struct svg_opts *o, double y)
{
	double x = XPAD, cw = o->fontsize * o->fontwidth;
	size_t nt = intern_count(&t->tracks), i;

	out_fmt("<g class=\"lg\" transform=\"translate(0 %.15g)\">", y);
	for (i = 0; i < nt; i++) {
		size_t len = intern_len(&t->tracks, (uint32_t)i);
		double w = 14 + (double)utf8_count(intern_str(&t->tracks,
		    (uint32_t)i), len) * cw + 12;

		if (x + w > o->width - XPAD - 14 * cw)
			break;
		out_fmt("<rect x=\"%.1f\" y=\"2\" width=\"10\" height=\"10\" "
		    "fill=\"%s\"/><text x=\"%.1f\" y=\"11\">", x,
		    track_colors[i % NCOLORS], x + 14);
		xml_out(intern_str(&t->tracks, (uint32_t)i), len);
		out_str("</text>");
		x += w;
	}
	if (i < nt)
		out_fmt("<text x=\"%.1f\" y=\"11\">(+%zu more tracks)</text>", x,
		    nt - i);
	out_str("</g>\n");
}

/* The data for the script: see timeline.h. */
static void
write_data(const struct timeline *t, const uint32_t *ord, const uint32_t *pos,
    const char *id)
{
	size_t n = t->n, row = 0, cnt = 0, i;
	uint64_t prev = 0;

	out_fmt("<script type=\"application/json\" id=\"%s-data\">{\"names\":[",
	    id);
	for (i = 0; i < intern_count(&t->names); i++) {
		if (i)
			out_char(',');
		svg_json_str(intern_str(&t->names, (uint32_t)i),
		    intern_len(&t->names, (uint32_t)i));
	}
	out_str("],\n\"tracks\":[");
	for (i = 0; i < intern_count(&t->tracks); i++) {
		if (i)
			out_char(',');
		svg_json_str(intern_str(&t->tracks, (uint32_t)i),
		    intern_len(&t->tracks, (uint32_t)i));
	}
	out_str("],\n\"colors\":[");
	for (i = 0; i < NCOLORS; i++)
		out_fmt("%s\"%s\"", i ? "," : "", track_colors[i]);
	out_str("],\n\"rowlen\":[");
	for (row = 0, i = 0; row < t->rows; row++) {
		for (cnt = 0; i < n && t->v[ord[i]].row == row; i++)
			cnt++;
		out_fmt("%s%zu", row ? "," : "", cnt);
	}
	/* Starts as the difference from the previous span of the row. */
	out_str("],\n\"start\":[");
	for (i = 0; i < n; i++) {
		const struct tspan *s = &t->v[ord[i]];

		if (i == 0 || t->v[ord[i - 1]].row != s->row)
			prev = 0;
		if (i)
			out_char(',');
		out_u64(s->start - prev);
		prev = s->start;
	}
	out_str("],\n\"dur\":[");
	for (i = 0; i < n; i++) {
		if (i)
			out_char(',');
		out_u64(t->v[ord[i]].dur);
	}
	out_str("],\n\"name\":[");
	for (i = 0; i < n; i++) {
		if (i)
			out_char(',');
		out_u64(t->v[ord[i]].name);
	}
	out_str("],\n\"track\":[");
	for (i = 0; i < n; i++) {
		if (i)
			out_char(',');
		out_u64(t->v[ord[i]].track);
	}
	/* Parents as positions in this order, plus one; 0 for none. */
	out_str("],\n\"parent\":[");
	for (i = 0; i < n; i++) {
		uint32_t p = t->v[ord[i]].parent;

		if (i)
			out_char(',');
		out_u64(p == TL_NONE ? 0 : (uint64_t)pos[p] + 1);
	}
	out_str("],\n\"open\":[");
	for (i = 0, cnt = 0; i < n; i++)
		if (t->v[ord[i]].open)
			out_fmt("%s%zu", cnt++ ? "," : "", i);
	out_str("]}</script>\n");
}

size_t
timeline_write(struct timeline *t, const struct svg_opts *o)
{
	double fs = o->fontsize, fh = o->frameheight, w = o->width;
	double cw = fs * o->fontwidth, top, ovy, ovh, dty, dh, height;
	double total = 1, wpt, minw;
	uint32_t *ord, *pos;
	size_t n = t->n, i, kept = 0;
	uint64_t h = SVG_ID_SEED;
	const char *bg = o->bg1 ? o->bg1 : "#f8f8f8";
	char id[SVG_ID_SIZE], b1[40], b2[40];

	for (i = 0; i < n; i++)
		if ((double)(t->v[i].start + t->v[i].dur) > total)
			total = (double)(t->v[i].start + t->v[i].dur);
	ord = xmalloc((n + 1) * sizeof *ord);
	pos = xmalloc((n + 1) * sizeof *pos);
	for (i = 0; i < n; i++)
		ord[i] = (uint32_t)i;
	sort_ctx(ord, n, sizeof *ord, cmp_pos, t);
	for (i = 0; i < n; i++)
		pos[ord[i]] = (uint32_t)i;
	for (i = 0; i < n; i++) {
		const struct tspan *s = &t->v[ord[i]];
		const char *nm = intern_str(&t->names, s->name);
		uint64_t v[3] = { s->start, s->dur, s->row };

		h = svg_id_add(h, nm, intern_len(&t->names, s->name), v, sizeof v);
	}
	svg_id(id, "tl", h);

	top = fs * 3 + (o->subtitle && *o->subtitle ? fs * 1.5 : 0);
	ovy = top + LEGEND;
	ovh = t->rows * 3.0 > OV_MAX ? OV_MAX : t->rows * 3.0 < 12 ? 12 :
	    t->rows * 3.0;
	dty = ovy + AXIS + ovh + 12;
	dh = AXIS + t->rows * fh;
	height = dty + dh + 8 + (PANEL_LINES + 1) * (fs + 5) + 6;
	wpt = (w - 2 * XPAD) / total;
	minw = o->minwidth_pct ? total * o->minwidth / 100 * wpt : o->minwidth;

	svg_head(o, id, height, " timeline: wheel to zoom, drag to pan or select, "
	    "click a span, Ctrl-F to search", bg);
	out_fmt("#%s .f rect{height:%.15gpx}\n", id, o->frameheight - 1);
	/* "name  duration" and the panel's columns keep their blanks. */
	out_fmt("#%s .f text{transform:translateY(%.15gpx);white-space:pre}\n",
	    id, 3 + (o->frameheight - 1) / 2);
	out_fmt("#%s .p{white-space:pre}\n", id);
	out_fmt("#%s .f>g>g:hover rect{stroke:#000;stroke-width:.5}\n", id);
	out_fmt("#%s .tk{stroke:#ccc;stroke-width:.5}\n", id);
	out_fmt("#%s .tl{font-size:%.15gpx;fill:#666}\n", id, fs * 0.8);
	out_fmt("#%s .pl{stroke-width:.5}\n", id);
	svg_head_end(o, id, bg, fs * 3.5);
	write_legend(t, o, top);
	out_fmt("<g class=\"tlv\" data-total=\"%.17g\" data-rows=\"%u\" "
	    "data-fh=\"%.15g\" data-ov=\"%.15g %.15g\" data-dt=\"%.15g\" "
	    "data-axis=\"%d\">\n", total, t->rows, fh, ovy, ovh, dty, AXIS);
	out_fmt("<rect class=\"ovb\" x=\"%d\" y=\"%.15g\" width=\"%.15g\" "
	    "height=\"%.15g\" fill=\"#fff\" stroke=\"#ccc\"/>\n", XPAD, ovy,
	    w - 2 * XPAD, AXIS + ovh);
	/* The static picture, which the script replaces with its canvases:
	 * ticks, spans wider than --minwidth (a group a row), parent lines. */
	out_str("<g class=\"sp\">");
	write_ticks(dty, dh, total, w, fs * 0.8);
	out_str("<g class=\"f\">");
	for (i = 0; i < n; i++) {
		const struct tspan *s = &t->v[ord[i]];
		const char *nm = intern_str(&t->names, s->name);
		size_t nl = intern_len(&t->names, s->name);
		double x = XPAD + (double)s->start * wpt, sw = (double)s->dur * wpt;
		size_t chars, full, dl;

		if (i == 0 || t->v[ord[i - 1]].row != s->row)
			out_fmt("%s\n<g transform=\"translate(0 %.15g)\">",
			    i ? "</g>" : "", dty + AXIS + s->row * fh);
		if (sw < minw)
			continue;
		kept++;
		out_str("<g><title>");
		xml_out(nm, nl);
		out_fmt(" (%s, at +%s, ", fmt_ns(b1, (double)s->dur),
		    fmt_ns(b2, (double)s->start));
		xml_out(intern_str(&t->tracks, s->track),
		    intern_len(&t->tracks, s->track));
		if (s->parent != TL_NONE) {
			out_str(", in ");
			xml_out(intern_str(&t->names, t->v[s->parent].name),
			    intern_len(&t->names, t->v[s->parent].name));
		}
		out_fmt("%s)</title><rect x=\"%.1f\" width=\"%.1f\" fill=\"%s\"/>",
		    s->open ? ", open" : "", x, sw < 0.1 ? 0.1 : sw,
		    track_colors[s->track % NCOLORS]);
		/* "name  duration", or the name cut with "...", or nothing. */
		chars = sw > 6 ? (size_t)((sw - 6) / cw) : 0;
		full = utf8_count(nm, nl);
		fmt_ns(b1, (double)s->dur);
		dl = strlen(b1) - (strstr(b1, "\xc2\xb5") ? 1 : 0);
		if (chars >= full + 2 + dl) {
			out_fmt("<text x=\"%.1f\">", x + 3);
			xml_out(nm, nl);
			out_fmt("  %s</text>", b1);
		} else if (chars >= full && full) {
			out_fmt("<text x=\"%.1f\">", x + 3);
			xml_out(nm, nl);
			out_str("</text>");
		} else if (chars >= 4) {
			out_fmt("<text x=\"%.1f\">", x + 3);
			xml_out(nm, utf8_prefix(nm, nl, chars - 3));
			out_str("...</text>");
		}
		out_str("</g>");
	}
	out_str(n ? "</g>\n</g>\n" : "</g>\n");
	/* Lines from a span up to a parent more than one row above it. */
	out_str("<g class=\"pl\">");
	for (i = 0; i < n; i++) {
		const struct tspan *s = &t->v[ord[i]];
		double x = XPAD + (double)s->start * wpt;

		if (s->parent == TL_NONE || (double)s->dur * wpt < minw ||
		    t->v[s->parent].row + 1 >= s->row || t->v[s->parent].row > s->row)
			continue;
		out_fmt("<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.15g\" y2=\"%.15g\" "
		    "stroke=\"%s\"/>", x, x, dty + AXIS + (t->v[s->parent].row + 1) * fh,
		    dty + AXIS + s->row * fh, track_colors[s->track % NCOLORS]);
	}
	out_str("</g>\n</g>\n</g>\n");
	/* The status lines and buttons the script drives. */
	for (i = 0; i < PANEL_LINES; i++)
		out_fmt("<text class=\"p p%zu\" x=\"%d\" y=\"%.15g\"> </text>\n",
		    i, XPAD, dty + dh + 8 + (i + 1) * (fs + 5));
	svg_controls(o, "Reset", w - XPAD - 300,
	    dty + dh + 8 + (PANEL_LINES + 1) * (fs + 5));
	write_data(t, ord, pos, id);
	out_str("<script><![CDATA[\n");
	out_str(timeline_js);
	out_str("]]></script>\n</svg>\n");
	free(ord);
	free(pos);
	return n - kept;
}
