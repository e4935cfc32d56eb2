/*
 * spans: see spans.h for the design note.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "out.h"
#include "spans.h"

#define SHOWN 5			/* bad lines named before they are only counted */

enum span_range
span_range_check(int64_t start, uint64_t dur)
{
	if (start < SPAN_TIME_MIN || start > SPAN_TIME_MAX)
		return SPAN_START_OUT;
	/* SPAN_TIME_MAX - start is at most 2^63: it fits, unsigned. */
	if (dur > (uint64_t)SPAN_TIME_MAX - (uint64_t)start)
		return SPAN_END_OUT;
	return dur > (uint64_t)SPAN_TIME_MAX ? SPAN_TOO_LONG : SPAN_IN_RANGE;
}

const char *
span_range_what(enum span_range r)
{
	return r == SPAN_START_OUT ? "start outside -2^62 to 2^62 ns"
	    : r == SPAN_END_OUT ? "span ends past 2^62 ns"
	    : r == SPAN_TOO_LONG ? "span lasts more than 2^62 ns" : "in range";
}

size_t
spans_escape(char *d, const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\t' || c == '\n' || c == '\\') {
			d[k++] = '\\';
			c = c == '\t' ? 't' : c == '\n' ? 'n' : '\\';
		}
		d[k++] = c;
	}
	return k;
}

size_t
spans_unescape(char *d, const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n &&
		    (s[i + 1] == 't' || s[i + 1] == 'n' || s[i + 1] == '\\')) {
			i++;
			d[k++] = s[i] == 't' ? '\t' : s[i] == 'n' ? '\n' : '\\';
		} else
			d[k++] = s[i];
	}
	return k;
}

void
spans_put_escaped(const char *s, size_t n)
{
	char buf[2 * 256];

	for (size_t i = 0; i < n; i += 256) {
		size_t k = n - i < 256 ? n - i : 256;

		out_write(buf, spans_escape(buf, s + i, k));
	}
}

void
spans_put(const struct spans_rec *r, int rows)
{
	/*
	 * The line in one buffer and one write when it fits (trace-record and
	 * spanlayout write millions of lines; a write per field was a fifth of
	 * spanlayout's writing); a long track or name goes on by parts.
	 */
	char line[6 * NUM_U64_MAX + 512], *p = line;
	int whole = r->ntrack + 2 * r->nname <= 512 - 8;

	if (r->open && rows)
		out_str("# open\n");
	else if (r->open)
		out_fmt("# open: %llu\n", (unsigned long long)r->id);
	p += num_fmt_u64(p, r->id);
	*p++ = '\t';
	p += num_fmt_u64(p, r->parent);
	*p++ = '\t';
	if (r->start < 0)
		*p++ = '-';
	p += num_fmt_u64(p, r->start < 0 ? (uint64_t)0 - (uint64_t)r->start
	    : (uint64_t)r->start);
	*p++ = '\t';
	p += num_fmt_u64(p, r->dur);
	*p++ = '\t';
	if (whole) {
		memcpy(p, r->track, r->ntrack);
		p += r->ntrack;
	} else {
		out_write(line, (size_t)(p - line));
		out_write(r->track, r->ntrack);
		p = line;
	}
	*p++ = '\t';
	if (rows) {
		p += num_fmt_u64(p, r->row);
		*p++ = '\t';
	}
	if (whole) {
		p += spans_escape(p, r->name, r->nname);
		*p++ = '\n';
		out_write(line, (size_t)(p - line));
		return;
	}
	out_write(line, (size_t)(p - line));
	spans_put_escaped(r->name, r->nname);
	out_char('\n');
}

void
spans_put_sample(const struct spans_sample *x)
{
	out_str("# sample\t");
	out_u64(x->id);
	out_char('\t');
	out_i64(x->time);
	out_char('\t');
	out_write(x->track, x->ntrack);
	out_char('\t');
	out_u64(x->weight);
	out_char('\t');
	out_write(x->event, x->nevent);
	out_char('\t');
	spans_put_escaped(x->stack, x->nstack);
	out_char('\n');
}

