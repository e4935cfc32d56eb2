/*
 * flamebearer: Pyroscope's profile JSON read back into stacks: a file
 * that Pyroscope's UI exports, a /render or /render-diff response, or
 * what stackcollapse --to=flamebearer writes (flamebearerout.c).
 *
 *	curl "$PYROSCOPE/render?query=app.cpu&format=json" | stackcollapse
 *
 * flamebearer.names[] holds the names and flamebearer.levels[d] the bars
 * of depth d, four numbers each (offset as a gap from the end of the
 * bar before, total, self, name index) or, when metadata.format is
 * "double", seven (left offset, total, self; right offset, total, self;
 * name).  Row 0 is the root ("total"), which is no frame.  A bar's
 * parent is the bar below whose span holds it (bars.c); in a double
 * profile the span is the two sides' added, which nests as each side
 * does.  A frame's weight is its total less its children's, so that a
 * tree cut by Pyroscope's maxNodes keeps its total; the self field is
 * not needed.  A double profile gives two columns, as --diff writes.
 * The keys may come in any order (metadata after the levels), so the
 * levels are kept as numbers until the end; numbers that are not whole
 * (a negative gap: offsets that run backwards), a row whose length is
 * not a multiple of the bar, and a name index outside names are errors
 * at their line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/json.h"
#include "bars.h"
#include "formats.h"

struct fb {
	struct reader *r;
	struct json j;
	struct bars b;
	uint32_t *nameid;	/* names[i] as an id in b.names */
	size_t nnames, ncap;
	uint64_t *v;		/* every level's numbers, in order */
	size_t nv, vcap;
	uint64_t *vline, *voff;	/* the line and byte offset of each number */
	size_t vlcap, vocap;
	size_t *rowend;		/* level d ends at v[rowend[d]] */
	size_t nrows, rcap;
	int dbl, names_seen, levels_seen;
};

/*
 * An error while reading, at its line; on the first line, where one-line
 * JSON (what Pyroscope serves) has everything, at its byte offset.
 */
static int
bad(struct fb *f, const char *what)
{
	uint64_t line = f->j.err ? f->j.errline : f->j.line;
	uint64_t off = f->j.err ? f->j.erroff : json_offset(&f->j);

	if (f->j.err)
		what = f->j.err;
	if (line == 1)
		warn_at(f->r->name, 0, "byte %llu: %s", (unsigned long long)off,
		    what);
	else
		warn_at(f->r->name, line, "%s", what);
	return -1;
}

/* An error in the levels read, at the line or byte of their k-th number. */
static int bad_at(struct fb *f, size_t k, const char *fmt, ...) PRINTFLIKE(3, 4);

static int
bad_at(struct fb *f, size_t k, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (f->b.at_byte) {
		f->r->line = 0;
		return rd_fail(f->r, "byte %llu: %s", (unsigned long long)
		    (k < f->nv ? f->voff[k] : json_offset(&f->j)), msg);
	}
	f->r->line = k < f->nv ? f->vline[k] : 0;
	return rd_fail(f->r, "%s", msg);
}

static int
names(struct fb *f)
{
	enum json_tok t;

	while ((t = json_next(&f->j)) == JSON_STR) {
		f->nameid = xgrow(f->nameid, &f->ncap, f->nnames + 1,
		    sizeof *f->nameid);
		f->nameid[f->nnames++] = intern_put(&f->b.names, f->j.s, f->j.n,
		    NULL);
	}
	f->names_seen = 1;
	return t == JSON_ARR_END ? 0 : bad(f, "names: expected strings");
}

static int
levels(struct fb *f)
{
	enum json_tok t;

	while ((t = json_next(&f->j)) == JSON_ARR) {
		while ((t = json_next(&f->j)) == JSON_NUM) {
			uint64_t v;

			if (json_u64(f->j.s, f->j.n, &v) < 0)
				return bad(f, f->j.s[0] == '-' ? "levels: a "
				    "negative number (offsets that run "
				    "backwards?)" : "levels: expected whole "
				    "numbers below 2^64");
			f->v = xgrow(f->v, &f->vcap, f->nv + 1, sizeof *f->v);
			f->vline = xgrow(f->vline, &f->vlcap, f->nv + 1,
			    sizeof *f->vline);
			f->voff = xgrow(f->voff, &f->vocap, f->nv + 1,
			    sizeof *f->voff);
			f->vline[f->nv] = f->j.line;
			f->voff[f->nv] = json_offset(&f->j) - f->j.n;
			f->v[f->nv++] = v;
		}
		if (t != JSON_ARR_END)
			return bad(f, "levels: expected arrays of numbers");
		f->rowend = xgrow(f->rowend, &f->rcap, f->nrows + 1,
		    sizeof *f->rowend);
		f->rowend[f->nrows++] = f->nv;
	}
	f->levels_seen = 1;
	return t == JSON_ARR_END ? 0 : bad(f, "levels: expected arrays");
}

/* An object whose keys this reader wants: key and what to do with it. */
static int
object(struct fb *f, int depth)
{
	enum json_tok t;

