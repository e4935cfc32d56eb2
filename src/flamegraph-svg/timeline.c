/*
 * timeline: see timeline.h for the design note.
 *
 * Geometry, top to bottom: title, legend of tracks, the overview strip
 * (time ticks, then every row squeezed into at most OV_MAX pixels), the
 * detail view (time ticks, then one row of --height pixels per layout
 * row), and below it the status lines the script fills: the selected
 * span's details and the search result.  Durations are written as the
 * script writes them: integer ns below a microsecond, else two decimals
 * of µs, ms or s ("13.39 ms"); tick labels with the decimals their step
 * needs ("82.1 ms").  Spans are coloured by name, as flame graphs are
 * (--colors, --hash); the script can colour them by track instead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/input.h"
#include "../lib/jsonesc.h"
#include "../lib/out.h"
#include "../lib/sort.h"
#include "../lib/spans.h"
#include "../lib/xmlesc.h"
#include "scriptdata.h"
#include "timeline.h"
#include "timeline_js.h"

/*
 * Above so many spans, one narrower than a pixel is drawn without scripts
 * as its box alone, with no tooltip to hover (a pixel's sliver): 10M
 * generated spans (tests/spanlayout/gen.c) have 112k wider than
 * --minwidth's 0.1 pixel, and Chromium parsed a group, a title and a box
 * for each before the script, which removes them, ran.  As the flame
 * graph's STATIC_ALL_MAX, a smaller timeline keeps every tooltip.
 */
#define BARE_SPANS_OVER 20000

/* Rows drawn at most: row + 1 fits the uint32 fields with room to spare. */
#define MAX_ROWS (1u << 24)

enum { XPAD = 10, AXIS = 16, OV_MAX = 80, LEGEND = 18 };

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
	idseen_init(&t->seen);
	intern_init(&t->keys);
	intern_init(&t->vals);
	intern_init(&t->fnames);
	intern_init(&t->nodes);
	intern_init(&t->evnames);
	intern_init(&t->metas);
}

void
timeline_free(struct timeline *t)
{
	free(t->v);
	free(t->command);
	intern_free(&t->names);
	intern_free(&t->tracks);
	free(t->idv);
	idseen_free(&t->seen);
	idindex_free(&t->ids);
	intern_free(&t->keys);
	intern_free(&t->vals);
	free(t->notes);
	free(t->samples);
	intern_free(&t->fnames);
	intern_free(&t->nodes);
	intern_free(&t->evnames);
	intern_free(&t->metas);
	free(t->meta);
}

int
timeline_detect(const char *p, size_t n)
{
	size_t k = sizeof SPANS_LAID_OUT_MAGIC - 1;

	return n >= k && memcmp(p, SPANS_LAID_OUT_MAGIC, k) == 0 &&
	    (n == k || p[k] == '\n' || p[k] == '\r');
}

/*
 * The span just read, added (1); or, with a row past MAX_ROWS or an id
 * seen before, handed back to the reader, which skips it (0).
 */
static int
add_span(struct timeline *t, struct spans_reader *r, const struct spans_rec *rec)
{
	struct tspan *s;

	if (rec->row >= MAX_ROWS)
		return spans_reject(r, SPANS_ROW, "bad ROW (want 0 to 16777215)");
	if (!idseen_add(&t->seen, rec->id))
		return spans_reject(r, SPANS_ID, "duplicate ID");
	t->idv = xgrow(t->idv, &t->capidv, t->n + 1, sizeof *t->idv);
	t->idv[t->n] = rec->id;
	t->v = xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
	s = &t->v[t->n++];
	memset(s, 0, sizeof *s);
	s->start = (uint64_t)rec->start;
	s->dur = rec->dur;
	s->row = (uint32_t)rec->row;
	s->track = intern_put(&t->tracks, rec->track, rec->ntrack, NULL);
	s->name = intern_put(&t->names, rec->name, rec->nname, NULL);
	s->open = rec->open != 0;
	if (rec->row + 1 > t->rows)
		t->rows = (uint32_t)rec->row + 1;
	return 1;
}

