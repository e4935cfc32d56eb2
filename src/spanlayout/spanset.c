/*
 * spanset: the span set, format detection, and spans(5) text into it.
 *
 * spans(5) is read by the codec in src/lib/spans.c, which stops at a
 * line that is not a span (too few fields, a start that is not a number,
 * a negative duration) with its file and line, because a span left out
 * would silently re-parent its children.  Files written by spanlayout
 * itself ("# spanlayout v1") are read too, their ROW only checked, so a
 * laid-out file can be edited with grep and laid out again; their starts,
 * relative to the file's "time-origin-ns", are made absolute again, so
 * that the origin is kept (and --to=chrome writes the trace's own times).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/input.h"
#include "../lib/sort.h"
#include "../lib/spans.h"
#include "spanset.h"

void
spanset_init(struct spanset *s)
{
	memset(s, 0, sizeof *s);
	intern_init(&s->names);
	intern_init(&s->tracks);
	intern_init(&s->strs);
	intern_init(&s->stacks);
}

void
spanset_free(struct spanset *s)
{
	for (size_t i = 0; i < s->nmeta; i++)
		free(s->meta[i]);
	free(s->meta);
	free(s->v);
	free(s->files);
	intern_free(&s->names);
	intern_free(&s->tracks);
	intern_free(&s->strs);
	free(s->notes);
	free(s->nfirst);
	free(s->samples);
	intern_free(&s->stacks);
}

struct span *
spanset_add(struct spanset *s)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	memset(&s->v[s->n], 0, sizeof s->v[0]);
	s->v[s->n].file = (uint32_t)(s->nfiles - 1);
	return &s->v[s->n++];
}

void
spanset_meta(struct spanset *s, const char *text, size_t n)
{
	char *m = xmalloc(n + 1);

	memcpy(m, text, n);
	m[n] = '\0';
	if (s->nmeta == s->capmeta) {
		s->capmeta = s->capmeta ? s->capmeta * 2 : 16;
		s->meta = xrealloc(s->meta, s->capmeta * sizeof *s->meta);
	}
	s->meta[s->nmeta++] = m;
}

void
spanset_sample(struct spanset *s, const struct spans_sample *x)
{
	struct sample *y;

	s->samples = xgrow(s->samples, &s->capsamples, s->nsamples + 1,
	    sizeof *s->samples);
	y = &s->samples[s->nsamples++];
	y->id = x->id;
	y->time = x->time;
	y->weight = x->weight;
	y->track = intern_put(&s->strs, x->track, x->ntrack, NULL);
	y->event = intern_put(&s->strs, x->event, x->nevent, NULL);
	y->stack = intern_put(&s->stacks, x->stack, x->nstack, NULL);
}

void
spanset_note(struct spanset *s, const struct spans_note *n)
{
	struct note *x;

	s->notes = xgrow(s->notes, &s->capnotes, s->nnotes + 1, sizeof *s->notes);
	x = &s->notes[s->nnotes++];
	memset(x, 0, sizeof *x);
	x->id = n->id;
	x->kind = n->kind;
	x->num = n->num;
	x->key = intern_put(&s->strs, n->key, n->nkey, NULL);
	if (n->kind == SPANS_PROP)
		x->val = intern_put(&s->strs, n->val, n->nval, NULL);
}

static int
by_id(const void *a, const void *b, const void *ctx)
{
	const struct span *v = ctx;
	uint64_t x = v[*(const uint32_t *)a].id, y = v[*(const uint32_t *)b].id;

	return x < y ? -1 : x > y;
}

/*
 * Spans by id, searched: a hash would be faster, but this runs once, on
 * the notes, and only when there are any.  Then a counting sort of the
 * notes by span, stable so that a span's notes keep the order read.
 */
void
spanset_notes(struct spanset *s)
{
	uint32_t *ord, *at;
	struct note *sorted;
	size_t i, kept = 0;

	if (s->nnotes == 0)
		return;
	ord = xmalloc((s->n + 1) * sizeof *ord);
	for (i = 0; i < s->n; i++)
		ord[i] = (uint32_t)i;
	sort_ctx(ord, s->n, sizeof *ord, by_id, s->v);
	for (i = 0; i < s->nnotes; i++) {
		struct note *x = &s->notes[i];
		size_t lo = 0, hi = s->n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (s->v[ord[mid]].id < x->id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < s->n && s->v[ord[lo]].id == x->id) {
			x->span = ord[lo];
			s->notes[kept++] = *x;
		} else
			s->lost_notes++;
	}
	s->nnotes = kept;
	at = xcalloc(s->n + 2, sizeof *at);
	for (i = 0; i < kept; i++)
		at[s->notes[i].span + 2]++;
	for (i = 2; i < s->n + 2; i++)
		at[i] += at[i - 1];
	sorted = xmalloc((kept + 1) * sizeof *sorted);
	for (i = 0; i < kept; i++)
		sorted[at[s->notes[i].span + 1]++] = s->notes[i];
	free(s->notes);
	s->notes = sorted;
	s->capnotes = kept + 1;
	s->nfirst = at;		/* at[i] is now where span i's notes start */
	free(ord);
}