	while ((t = json_next(&f->j)) == JSON_KEY) {
		char key[16];
		int r = 0;

		snprintf(key, sizeof key, "%.*s", (int)f->j.n, f->j.s);
		t = json_next(&f->j);
		if (depth == 0 && t == JSON_OBJ && (strcmp(key, "flamebearer") == 0 ||
		    strcmp(key, "metadata") == 0))
			r = object(f, 1);
		else if (depth == 1 && t == JSON_ARR && strcmp(key, "names") == 0)
			r = names(f);
		else if (depth == 1 && t == JSON_ARR && strcmp(key, "levels") == 0)
			r = levels(f);
		else if (depth == 1 && t == JSON_STR && strcmp(key, "format") == 0)
			f->dbl = f->j.n == 6 && memcmp(f->j.s, "double", 6) == 0;
		else if (json_skip(&f->j, t) < 0)
			r = bad(f, "bad JSON");
		if (r < 0)
			return -1;
	}
	return t == JSON_OBJ_END ? 0 : bad(f, "bad JSON");
}

/* Add a + b to *s; -1 if it does not fit. */
static int
sum(struct count *s, uint64_t a, uint64_t b)
{
	struct count cb = { b, 0 };

	*s = (struct count){ a, 0 };
	return count_add(s, &cb);
}

/* The levels as bars: each side's offsets from its gaps. */
static int
make_bars(struct fb *f)
{
	size_t step = f->dbl ? 7 : 4, from = 0;

	/* levels on one line: bars are placed by byte (bars.h) */
	f->b.at_byte = f->nv > 0 && f->vline[f->nv - 1] == 1;

	for (size_t d = 0; d < f->nrows; d++) {
		uint64_t end[2] = { 0, 0 };

		if ((f->rowend[d] - from) % step)
			return bad_at(f, from, "levels[%zu]: %zu numbers, not a "
			    "multiple of %zu (a bar's)", d, f->rowend[d] - from,
			    step);
		for (size_t k = from; k < f->rowend[d]; k += step) {
			const uint64_t *v = f->v + k;
			uint64_t name = v[step - 1], off[2];
			struct bar *x;

			if (name >= f->nnames)
				return bad_at(f, k, "levels[%zu]: name index "
				    "%llu outside names (%zu of them)", d,
				    (unsigned long long)name, f->nnames);
			for (int c = 0; c < (f->dbl ? 2 : 1); c++) {
				if (v[3 * c] > UINT64_MAX - end[c] ||
				    end[c] + v[3 * c] > UINT64_MAX - v[3 * c + 1])
					return bad_at(f, k, "levels[%zu]: an "
					    "offset past 2^64", d);
				off[c] = end[c] + v[3 * c];
				end[c] = off[c] + v[3 * c + 1];
			}
			x = bars_add(&f->b, "", 0, (uint32_t)d, f->b.at_byte ?
			    f->voff[k] : f->vline[k]);
			x->name = f->nameid[name];
			x->tot[0] = (struct count){ v[1], 0 };
			if (f->dbl) {
				x->tot[1] = (struct count){ v[4], 0 };
				if (sum(&x->start, off[0], off[1]) < 0 ||
				    sum(&x->w, v[1], v[4]) < 0)
					return bad_at(f, k, "levels[%zu]: an "
					    "offset past 2^64", d);
			} else {
				x->start = (struct count){ off[0], 0 };
				x->w = x->tot[0];
			}
		}
		from = f->rowend[d];
	}
	return 0;
}

static int
flamebearer_collapse(struct reader *r)
{
	struct fb f;
	struct count *self[2] = { NULL, NULL };
	int ret;

	memset(&f, 0, sizeof f);
	f.r = r;
	bars_init(&f.b);
	json_init(&f.j, r->in);
	if (json_next(&f.j) != JSON_OBJ)
		ret = bad(&f, "not a flamebearer profile: expected an object");
	else
		ret = object(&f, 0);
	if (ret == 0 && json_next(&f.j) != JSON_END)
		ret = bad(&f, "text after the JSON document");
	if (ret == 0 && (!f.names_seen || !f.levels_seen))
		ret = bad(&f, "not a flamebearer profile: no flamebearer.names "
		    "or flamebearer.levels");
	if (ret == 0)
		ret = make_bars(&f);
	if (ret == 0)
		ret = bars_nest(&f.b, r);
	for (int c = 0; ret == 0 && c < (f.dbl ? 2 : 1); c++) {
		self[c] = xmalloc((f.b.n + 1) * sizeof *self[c]);
		ret = bars_self(&f.b, r, c, self[c]);
	}
	if (ret == 0)
		bars_emit(&f.b, r, self[0], self[1]);
	free(self[0]);
	free(self[1]);
	json_free(&f.j);
	bars_free(&f.b);
	free(f.nameid);
	free(f.v);
	free(f.vline);
	free(f.voff);
	free(f.rowend);
	return ret;
}

static int
flamebearer_detect(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && strchr(" \t\r\n", p[i]))
		i++;
	return i < n && p[i] == '{' &&
	    memmem(p, n, "\"flamebearer\"", 13) != NULL &&
	    (memmem(p, n, "\"levels\"", 8) != NULL ||
	    memmem(p, n, "\"names\"", 7) != NULL);
}

const struct format flamebearer_format = {
	.name = "flamebearer",
	.detect = flamebearer_detect,
	.collapse = flamebearer_collapse,
	.all_or_nothing = 1,
};