static void
add_note(struct timeline *t, const struct spans_note *sn)
{
	struct tnote *nt;

	t->notes = xgrow(t->notes, &t->capnotes, t->nnotes + 1, sizeof *t->notes);
	nt = &t->notes[t->nnotes++];
	nt->id = sn->id;
	nt->kind = sn->kind;
	nt->key = intern_put(&t->keys, sn->key, sn->nkey, NULL);
	nt->val = sn->kind == SPANS_PROP ?
	    intern_put(&t->vals, sn->val, sn->nval, NULL) : 0;
	nt->num = sn->num;
}

/*
 * A sample: its stack as a path in the tree of nodes, its frames split
 * at ';' as a folded(5) line's (an empty frame is kept, as it is there).
 */
static void
add_sample(struct timeline *t, const struct spans_sample *x)
{
	struct tsample *ts;
	const char *p = x->stack, *e = x->stack + x->nstack;
	uint32_t key[2] = { 0, 0 };

	for (;;) {
		const char *semi = memchr(p, ';', (size_t)(e - p));
		const char *end = semi ? semi : e;

		key[1] = intern_put(&t->fnames, p, (size_t)(end - p), NULL);
		key[0] = intern_put(&t->nodes, key, sizeof key, NULL) + 1;
		if (!semi)
			break;
		p = semi + 1;
	}
	t->samples = xgrow(t->samples, &t->capsamples, t->nsamples + 1,
	    sizeof *t->samples);
	ts = &t->samples[t->nsamples++];
	ts->id = x->id;
	ts->span = TL_NONE;
	ts->track = intern_put(&t->tracks, x->track, x->ntrack, NULL);
	ts->node = key[0] - 1;
	ts->event = intern_put(&t->evnames, x->event, x->nevent, NULL);
	ts->time = x->time;
	ts->weight = x->weight;
}

/* Samples to their spans; one of an id no span has is of none. */
static void
resolve_samples(struct timeline *t, size_t first)
{
	for (size_t i = first; i < t->nsamples; i++) {
		if (t->samples[i].id)
			t->samples[i].span = idindex_find(&t->ids, t->idv,
			    t->samples[i].id);
	}
}

/* Notes to the spans they name; those of no span read are counted, dropped. */
static void
resolve_notes(struct timeline *t, size_t first)
{
	size_t j = first;

	for (size_t i = first; i < t->nnotes; i++) {
		uint32_t idx = idindex_find(&t->ids, t->idv, t->notes[i].id);

		if (idx == IDINDEX_NONE) {
			t->nlost++;
			continue;
		}
		t->notes[j] = t->notes[i];
		t->notes[j++].span = idx;
	}
	t->nnotes = j;
}

/* Whether s[0..n) starts with the literal p. */
#define STARTS(s, n, p) ((n) >= sizeof p - 1 && memcmp(s, p, sizeof p - 1) == 0)

/*
 * A metadata comment: the first time origin, kept apart (a bad one is
 * a skipped line: the picture does not need it); the rest kept in order
 * but for "rows", which the data holds, and "cycle-broken", which names
 * span ids the data does not keep (timeline.h).
 */
static void
add_meta(struct timeline *t, struct spans_reader *r)
{
	int64_t origin;
	int k = spans_time_origin(r->meta, r->nmeta, &origin);

	if (k == 0 && !t->has_origin) {
		t->origin = origin;
		t->has_origin = 1;
	}
	if (k < 0) {
		warn_at(r->in->name, r->line, "skipped bad time-origin-ns (want "
		    "ns within 2^62 of 0)");
		t->nbad++;
	}
	if (k <= 0 || STARTS(r->meta, r->nmeta, "rows:") ||
	    STARTS(r->meta, r->nmeta, "cycle-broken:"))
		return;
	if (r->nmeta > 9 && STARTS(r->meta, r->nmeta, "command: ") &&
	    t->command == NULL) {
		t->command = xmalloc(r->nmeta - 8);
		memcpy(t->command, r->meta + 9, r->nmeta - 9);
		t->command[r->nmeta - 9] = '\0';
	}
	t->meta = xgrow(t->meta, &t->capmeta, t->nmeta + 1, sizeof *t->meta);
	t->meta[t->nmeta++] = intern_put(&t->metas, r->meta, r->nmeta, NULL);
}