/* Keys spanlayout writes itself: not passed on from a laid-out input. */
static int
own_key(const char *p, size_t n)
{
	static const char *const keys[] = { "rows:", "time-origin-ns:",
	    "orphans:", "cycles-broken:", "cycle-broken:", NULL };

	for (int i = 0; keys[i]; i++)
		if (n >= strlen(keys[i]) && memcmp(p, keys[i], strlen(keys[i])) == 0)
			return 1;
	return 0;
}

/*
 * A "time-origin-ns: N" line's value into *origin (spans.h).  Returns 0,
 * 1 when the line has another key, or -1 after naming a bad value.
 */
static int
time_origin(const struct spans_reader *r, int64_t *origin)
{
	static const char key[] = "time-origin-ns:";
	int k = spans_time_origin(r->meta, r->nmeta, origin);

	if (k < 0) {
		const char *v = r->meta + sizeof key - 1, *e = r->meta + r->nmeta;
		char q[4 * 40 + 8];

		while (v < e && *v == ' ')
			v++;
		warn_at(r->in->name, r->line, "bad time-origin-ns (want ns within "
		    "2^62 of 0): %s", err_quote(q, v, (size_t)(e - v), 40));
	}
	return k;
}

static int
read_text(struct spanset *s, struct input *in)
{
	struct spans_reader r;
	struct spans_rec rec;
	int64_t origin = 0;
	int k;

	spans_reader_init(&r, in, SPANS_NOTES | SPANS_SAMPLES);
	while ((k = spans_next(&r, &rec)) > 0) {
		struct span *sp;

		if (k == SPANS_SAMPLE) {
			/* As a start: laid-out times are from the origin. */
			if (r.cols == 7)
				r.sample.time += origin;
			spanset_sample(s, &r.sample);
			continue;
		}
		if (k == SPANS_NOTE) {
			/* As a start: laid-out times are from the origin. */
			if (r.note.kind == SPANS_EVENT && r.cols == 7)
				r.note.num += origin;
			spanset_note(s, &r.note);
			continue;
		}

		if (k == SPANS_META) {
			if ((k = time_origin(&r, &origin)) < 0)
				break;
			if (!own_key(r.meta, r.nmeta))
				spanset_meta(s, r.meta, r.nmeta);
			continue;
		}
		/* Laid-out starts are from the origin (0 without one). */
		if (r.cols == 7 && origin != 0) {
			if ((origin > 0 && rec.start > SPAN_TIME_MAX - origin) ||
			    span_range_check(rec.start + origin, rec.dur) != SPAN_IN_RANGE) {
				warn_at(r.in->name, r.line, "span outside -2^62 to 2^62 "
				    "ns once time-origin-ns (%lld) is added",
				    (long long)origin);
				k = -1;
				break;
			}
			rec.start += origin;
		}
		sp = spanset_add(s);
		sp->line = r.line;
		sp->id = rec.id;
		sp->parent = rec.parent;
		sp->start = rec.start;
		sp->dur = rec.dur;
		sp->track = intern_put(&s->tracks, rec.track, rec.ntrack, NULL);
		sp->name = intern_put(&s->names, rec.name, rec.nname, NULL);
		if (rec.open) {
			sp->flags |= SPAN_OPEN;
			s->open_spans++;
		}
	}
	spans_reader_free(&r);
	return k < 0 ? -1 : 0;
}

int
spanset_read(struct spanset *s, const char *path, enum span_format fmt)
{
	struct input in;
	int c, r;

	if (input_open(&in, path, "\n") < 0)
		return -1;
	s->files = xrealloc(s->files, (s->nfiles + 1) * sizeof *s->files);
	s->files[s->nfiles++] = in.name;
	if (fmt == FMT_AUTO) {
		if ((c = input_peek(&in)) == -2) {
			input_close(&in);
			return -1;
		}
		if (c != '{' && c != '[')
			fmt = FMT_SPANS;
	}
	if (fmt == FMT_SPANS)
		r = read_text(s, &in);
	else
		r = spanset_read_json(s, &in, fmt);
	input_close(&in);
	return r;
}