void
spans_put_note(const struct spans_note *n)
{
	static const char *const kw[] = { [SPANS_PROP] = "# prop\t",
	    [SPANS_PROP_INT] = "# prop-int\t", [SPANS_EVENT] = "# event\t" };

	out_str(kw[n->kind]);
	out_u64(n->id);
	out_char('\t');
	if (n->kind == SPANS_EVENT) {
		out_i64(n->num);
		out_char('\t');
		spans_put_escaped(n->key, n->nkey);
	} else {
		spans_put_escaped(n->key, n->nkey);
		out_char('\t');
		if (n->kind == SPANS_PROP)
			spans_put_escaped(n->val, n->nval);
		else
			out_i64(n->num);
	}
	out_char('\n');
}

void
spans_reader_init(struct spans_reader *r, struct input *in, unsigned flags)
{
	memset(r, 0, sizeof *r);
	r->in = in;
	r->flags = flags;
	r->cols = 6;
}

void
spans_reader_free(struct spans_reader *r)
{
	if (r->skipped)
		warn_at(r->in->name, 0, "skipped %llu span line%s",
		    (unsigned long long)r->skipped, r->skipped == 1 ? "" : "s");
	free(r->pend);
	free(r->name);
	free(r->nbuf);
}

/* A bad line: what (ending in ':' when f is quoted), by the policy. */
static int
bad(struct spans_reader *r, const char *what, const char *f, size_t n)
{
	char q[4 * 40 + 8];

	if (f)
		err_quote(q, f, n, 40);
	if (!(r->flags & SPANS_SKIP_BAD)) {
		warn_at(r->in->name, r->line, "%s%s%s", what, f ? " " : "",
		    f ? q : "");
		return -1;
	}
	if (r->skipped++ < SHOWN)
		warn_at(r->in->name, r->line, "skipped span: %s%s%s", what,
		    f ? " " : "", f ? q : "");
	return 0;
}

int
spans_reject(struct spans_reader *r, enum spans_field f, const char *what)
{
	char w[128];
	int k = f == SPANS_NAME ? r->cols - 1 : (int)f;

	snprintf(w, sizeof w, "%s:", what);
	return bad(r, w, r->f[k], r->fn[k]);
}

/* num_parse_u64 takes digits only: no sign, no blank. */
static int
parse_u64(const char *f, size_t n, uint64_t *v)
{
	if (n == 0 || n >= NUM_U64_MAX)
		return -1;
	return num_parse_u64(f, n, v);
}