int
timeline_read(struct timeline *t, struct input *in)
{
	struct spans_reader r;
	struct spans_rec rec;
	size_t first = t->n, nfirst = t->nnotes, sfirst = t->nsamples, pcap = 0;
	uint64_t *parents = NULL;
	int k;

	/* Bad lines are skipped: the rows are laid out already, so one costs
	 * its own box only (spans.h). */
	spans_reader_init(&r, in, SPANS_LAID_OUT | SPANS_SKIP_BAD | SPANS_NOTES |
	    SPANS_SAMPLES);
	while ((k = spans_next(&r, &rec)) > 0) {
		if (k == SPANS_NOTE) {
			add_note(t, &r.note);
			continue;
		}
		if (k == SPANS_SAMPLE) {
			add_sample(t, &r.sample);
			continue;
		}
		if (k == SPANS_META) {
			add_meta(t, &r);
			continue;
		}
		if ((k = add_span(t, &r, &rec)) < 0)
			break;
		if (k == 0)
			continue;
		parents = xgrow(parents, &pcap, t->n - first, sizeof *parents);
		parents[t->n - 1 - first] = rec.parent;
	}
	/* Parents by id, now that every id is known; unknown ones are roots. */
	idindex_free(&t->ids);
	idindex_build(&t->ids, t->idv, t->n);
	for (size_t i = first; i < t->n; i++) {
		uint64_t pid = parents ? parents[i - first] : 0;
		uint32_t idx = pid ? idindex_find(&t->ids, t->idv, pid) : TL_NONE;

		t->v[i].parent = idx != i ? idx : TL_NONE;
	}
	resolve_notes(t, nfirst);
	resolve_samples(t, sfirst);
	t->nbad += r.skipped;
	spans_reader_free(&r);
	free(parents);
	return k < 0 ? -1 : 0;
}

/* Units of time, largest first. */
static const struct {
	double div;
	const char *unit;
} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "\xc2\xb5s" }, { 1, "ns" } };

/* A duration as the script shows it: two decimals of the largest unit
 * it reaches, "13.39 ms"; whole ns below a microsecond. */
static const char *
fmt_ns(char *b, double v)
{
	size_t i = 0;

	while (i < 3 && v < units[i].div)
		i++;
	if (i == 3)
		snprintf(b, 40, "%.0f ns", v);
	else
		snprintf(b, 40, "%.2f %s", v / units[i].div, units[i].unit);
	return b;
}

/*
 * A tick at v, a multiple of step: in the largest unit v reaches, with
 * the decimals the step needs and no more, so that ticks 100 us apart
 * read "82.1 ms", "82.2 ms" (not "82115.00 us").  As the script's fmtTick.
 */
