/*
 * spans: the span set, format detection, and the spans(5) text reader.
 *
 * The text reader is strict: a line that is not a span (too few fields,
 * a start that is not a number, a negative duration) stops the run with
 * its file and line, because a span left out would silently re-parent
 * its children.  Files written by spanlayout itself ("# spanlayout v1")
 * are read too, their DEPTH column ignored, so a laid-out file can be
 * edited with grep and laid out again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/input.h"
#include "../lib/num.h"
#include "../lib/spanrange.h"
#include "spans.h"

void
spanset_init(struct spanset *s)
{
	memset(s, 0, sizeof *s);
	intern_init(&s->names);
	intern_init(&s->tracks);
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

/* The next tab-separated field of [*p, e), or the rest when last. */
static int
field(const char **p, const char *e, const char **f, size_t *n, int last)
{
	const char *t;

	if (*p > e)
		return -1;
	t = last ? e : memchr(*p, '\t', (size_t)(e - *p));
	if (t == NULL)
		return -1;
	*f = *p;
	*n = (size_t)(t - *p);
	*p = t + 1;
	return 0;
}

static int
parse_i64(const char *f, size_t n, int64_t *v)
{
	uint64_t u;
	int neg = n > 0 && f[0] == '-';

	if (neg)
		f++, n--;
	if (n == 0 || n >= NUM_U64_MAX || strspn(f, "0123456789") < n ||
	    num_parse_u64(f, n, &u) < 0)
		return -1;
	if (u > (uint64_t)INT64_MAX + neg)
		return -1;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

static int
parse_u64(const char *f, size_t n, uint64_t *v)
{
	if (n == 0 || n >= NUM_U64_MAX || strspn(f, "0123456789") < n)
		return -1;
	return num_parse_u64(f, n, v);
}

/* spans(5) NAME escapes undone: \t, \n, \\; any other backslash stays. */
static size_t
unescape(char *d, const char *s, size_t n)
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

static int
bad(const char *path, uint64_t line, const char *what, const char *f, size_t n)
{
	char q[4 * 40 + 8];

	warn_at(path, line, "%s %s", what, err_quote(q, f, n, 40));
	return -1;
}

/*
 * "# open: X" is either trace-record's mark of the span on the next line
 * (X its ID) or the count of open spans in its header, metadata to pass
 * on: which one is known at the next line.
 */
struct pending {
	char *text;		/* the comment without "# ", when undecided */
	size_t n, cap;
	uint64_t id;
};

static void
pending_flush(struct spanset *s, struct pending *pd)
{
	if (pd->text && pd->n)
		spanset_meta(s, pd->text, pd->n);
	pd->n = 0;
}

static int
read_text(struct spanset *s, struct input *in, const char *path)
{
	const char *l;
	size_t len, cap = 0;
	uint64_t line = 0;
	int r, cols = 6, open = 0;
	char *name = NULL;
	struct pending pd = { NULL, 0, 0, 0 };

	while ((r = input_getline(in, &l, &len)) > 0) {
		const char *p = l, *e = l + len, *f[7];
		size_t fn[7];
		struct span *sp;
		enum span_range rg;
		int i;

		line++;
		if (len == 0)
			continue;
		if (l[0] == '#') {
			const char *c = l + 1;
			size_t cn = len - 1;

			if (pd.n) {
				pending_flush(s, &pd);
				open = 0;
			}
			if (cn && *c == ' ')
				c++, cn--;
			if (cn == 8 && memcmp(c, "spans v1", 8) == 0)
				cols = 6;
			else if (cn == 13 && memcmp(c, "spanlayout v1", 13) == 0)
				cols = 7;
			else if ((cn > 7 && memcmp(c, "spans v", 7) == 0) ||
			    (cn > 12 && memcmp(c, "spanlayout v", 12) == 0)) {
				warn_at(path, line, "unsupported format version");
				free(name);
				free(pd.text);
				return -1;
			} else if (cn == 4 && memcmp(c, "open", 4) == 0)
				open = 1;
			else if (cn > 6 && memcmp(c, "open: ", 6) == 0 &&
			    parse_u64(c + 6, cn - 6, &pd.id) == 0) {
				if (cn > pd.cap) {
					pd.cap = cn + 32;
					pd.text = xrealloc(pd.text, pd.cap);
				}
				memcpy(pd.text, c, cn);
				pd.n = cn;
				open = 1;
			} else if (memchr(c, ':', cn) && !own_key(c, cn))
				spanset_meta(s, c, cn);
			continue;
		}
		for (i = 0; i < cols; i++)
			if (field(&p, e, &f[i], &fn[i], i == cols - 1) < 0) {
				warn_at(path, line, "expected %d tab-separated fields, "
				    "found %d", cols, i + 1);
				free(name);
				free(pd.text);
				return -1;
			}
		sp = spanset_add(s);
		sp->line = line;
		if (parse_u64(f[0], fn[0], &sp->id) < 0 || sp->id == 0)
			r = bad(path, line, "bad ID (want 1 to 2^64-1):", f[0], fn[0]);
		else if (parse_u64(f[1], fn[1], &sp->parent) < 0)
			r = bad(path, line, "bad PARENT:", f[1], fn[1]);
		else if (parse_i64(f[2], fn[2], &sp->start) < 0)
			r = bad(path, line, "bad START_NS:", f[2], fn[2]);
		else if (parse_u64(f[3], fn[3], &sp->dur) < 0)
			r = bad(path, line, "bad DURATION_NS (want an unsigned "
			    "integer):", f[3], fn[3]);
		else if ((rg = span_range_check(sp->start, sp->dur)) != SPAN_IN_RANGE) {
			char what[64];
			int k = rg == SPAN_START_OUT ? 2 : 3;

			snprintf(what, sizeof what, "%s:", span_range_what(rg));
			r = bad(path, line, what, f[k], fn[k]);
		}
		if (r < 0) {
			free(name);
			free(pd.text);
			return -1;
		}
		if (pd.n) {
			/* trace-record's mark of this span, or a count after all */
			if (pd.id != sp->id) {
				pending_flush(s, &pd);
				open = 0;
			}
			pd.n = 0;
		}
		if (fn[4] == 0)
			f[4] = "-", fn[4] = 1;
		sp->track = intern_put(&s->tracks, f[4], fn[4], NULL);
		if (fn[cols - 1] >= cap) {
			cap = fn[cols - 1] * 2 + 64;
			name = xrealloc(name, cap);
		}
		sp->name = intern_put(&s->names, name,
		    unescape(name, f[cols - 1], fn[cols - 1]), NULL);
		if (open) {
			sp->flags |= SPAN_OPEN;
			s->open_spans++;
			open = 0;
		}
	}
	pending_flush(s, &pd);
	free(name);
	free(pd.text);
	return r < 0 ? -1 : 0;
}

int
spans_read(struct spanset *s, const char *path, enum span_format fmt)
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
		r = read_text(s, &in, in.name);
	else
		r = spans_read_json(s, &in, fmt);
	input_close(&in);
	return r;
}