static int
parse_i64(const char *f, size_t n, int64_t *v)
{
	uint64_t u;
	int neg = n > 0 && f[0] == '-';

	if (neg)
		f++, n--;
	if (parse_u64(f, n, &u) < 0 || u > (uint64_t)INT64_MAX + neg)
		return -1;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

/*
 * Split l[0..n) into r->cols fields, NAME the rest; check the numbers
 * into rec.  Returns 0, or what bad() returned.
 */
static int
parse_span(struct spans_reader *r, const char *l, size_t n,
    struct spans_rec *rec)
{
	const char *p = l, *e = l + n, **f = r->f;
	size_t *fn = r->fn;
	enum span_range rg;
	int i, last = r->cols - 1;

	for (i = 0; i < last; i++) {
		const char *t = memchr(p, '\t', (size_t)(e - p));

		if (t == NULL) {
			char what[64];

			snprintf(what, sizeof what, "expected %d tab-separated "
			    "fields, found %d", r->cols, i + 1);
			return bad(r, what, NULL, 0) < 0 ? -1 : 1;
		}
		f[i] = p;
		fn[i] = (size_t)(t - p);
		p = t + 1;
	}
	f[last] = p;
	fn[last] = (size_t)(e - p);
	if (parse_u64(f[0], fn[0], &rec->id) < 0 || rec->id == 0)
		return bad(r, "bad ID (want 1 to 2^64-1):", f[0], fn[0]) < 0 ? -1 : 1;
	if (parse_u64(f[1], fn[1], &rec->parent) < 0)
		return bad(r, "bad PARENT:", f[1], fn[1]) < 0 ? -1 : 1;
	if (parse_i64(f[2], fn[2], &rec->start) < 0)
		return bad(r, "bad START_NS:", f[2], fn[2]) < 0 ? -1 : 1;
	if (rec->start < 0 && (r->flags & SPANS_LAID_OUT))
		return bad(r, "bad START_NS (want ns from the trace's start, as "
		    "spanlayout writes it):", f[2], fn[2]) < 0 ? -1 : 1;
	if (parse_u64(f[3], fn[3], &rec->dur) < 0)
		return bad(r, "bad DURATION_NS (want an unsigned integer):",
		    f[3], fn[3]) < 0 ? -1 : 1;
	if ((rg = span_range_check(rec->start, rec->dur)) != SPAN_IN_RANGE) {
		char what[64];
		int k = rg == SPAN_START_OUT ? 2 : 3;

		snprintf(what, sizeof what, "%s:", span_range_what(rg));
		return bad(r, what, f[k], fn[k]) < 0 ? -1 : 1;
	}
	rec->row = 0;
	if (r->cols == 7 && parse_u64(f[5], fn[5], &rec->row) < 0)
		return bad(r, "bad ROW:", f[5], fn[5]) < 0 ? -1 : 1;
	rec->track = fn[4] ? f[4] : "-";
	rec->ntrack = fn[4] ? fn[4] : 1;
	/* Most names have nothing to unescape: the line's bytes will do. */
	if (memchr(f[last], '\\', fn[last]) == NULL) {
		rec->name = f[last];
		rec->nname = fn[last];
		return 0;
	}
	if (fn[last] >= r->capname) {	/* never NULL, even for an empty NAME */
		r->capname = fn[last] * 2 + 64;
		r->name = xrealloc(r->name, r->capname);
	}
	rec->name = r->name;
	rec->nname = spans_unescape(r->name, f[last], fn[last]);
	return 0;
}

/*
 * A sample line, c[0..n) without "# sample\t", into r->sample.  Returns
 * SPANS_SAMPLE, or what bad() returned.
 */
static int
parse_sample(struct spans_reader *r, const char *c, size_t n)
{
	const char *f[6], *p = c, *e = c + n;
	size_t fn[6];
	struct spans_sample *x = &r->sample;

	for (int i = 0; i < 5; i++) {
		const char *t = memchr(p, '\t', (size_t)(e - p));

		if (t == NULL)
			return bad(r, "expected 7 tab-separated fields in a sample "
			    "line", NULL, 0);
		f[i] = p;
		fn[i] = (size_t)(t - p);
		p = t + 1;
	}
	f[5] = p;
	fn[5] = (size_t)(e - p);
	if (parse_u64(f[0], fn[0], &x->id) < 0)
		return bad(r, "bad ID (want 0 to 2^64-1):", f[0], fn[0]);
	if (parse_i64(f[1], fn[1], &x->time) < 0 ||
	    span_range_check(x->time, 0) != SPAN_IN_RANGE)
		return bad(r, "bad TIME_NS (want ns within 2^62 of 0):", f[1], fn[1]);
	if (parse_u64(f[3], fn[3], &x->weight) < 0)
		return bad(r, "bad WEIGHT (want 0 to 2^64-1):", f[3], fn[3]);
	x->track = fn[2] ? f[2] : "-";
	x->ntrack = fn[2] ? fn[2] : 1;
	x->event = f[4];
	x->nevent = fn[4];
	if (fn[5] + 1 > r->capnbuf) {
		r->capnbuf = fn[5] * 2 + 64;
		r->nbuf = xrealloc(r->nbuf, r->capnbuf);
	}
	x->stack = r->nbuf;
	x->nstack = spans_unescape(r->nbuf, f[5], fn[5]);
	return SPANS_SAMPLE;
}

/*
 * A property or event line, c[0..n) without "# ", into r->note.  Returns
 * SPANS_NOTE, or what bad() returned.
 */
static int
parse_note(struct spans_reader *r, const char *c, size_t n)
{
	const char *f[4], *p = c, *e = c + n;
	size_t fn[4];
	struct spans_note *nt = &r->note;
	int i;

	for (i = 0; i < 3; i++) {
		const char *t = memchr(p, '\t', (size_t)(e - p));

		if (t == NULL)
			return bad(r, "expected 4 tab-separated fields in a "
			    "property or event line", NULL, 0);
		f[i] = p;
		fn[i] = (size_t)(t - p);
		p = t + 1;
	}
	f[3] = p;
	fn[3] = (size_t)(e - p);
	nt->kind = fn[0] == 4 ? SPANS_PROP : fn[0] == 8 ? SPANS_PROP_INT : SPANS_EVENT;
	if (parse_u64(f[1], fn[1], &nt->id) < 0 || nt->id == 0)
		return bad(r, "bad ID (want 1 to 2^64-1):", f[1], fn[1]);
	if (nt->kind == SPANS_EVENT &&
	    (parse_i64(f[2], fn[2], &nt->num) < 0 ||
	    span_range_check(nt->num, 0) != SPAN_IN_RANGE))
		return bad(r, "bad TIME_NS (want ns within 2^62 of 0):", f[2], fn[2]);
	if (nt->kind == SPANS_PROP_INT && parse_i64(f[3], fn[3], &nt->num) < 0)
		return bad(r, "bad integer property:", f[3], fn[3]);
	if (fn[2] + fn[3] + 2 > r->capnbuf) {
		r->capnbuf = (fn[2] + fn[3]) * 2 + 64;
		r->nbuf = xrealloc(r->nbuf, r->capnbuf);
	}
	/* The key (or an event's name) first, the value after it. */
	int k = nt->kind == SPANS_EVENT ? 3 : 2;

	nt->key = r->nbuf;
	nt->nkey = spans_unescape(r->nbuf, f[k], fn[k]);
	nt->val = r->nbuf + nt->nkey;
	nt->nval = nt->kind == SPANS_PROP ?
	    spans_unescape(r->nbuf + nt->nkey, f[3], fn[3]) : 0;
	return SPANS_NOTE;
}

/* Whether c[0..n) starts with the literal p. */
#define STARTS(c, n, p) ((n) >= sizeof p - 1 && memcmp(c, p, sizeof p - 1) == 0)

/* Give the undecided "open: N" as metadata, keeping line l for next time. */
static int
pend_meta(struct spans_reader *r, const char *l, size_t n)
{
	r->held = l;
	r->nheld = n;
	r->meta = r->pend;
	r->nmeta = r->npend;
	r->npend = 0;
	r->open = 0;
	return SPANS_META;
}

/*
 * A comment, c[0..n) without "#" and one blank: a version line, a mark
 * or metadata.  Returns SPANS_META, -1 on an error, 0 to read on.
 */
static int
comment(struct spans_reader *r, const char *c, size_t n)
{
	uint64_t id;

	if (n == 8 && memcmp(c, "spans v1", 8) == 0) {
		if (r->flags & SPANS_LAID_OUT) {
			warn_at(r->in->name, r->line, "not laid-out spans: "
			    "\"# spans v1\" (run spanlayout first)");
			return -1;
		}
		r->cols = 6;
		r->revision = 1;
		r->vline = r->line;
	} else if (n == 13 && memcmp(c, "spanlayout v1", 13) == 0) {
		r->cols = 7;
		r->revision = 1;
		r->vline = r->line;
	} else if (STARTS(c, n, "spans-revision: ")) {
		/* A later revision adds lines this one skips: read on. */
		r->revision = parse_u64(c + 16, n - 16, &id) < 0 || id < 2 ? 1 :
		    id >= 3 ? 3 : 2;
	} else if (r->revision >= 3 && STARTS(c, n, "sample\t")) {
		if (!(r->flags & SPANS_SAMPLES))
			return 0;
		int k = parse_sample(r, c + 7, n - 7);

		return k == SPANS_SAMPLE ? k : k < 0 ? -1 : 0;
	} else if (r->revision >= 2 && (STARTS(c, n, "prop\t") ||
	    STARTS(c, n, "prop-int\t") || STARTS(c, n, "event\t"))) {
		if (!(r->flags & SPANS_NOTES))
			return 0;
		int k = parse_note(r, c, n);

		return k == SPANS_NOTE ? k : k < 0 ? -1 : 0;
	} else if ((n > 7 && memcmp(c, "spans v", 7) == 0) ||
	    (n > 12 && memcmp(c, "spanlayout v", 12) == 0)) {
		warn_at(r->in->name, r->line, "unsupported format version");
		return -1;
	} else if (n == 4 && memcmp(c, "open", 4) == 0)
		r->open = 1;
	else if (n > 6 && memcmp(c, "open: ", 6) == 0 &&
	    parse_u64(c + 6, n - 6, &id) == 0) {
		if (n > r->cappend) {
			r->cappend = n + 32;
			r->pend = xrealloc(r->pend, r->cappend);
		}
		memcpy(r->pend, c, n);
		r->npend = n;
		r->pend_id = id;
		r->open = 1;
	} else if (memchr(c, ':', n)) {
		r->meta = c;
		r->nmeta = n;
		return SPANS_META;
	}
	return 0;
}

int
spans_time_origin(const char *meta, size_t n, int64_t *origin)
{
	static const char key[] = "time-origin-ns:";
	const char *p = meta + sizeof key - 1, *e = meta + n;
	int64_t v;

	if (!STARTS(meta, n, key))
		return 1;
	while (p < e && *p == ' ')
		p++;
	if (parse_i64(p, (size_t)(e - p), &v) < 0 ||
	    span_range_check(v, 0) != SPAN_IN_RANGE)
		return -1;
	*origin = v;
	return 0;
}

int
spans_is_meta(const char *s, size_t n)
{
	/* As comment() reads them: these are lines of the format. */
	return memchr(s, ':', n) && !memchr(s, '\n', n) &&
	    !STARTS(s, n, "spans v") && !STARTS(s, n, "spanlayout v") &&
	    !STARTS(s, n, "spans-revision: ") && !STARTS(s, n, "sample\t") &&
	    !STARTS(s, n, "prop\t") && !STARTS(s, n, "prop-int\t") &&
	    !STARTS(s, n, "event\t");
}

int
spans_next(struct spans_reader *r, struct spans_rec *rec)
{
	const char *l;
	size_t n;
	int k;

	for (;;) {
		if (r->held) {
			l = r->held;
			n = r->nheld;
			r->held = NULL;
		} else {
			if ((k = input_getline(r->in, &l, &n)) < 0)
				return -1;
			if (k == 0) {
				if (r->npend)
					return pend_meta(r, NULL, 0);
				if (r->line == 0 && (r->flags & SPANS_LAID_OUT)) {
					warn_at(r->in->name, 0, "empty input: no \""
					    SPANS_LAID_OUT_MAGIC "\" line");
					return -1;
				}
				return SPANS_END;
			}
			r->line++;
			if (r->line == 1 && (r->flags & SPANS_LAID_OUT)) {
				size_t m = sizeof SPANS_LAID_OUT_MAGIC - 1;

				/* As flamegraph-svg recognizes it: a CR may end it. */
				if (n < m || memcmp(l, SPANS_LAID_OUT_MAGIC, m) != 0 ||
				    (n > m && l[m] != '\r')) {
					warn_at(r->in->name, 1, "not laid-out spans: the "
					    "first line is not \"" SPANS_LAID_OUT_MAGIC
					    "\" (run spanlayout first)");
					return -1;
				}
				r->cols = 7;
				continue;
			}
		}
		if (n == 0)
			continue;
		if (l[0] == '#') {
			if (r->npend)
				return pend_meta(r, l, n);
			l++, n--;
			if (n && *l == ' ')
				l++, n--;
			if ((k = comment(r, l, n)) != 0)
				return k;
			continue;
		}
		if ((k = parse_span(r, l, n, rec)) < 0)
			return -1;
		if (k > 0) {
			/* Skipped: it was no span for a mark to mark. */
			if (r->npend)
				return pend_meta(r, NULL, 0);
			r->open = 0;
			continue;
		}
		if (r->npend) {
			/* trace-record's mark of this span, or a count after all */
			if (r->pend_id != rec->id)
				return pend_meta(r, l, n);
			r->npend = 0;
		}
		rec->open = r->open;
		r->open = 0;
		return SPANS_SPAN;
	}
}