static const char *
fmt_tick(char *b, double v, double step)
{
	size_t i = 0;
	int d = 0;
	double x;

	while (i < 3 && v < units[i].div)
		i++;
	for (x = step / units[i].div; d < 9 && x - floor(x + 1e-9) > 1e-6; d++)
		x *= 10;
	snprintf(b, 40, "%.*f %s", d, v / units[i].div, units[i].unit);
	return b;
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

/*
 * The spans by (row, start, index) into ord: a counting sort by row,
 * which keeps the index order, then a sort of each row whose starts are
 * not in order already.  spanlayout writes a row's spans in time order,
 * so few rows are sorted again; sorting all by cmp_pos was a sixth of
 * the time of a 10M-span timeline.
 */
static void
order_spans(const struct timeline *t, uint32_t *ord)
{
	size_t *first = xcalloc((size_t)t->rows + 1, sizeof *first), i;

	for (i = 0; i < t->n; i++)
		first[t->v[i].row + 1]++;
	for (i = 0; i < t->rows; i++)
		first[i + 1] += first[i];
	for (i = 0; i < t->n; i++)
		ord[first[t->v[i].row]++] = (uint32_t)i;
	/* first[r] is now the end of row r. */
	for (size_t r = 0, a = 0; r < t->rows; a = first[r++])
		for (i = a + 1; i < first[r]; i++)
			if (t->v[ord[i]].start < t->v[ord[i - 1]].start) {
				sort_ctx(ord + a, first[r] - a, sizeof *ord,
				    cmp_pos, t);
				break;
			}
	free(first);
}

/*
 * The spans copied into the order they are drawn and written in (by
 * row, then start), and every index of a span (parents, notes, samples)
 * made the span's new position.  Writing then reads the spans in
 * memory order: through a permutation, each of its passes (the static
 * picture, starts, durations, names, tracks, parents) read them at
 * random places, which was half of the time of a 10M-span timeline.
 * Copied, not moved in place one cycle of the permutation at a time:
 * a cycle's reads wait on each other, the copy's go on together, and
 * moving took a third of the time left.  The ids are no longer needed
 * and are freed first, to pay for part of the copy.
 */
static void
in_drawing_order(struct timeline *t)
{
	size_t n = t->n, i;
	uint32_t *ord = xmalloc((n + 1) * sizeof *ord);
	uint32_t *pos = xmalloc((n + 1) * sizeof *pos);
	struct tspan *v;

	free(t->idv);
	t->idv = NULL;
	t->capidv = 0;
	idindex_free(&t->ids);
	idseen_free(&t->seen);
	order_spans(t, ord);
	for (i = 0; i < n; i++)
		pos[ord[i]] = (uint32_t)i;
	for (i = 0; i < t->nnotes; i++)
		t->notes[i].span = pos[t->notes[i].span];
	for (i = 0; i < t->nsamples; i++)
		if (t->samples[i].span != TL_NONE)
			t->samples[i].span = pos[t->samples[i].span];
	v = xmalloc((n + 1) * sizeof *v);
	for (i = 0; i < n; i++) {
		v[i] = t->v[ord[i]];
		if (v[i].parent != TL_NONE)
			v[i].parent = pos[v[i].parent];
	}
	free(t->v);
	t->v = v;
	t->cap = n + 1;
	free(ord);
	free(pos);
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
		    v == 0 ? "0" : fmt_tick(b, v, step));
	}
	out_char('\n');
}

/* The tracks, in order of first appearance, with their colours. */
static void
write_legend(const struct timeline *t, const struct svg_opts *o, double y)
{
	double x = XPAD, cw = o->fontsize * o->fontwidth;
	size_t nt = intern_count(&t->tracks), i;

	out_fmt("<g class=\"lg hide\" transform=\"translate(0 %.15g)\">", y);
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

static void
write_table(const char *what, const struct intern *in)
{
	out_fmt("],\n\"%s\":[", what);
	for (size_t i = 0; i < intern_count(in); i++) {
		if (i)
			out_char(',');
		json_out_xml(intern_str(in, (uint32_t)i),
		    intern_len(in, (uint32_t)i));
	}
}

/*
 * Properties and events as flat lists, a span's position first: string
 * properties [pos, key, value], both indexes into tables; integer ones
 * [pos, key, "value"], a string because an int64 may not fit a double;
 * events [pos, name, time after the span's start].
 */
static void
write_notes(const struct timeline *t)
{
	static const char *const lists[] = { "sprops", "iprops", "events" };
	int kinds[] = { SPANS_PROP, SPANS_PROP_INT, SPANS_EVENT };

	write_table("keys", &t->keys);
	write_table("vals", &t->vals);
	for (size_t l = 0; l < 3; l++) {
		size_t cnt = 0;

		out_fmt("],\n\"%s\":[", lists[l]);
		for (size_t i = 0; i < t->nnotes; i++) {
			const struct tnote *nt = &t->notes[i];

			if ((int)nt->kind != kinds[l])
				continue;
			out_fmt("%s%u,%u,", cnt++ ? "," : "", nt->span,
			    nt->key);
			if (nt->kind == SPANS_PROP)
				out_fmt("%u", nt->val);
			else if (nt->kind == SPANS_PROP_INT)
				out_fmt("\"%lld\"", (long long)nt->num);
			else
				out_fmt("%lld", (long long)(nt->num -
				    (int64_t)t->v[nt->span].start));
		}
	}
}

static int
cmp_time(const void *va, const void *vb, const void *ctx)
{
	const struct tsample *a = (const struct tsample *)ctx + *(const uint32_t *)va,
	    *b = (const struct tsample *)ctx + *(const uint32_t *)vb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return *(const uint32_t *)va < *(const uint32_t *)vb ? -1 : 1;
}

/* The samples for the script, in time order: see timeline.h. */
static void
write_samples(const struct timeline *t)
{
	size_t n = t->nsamples, i;
	uint32_t *ord = xmalloc((n + 1) * sizeof *ord);
	int64_t prev = 0;
	int same = 1, sameev = 1;

	for (i = 0; i < n; i++) {
		ord[i] = (uint32_t)i;
		same &= t->samples[i].weight == t->samples[0].weight;
		sameev &= t->samples[i].event == t->samples[0].event;
	}
	sort_ctx(ord, n, sizeof *ord, cmp_time, t->samples);
	out_str(",\n\"fnames\":[");
	for (i = 0; i < intern_count(&t->fnames); i++) {
		if (i)
			out_char(',');
		json_out_xml(intern_str(&t->fnames, (uint32_t)i),
		    intern_len(&t->fnames, (uint32_t)i));
	}
	out_str("],\n\"snode\":[");
	for (i = 0; i < intern_count(&t->nodes); i++) {
		uint32_t key[2];

		memcpy(key, intern_str(&t->nodes, (uint32_t)i), sizeof key);
		out_fmt("%s%u,%u", i ? "," : "", key[0], key[1]);
	}
	out_str("],\n\"stime\":[");
	for (i = 0; i < n; i++) {
		out_fmt("%s%lld", i ? "," : "",
		    (long long)(t->samples[ord[i]].time - prev));
		prev = t->samples[ord[i]].time;
	}
	out_str("],\n\"sspan\":[");
	for (i = 0; i < n; i++) {
		uint32_t sp = t->samples[ord[i]].span;

		out_fmt("%s%u", i ? "," : "", sp == TL_NONE ? 0 : sp + 1);
	}
	out_str("],\n\"strack\":[");
	for (i = 0; i < n; i++)
		out_fmt("%s%u", i ? "," : "", t->samples[ord[i]].track);
	out_str("],\n\"sstack\":[");
	for (i = 0; i < n; i++)
		out_fmt("%s%u", i ? "," : "", t->samples[ord[i]].node);
	out_str("],\n\"sweight\":");
	if (same)
		out_u64(t->samples[0].weight);
	for (i = 0; i < n && !same; i++) {
		out_char(i ? ',' : '[');
		out_u64(t->samples[ord[i]].weight);
	}
	if (!same)
		out_char(']');
	/* Events as weights: one when all share it, as one event does. */
	out_str(",\n\"evnames\":[");
	for (i = 0; i < intern_count(&t->evnames); i++) {
		if (i)
			out_char(',');
		json_out_xml(intern_str(&t->evnames, (uint32_t)i),
		    intern_len(&t->evnames, (uint32_t)i));
	}
	out_str("],\n\"sevent\":");
	if (sameev)
		out_fmt("%u", t->samples[0].event);
	for (i = 0; i < n && !sameev; i++)
		out_fmt("%c%u", i ? ',' : '[', t->samples[ord[i]].event);
	if (!sameev)
		out_char(']');
	free(ord);
}

/* The data for the script: see timeline.h. */
static void
write_data(const struct timeline *t, const char *id, char (*ncol)[8])
{
	size_t n = t->n, row = 0, cnt = 0, i;
	uint64_t prev = 0;
	int64_t *rowtrack = xmalloc((t->rows + 1) * sizeof *rowtrack);

	out_fmt("<script type=\"application/json\" id=\"%s-data\">{\"names\":[",
	    id);
	for (i = 0; i < intern_count(&t->names); i++) {
		if (i)
			out_char(',');
		json_out_xml(intern_str(&t->names, (uint32_t)i),
		    intern_len(&t->names, (uint32_t)i));
	}
	out_str("],\n\"tracks\":[");
	for (i = 0; i < intern_count(&t->tracks); i++) {
		if (i)
			out_char(',');
		json_out_xml(intern_str(&t->tracks, (uint32_t)i),
		    intern_len(&t->tracks, (uint32_t)i));
	}
	out_str("],\n\"colors\":[");
	for (i = 0; i < NCOLORS; i++)
		out_fmt("%s\"%s\"", i ? "," : "", track_colors[i]);
	out_str("],\n\"ncolors\":[");
	for (i = 0; i < intern_count(&t->names); i++)
		out_fmt("%s\"%s\"", i ? "," : "", ncol[i]);
	write_notes(t);
	out_str("],\n\"rowlen\":[");
	for (row = 0, i = 0; row < t->rows; row++) {
		for (cnt = 0; i < n && t->v[i].row == row; i++)
			cnt++;
		out_fmt("%s%zu", row ? "," : "", cnt);
	}
	/* Starts as the difference from the previous span of the row. */
	out_str("],\n\"start\":[");
	for (i = 0; i < n; i++) {
		const struct tspan *s = &t->v[i];

		if (i == 0 || t->v[i - 1].row != s->row)
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
		out_u64(t->v[i].dur);
	}
	out_str("],\n\"name\":[");
	for (i = 0; i < n; i++) {
		if (i)
			out_char(',');
		out_u64(t->v[i].name);
	}
	/* A row's track once if all its spans share it (-1 if not); then
	 * the tracks of the spans of the other rows. */
	out_str("],\n\"rowtrack\":[");
	for (row = 0, i = 0; row < t->rows; row++) {
		size_t a = i;
		int one = 1;

		for (; i < n && t->v[i].row == row; i++)
			one &= t->v[i].track == t->v[a].track;
		rowtrack[row] = i > a && one ? (int64_t)t->v[a].track : -1;
		out_fmt("%s%lld", row ? "," : "", (long long)rowtrack[row]);
	}
	out_str("],\n\"track\":[");
	for (i = 0, cnt = 0; i < n; i++)
		if (rowtrack[t->v[i].row] < 0)
			out_fmt("%s%u", cnt++ ? "," : "", t->v[i].track);
	/*
	 * Parents: 0 for none; 1 for the span of the row above that holds
	 * this one's start, which most parents are and the script finds
	 * again by a binary search; else the position in this order plus 2.
	 * Positions were a third of the data (7 of 21 MB for 1M spans).
	 */
	out_str("],\n\"parent\":[");
	for (i = 0; i < n; i++) {
		const struct tspan *s = &t->v[i];
		const struct tspan *p = s->parent == TL_NONE ? NULL : &t->v[s->parent];

		if (i)
			out_char(',');
		if (p == NULL)
			out_char('0');
		else if (p->row + 1 == s->row && p->start <= s->start &&
		    s->start < p->start + p->dur)
			out_char('1');
		else
			out_u64((uint64_t)s->parent + 2);
	}
	out_str("],\n\"open\":[");
	for (i = 0, cnt = 0; i < n; i++)
		if (t->v[i].open)
			out_fmt("%s%zu", cnt++ ? "," : "", i);
	out_char(']');
	if (t->has_origin)
		out_fmt(",\n\"origin\":\"%lld\"", (long long)t->origin);
	if (t->nmeta)
		out_str(",\n\"meta\":[");
	for (i = 0; i < t->nmeta; i++) {
		if (i)
			out_char(',');
		json_out_xml(intern_str(&t->metas, t->meta[i]),
		    intern_len(&t->metas, t->meta[i]));
	}
	if (t->nmeta)
		out_char(']');
	if (t->nsamples)
		write_samples(t);
	out_str("}</script>\n");
	free(rowtrack);
}

size_t
timeline_write(struct timeline *t, const struct svg_opts *o)
{
	double fs = o->fontsize, fh = o->frameheight, w = o->width;
	double cw = fs * o->fontwidth, top, ovy, ovh, dty, dh, height;
	double total = 1, wpt, minw;
	char (*ncol)[8];
	size_t n = t->n, i, kept = 0;
	uint64_t h = SVG_ID_SEED;
	const char *bg = o->bg1 ? o->bg1 : "#f8f8f8";
	char id[SVG_ID_SIZE], b1[40], b2[40];

	for (i = 0; i < n; i++)
		if ((double)(t->v[i].start + t->v[i].dur) > total)
			total = (double)(t->v[i].start + t->v[i].dur);
	in_drawing_order(t);
	ncol = xmalloc((intern_count(&t->names) + 1) * sizeof *ncol);
	for (i = 0; i < intern_count(&t->names); i++) {
		struct rgb c = color_frame(o->pal, o->shade,
		    intern_str(&t->names, (uint32_t)i),
		    intern_len(&t->names, (uint32_t)i));

		snprintf(ncol[i], sizeof ncol[i], "#%02x%02x%02x", c.r & 255,
		    c.g & 255, c.b & 255);
	}
	for (i = 0; i < n; i++) {
		const struct tspan *s = &t->v[i];
		const char *nm = intern_str(&t->names, s->name);
		uint64_t v[3] = { s->start, s->dur, s->row };

		h = svg_id_add(h, nm, intern_len(&t->names, s->name), v, sizeof v);
	}
	for (i = 0; i < t->nsamples; i++) {
		const struct tsample *x = &t->samples[i];
		uint64_t v[3] = { (uint64_t)x->time, x->weight, x->node };

		h = svg_id_add(h, "", 0, v, sizeof v);
	}
	svg_id(id, "tl", h);

	top = fs * 3 + (o->subtitle && *o->subtitle ? fs * 1.5 : 0);
	ovy = top + LEGEND;
	ovh = t->rows * 3.0 > OV_MAX ? OV_MAX : t->rows * 3.0 < 12 ? 12 :
	    t->rows * 3.0;
	dty = ovy + AXIS + ovh + 12;
	dh = AXIS + t->rows * fh;
	height = dty + dh + 8 + (fs + 5) + 6;
	wpt = (w - 2 * XPAD) / total;
	minw = o->minwidth_pct ? total * o->minwidth / 100 * wpt : o->minwidth;

	svg_head(o, id, height, " timeline: wheel to zoom, drag to pan or select, "
	    "click a span, Ctrl-F to search", bg);
	out_fmt("#%s .f rect{height:%.15gpx}\n", id, o->frameheight - 1);
	/* "name  duration" keeps its blanks. */
	out_fmt("#%s .f text{transform:translateY(%.15gpx);white-space:pre}\n",
	    id, 3 + (o->frameheight - 1) / 2);
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
		const struct tspan *s = &t->v[i];
		const char *nm = intern_str(&t->names, s->name);
		size_t nl = intern_len(&t->names, s->name);
		double x = XPAD + (double)s->start * wpt, sw = (double)s->dur * wpt;
		size_t chars, full, dl;

		if (i == 0 || t->v[i - 1].row != s->row)
			out_fmt("%s\n<g transform=\"translate(0 %.15g)\">",
			    i ? "</g>" : "", dty + AXIS + s->row * fh);
		if (sw < minw)
			continue;
		kept++;
		if (n > BARE_SPANS_OVER && sw < 1) {
			out_fmt("<rect x=\"%.1f\" width=\"%.1f\" fill=\"%s\"/>", x,
			    sw < 0.1 ? 0.1 : sw, ncol[s->name]);
			continue;
		}
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
		    s->open ? ", open" : "", x, sw < 0.1 ? 0.1 : sw, ncol[s->name]);
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
		const struct tspan *s = &t->v[i];
		double x = XPAD + (double)s->start * wpt;

		if (s->parent == TL_NONE || (double)s->dur * wpt < minw ||
		    t->v[s->parent].row + 1 >= s->row || t->v[s->parent].row > s->row)
			continue;
		out_fmt("<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.15g\" y2=\"%.15g\" "
		    "stroke=\"%s\"/>", x, x, dty + AXIS + (t->v[s->parent].row + 1) * fh,
		    dty + AXIS + s->row * fh, ncol[s->name]);
	}
	out_str("</g>\n</g>\n</g>\n");
	/* The buttons the script drives; it adds the selected span's pane
	 * below, growing the SVG. */
	svg_controls(o, "Reset", w - XPAD - 300, dty + dh + 8 + (fs + 5));
	out_fmt("<text class=\"b cb\" x=\"%.15g\" y=\"%.15g\">By track</text>\n"
	    "<text class=\"b fl\" x=\"%.15g\" y=\"%.15g\">Flows</text>\n",
	    w - XPAD - 260, fs * 2, w - XPAD - 170, fs * 2);
	write_data(t, id, ncol);
	svg_script_open();
	svg_script_parts(timeline_js_part, timeline_js_nparts, NULL);
	if (t->nsamples)
		sd_script_function();
	svg_script_close();
	out_str("</svg>\n");
	free(ncol);
	return n - kept;
}
