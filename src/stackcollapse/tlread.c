/*
 * tlread: flamegraph-svg's timeline SVG read back into the laid-out spans
 * it was drawn from (stackcollapse --to=spans): spans(5) in the form
 * spanlayout(1) writes, "# spanlayout v1", with ROW.
 *
 *	stackcollapse --to=spans run.svg | spanlayout --fold | flamegraph-svg
 *
 * The spans come from the JSON block the timeline embeds for its script
 * (timeline.c's write_data), decoded as timeline.js decodes it: per row,
 * start deltas, names and tracks as indexes into tables (a row's track
 * once when all its spans share it, rowtrack -1 when not), parents as 0
 * (none), 1 (the span of the row above whose end is the first past my
 * start, which must hold it) or a position in that order plus 2; open
 * spans by position; string and integer properties and events as
 * [position, key, value] triples, an event's time after its span's start;
 * a span profile's samples as spanflame.js decodes them (check_samples);
 * the time origin and the other metadata comments, written back as
 * spanlayout writes them, so that the file drawn comes back whole.
 * Keys this reader does not know are skipped, so that what later
 * timelines add to the block reads as before; those it knows and an
 * older timeline lacks (origin, meta, evnames, sevent) are left out of
 * what it writes (a sample's EVENT is then empty).
 *
 * What the block does not keep cannot come back: the spans' ids (they are
 * numbered 1, 2, ... in a preorder, parents first, roots and each span's
 * children in spanlayout's order of siblings, cmp_sib: on gen.c's traces
 * the spans come out in spanlayout's order, but for the roots of
 * --by-track bands, which come by start here, by band there), so a
 * sample's ID that named no span of the file is 0; "# cycle-broken"
 * lines, which name old ids; the order of samples (time order here);
 * and the order of a span's notes across kinds: its string properties
 * come first, then integer ones, then events, each kind in its order.
 * Metadata that would not read back as metadata (spans_is_meta), or
 * that repeats the origin or the rows written from the data, is an
 * error like any bad value: a hostile block must not inject lines.
 *
 * Everything is checked before a line is written, so a bad SVG writes
 * nothing: "file:line: what", the line of the key whose value is wrong,
 * or "byte N" when the block is one line.  Rejected: writing the
 * spans read so far (a file of spans without some of them looks whole,
 * and their children would lose their parents).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/json.h"
#include "../lib/out.h"
#include "../lib/sort.h"
#include "../lib/spans.h"
#include "svgread.h"
#include "tlread.h"

/* Strings of a table, by index: names, tracks, keys, values. */
struct strs {
	char *buf;
	size_t len, cap;
	size_t *off;		/* string i is buf[off[i] .. off[i + 1]) */
	size_t n, ocap;
	uint64_t line, at;	/* where its value starts */
};

/* A number array of the block, and where its value starts. */
struct arr {
	union {
		int64_t *v;
		uint64_t *u;	/* sweight's: a weight is unsigned */
	};
	size_t n, cap;
	int seen;
	int once;		/* one number, for all (sweight, sevent) */
	uint64_t line, off;
};

enum { NAMES, TRACKS, KEYS, VALS, FNAMES, EVNAMES, META, NTABLES };
enum { ROWLEN, START, DUR, NAME, ROWTRACK, TRACK, PARENT, OPEN, SPROPS,
    IPROPS, EVENTS, SNODE, STIME, SSPAN, STRACK, SSTACK, SWEIGHT, SEVENT,
    NARRAYS };

static const char *const table_key[NTABLES] = { "names", "tracks", "keys",
    "vals", "fnames", "evnames", "meta" };
static const char *const array_key[NARRAYS] = { "rowlen", "start", "dur",
    "name", "rowtrack", "track", "parent", "open", "sprops", "iprops",
    "events", "snode", "stime", "sspan", "strack", "sstack", "sweight",
    "sevent" };

struct tl {
	struct reader *r;
	struct svg_block b;
	int oneline;		/* the block has no newline: say bytes */
	struct json j;
	struct strs t[NTABLES];
	struct arr a[NARRAYS];
	/* Decoded, by position in the block's order (row, then start). */
	size_t n;
	int64_t *start;
	uint32_t *row, *parent, *track;	/* parent: TL_ROOT for a root */
	uint8_t *open;
	size_t nsamples;	/* the length of stime; 0 without samples */
	int64_t *stime;		/* from the origin */
	int64_t origin;		/* "origin", if has_origin */
	int has_origin;
};

#define TL_ROOT UINT32_MAX

/* "what" at line (or at byte off of the block when it is one line); -1. */
static int
bad(struct tl *t, uint64_t line, uint64_t off, const char *what)
{
	if (t->oneline) {
		t->r->line = 0;
		return rd_fail(t->r, "byte %llu: flamegraph-svg's timeline "
		    "data: %s", (unsigned long long)(t->b.off + off), what);
	}
	t->r->line = line;
	return rd_fail(t->r, "flamegraph-svg's timeline data: %s", what);
}

/* The parser's error, or a block that is no timeline's. */
static int
syntax(struct tl *t)
{
	return bad(t, t->j.err ? t->j.errline : t->j.line, t->j.err ?
	    t->j.erroff : json_offset(&t->j), t->j.err ? t->j.err :
	    "not a timeline's data");
}

/* An error in array k's value. */
static int
bad_in(struct tl *t, int k, const char *what)
{
	char m[160];

	snprintf(m, sizeof m, "\"%s\": %s", array_key[k], what);
	return bad(t, t->a[k].line, t->a[k].off, m);
}

/* A JSON integer, signed, that fits int64. */
static int
json_int(const char *s, size_t n, int64_t *v)
{
	uint64_t u;
	int neg = n > 0 && s[0] == '-';

	if (json_u64(s + neg, n - (size_t)neg, &u) < 0 ||
	    u > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

static int
read_table(struct tl *t, struct strs *s)
{
	enum json_tok k;

	while ((k = json_next(&t->j)) == JSON_STR) {
		s->off = xgrow(s->off, &s->ocap, s->n + 2, sizeof *s->off);
		s->buf = xgrow(s->buf, &s->cap, s->len + t->j.n + 1, 1);
		s->off[s->n++] = s->len;
		memcpy(s->buf + s->len, t->j.s, t->j.n);
		s->len += t->j.n;
	}
	/* off set even for an empty table: seen */
	s->off = xgrow(s->off, &s->ocap, s->n + 1, sizeof *s->off);
	s->off[s->n] = s->len;
	return k == JSON_ARR_END ? 0 : -1;
}

static const char *
str_at(const struct strs *s, int64_t i, size_t *n)
{
	*n = s->off[i + 1] - s->off[i];
	return s->buf + s->off[i];
}

/* The number just read, the next of array i. */
static int
add_num(struct tl *t, struct arr *a, int i)
{
	int bad_num;

	a->v = xgrow(a->v, &a->cap, a->n + 1, sizeof *a->v);
	bad_num = i == SWEIGHT ? json_u64(t->j.s, t->j.n, &a->u[a->n++]) :
	    json_int(t->j.s, t->j.n, &a->v[a->n++]);
	return bad_num < 0 ? bad(t, t->j.line, json_offset(&t->j), i == SWEIGHT ?
	    "not an integer from 0 to 2^64-1" : "not an integer of 64 bits") : 0;
}

/* Numbers of array i; integer properties' values are strings of them. */
static int
read_array(struct tl *t, struct arr *a, int i)
{
	enum json_tok k;

	while ((k = json_next(&t->j)) == JSON_NUM ||
	    (i == IPROPS && k == JSON_STR))
		if (add_num(t, a, i) < 0)
			return -1;
	if (k == JSON_ARR_END)
		return 0;
	return k == JSON_ERR ? syntax(t) : bad(t, t->j.line, json_offset(&t->j),
	    "an array holds what is not a number");
}

/* "origin" (at line, off): ns as a string, as integer properties' values. */
static int
read_origin(struct tl *t, uint64_t line, uint64_t off)
{
	if (json_int(t->j.s, t->j.n, &t->origin) < 0 ||
	    span_range_check(t->origin, 0) != SPAN_IN_RANGE)
		return bad(t, line, off, "\"origin\": not ns within 2^62 of 0");
	t->has_origin = 1;
	return 0;
}

/* The block's keys into t's tables and arrays, the rest skipped. */
static int
read_block(struct tl *t)
{
	enum json_tok k;

	if (json_next(&t->j) != JSON_OBJ)
		goto syntax;
	while ((k = json_next(&t->j)) == JSON_KEY) {
		char key[16];
		uint64_t line = t->j.line, off = json_offset(&t->j);
		int i;

		snprintf(key, sizeof key, "%.*s", (int)t->j.n, t->j.s);
		k = json_next(&t->j);
		for (i = 0; i < NTABLES && strcmp(key, table_key[i]) != 0; i++)
			;
		if (i < NTABLES && k == JSON_ARR && t->t[i].off == NULL) {
			t->t[i].line = line;
			t->t[i].at = off;
			if (read_table(t, &t->t[i]) < 0)
				goto syntax;
			continue;
		}
		for (i = 0; i < NARRAYS && strcmp(key, array_key[i]) != 0; i++)
			;
		if (i < NARRAYS && !t->a[i].seen && (k == JSON_ARR ||
		    (k == JSON_NUM && (i == SWEIGHT || i == SEVENT)))) {
			t->a[i].seen = 1;
			t->a[i].line = line;
			t->a[i].off = off;
			t->a[i].once = k == JSON_NUM;
			if ((k == JSON_NUM ? add_num(t, &t->a[i], i) :
			    read_array(t, &t->a[i], i)) < 0)
				return -1;
		} else if (strcmp(key, "origin") == 0 && k == JSON_STR &&
		    !t->has_origin) {
			if (read_origin(t, line, off) < 0)
				return -1;
		} else if (json_skip(&t->j, k) < 0)
			goto syntax;
	}
	if (k == JSON_OBJ_END && json_next(&t->j) == JSON_END)
		return 0;
syntax:
	return syntax(t);
}

/*
 * Samples come with all their keys or none; events, kept since, with
 * both of theirs or none (the samples then have no EVENT).
 */
static int
check_sample_keys(struct tl *t)
{
	static const int need[] = { SNODE, STIME, SSPAN, STRACK, SSTACK,
	    SWEIGHT };
	int any = t->t[FNAMES].off != NULL;
	char m[64];

	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		any |= t->a[need[i]].seen;
	if (!any && (t->t[EVNAMES].off || t->a[SEVENT].seen))
		return bad(t, t->b.line, 0, "sample events without samples");
	if (!any)
		return 0;
	if (t->t[FNAMES].off == NULL)
		return bad(t, t->b.line, 0, "samples without \"fnames\"");
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		if (!t->a[need[i]].seen) {
			snprintf(m, sizeof m, "samples without \"%s\"",
			    array_key[need[i]]);
			return bad(t, t->b.line, 0, m);
		}
	if ((t->t[EVNAMES].off == NULL) != !t->a[SEVENT].seen)
		return bad(t, t->b.line, 0, "one of \"evnames\" and \"sevent\" "
		    "without the other");
	return 0;
}

/* Every table and array the spans need, and the tables' strings. */
static int
check_keys(struct tl *t)
{
	static const int need[] = { ROWLEN, START, DUR, NAME, ROWTRACK, TRACK,
	    PARENT };
	char m[64];

	/* keys and vals only come with notes */
	for (int i = NAMES; i <= TRACKS; i++)
		if (t->t[i].off == NULL) {
			snprintf(m, sizeof m, "no \"%s\"", table_key[i]);
			return bad(t, t->b.line, 0, m);
		}
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		if (!t->a[need[i]].seen) {
			snprintf(m, sizeof m, "no \"%s\"", array_key[need[i]]);
			return bad(t, t->b.line, 0, m);
		}
	/* A TRACK is one field of a line: no tab, no newline, not empty. */
	for (size_t i = 0; i < t->t[TRACKS].n; i++) {
		size_t n;
		const char *s = str_at(&t->t[TRACKS], (int64_t)i, &n);

		if (n == 0 || memchr(s, '\t', n) || memchr(s, '\n', n))
			return bad(t, t->t[TRACKS].line, t->t[TRACKS].at,
			    "\"tracks\": one empty or with a tab or a newline");
	}
	/* An EVENT is one field too, which may be empty. */
	for (size_t i = 0; i < t->t[EVNAMES].n; i++) {
		size_t n;
		const char *s = str_at(&t->t[EVNAMES], (int64_t)i, &n);

		if (memchr(s, '\t', n) || memchr(s, '\n', n))
			return bad(t, t->t[EVNAMES].line, t->t[EVNAMES].at,
			    "\"evnames\": one with a tab or a newline");
	}
	/* Metadata must read back as metadata, not as a line of spans(5)
	 * nor as the header lines written from the data. */
	for (size_t i = 0; i < t->t[META].n; i++) {
		size_t n;
		const char *s = str_at(&t->t[META], (int64_t)i, &n);
		int64_t origin;

		if (!spans_is_meta(s, n) || (n >= 5 && memcmp(s, "rows:", 5) == 0) ||
		    spans_time_origin(s, n, &origin) != 1)
			return bad(t, t->t[META].line, t->t[META].at, "\"meta\": "
			    "a line that would not read back as metadata");
	}
	return check_sample_keys(t);
}

/* Rows, starts, names and tracks of every span. */
static int
decode_rows(struct tl *t)
{
	const struct arr *rl = &t->a[ROWLEN], *rt = &t->a[ROWTRACK];
	size_t n = 0, i = 0, m = 0;

	for (size_t r = 0; r < rl->n; r++) {
		if (rl->v[r] < 0 || (uint64_t)rl->v[r] > UINT32_MAX - n)
			return bad_in(t, ROWLEN, "a row of less than 0 or more "
			    "than 2^32 spans in all");
		n += (size_t)rl->v[r];
	}
	if (rl->n > UINT32_MAX)
		return bad_in(t, ROWLEN, "more than 2^32 rows");
	if (rt->n != rl->n)
		return bad_in(t, ROWTRACK, "not one a row");
	for (int k = START; k <= PARENT; k++)
		if (k != ROWTRACK && k != TRACK && t->a[k].n != n)
			return bad_in(t, k, "not one a span (the sum of rowlen)");
	t->n = n;
	t->start = xmalloc((n + 1) * sizeof *t->start);
	t->row = xmalloc((n + 1) * sizeof *t->row);
	t->track = xmalloc((n + 1) * sizeof *t->track);
	for (size_t r = 0; r < rl->n; r++) {
		int64_t at = 0;

		if (rt->v[r] < -1 || rt->v[r] >= (int64_t)t->t[TRACKS].n)
			return bad_in(t, ROWTRACK, "a track outside \"tracks\"");
		for (int64_t c = 0; c < rl->v[r]; c++, i++) {
			int64_t d = t->a[START].v[i], tr;

			if (d < 0 || d > SPAN_TIME_MAX - at)
				return bad_in(t, START, "a start before the one "
				    "before it or past 2^62 ns");
			at += d;
			if (t->a[DUR].v[i] < 0 || span_range_check(at,
			    (uint64_t)t->a[DUR].v[i]) != SPAN_IN_RANGE)
				return bad_in(t, DUR, "a span that ends past "
				    "2^62 ns or lasts less than 0");
			if (t->a[NAME].v[i] < 0 ||
			    t->a[NAME].v[i] >= (int64_t)t->t[NAMES].n)
				return bad_in(t, NAME, "a name outside \"names\"");
			if (rt->v[r] >= 0)
				tr = rt->v[r];
			else if (m < t->a[TRACK].n)
				tr = t->a[TRACK].v[m++];
			else
				return bad_in(t, TRACK, "fewer tracks than spans "
				    "of rows without one");
			if (tr < 0 || tr >= (int64_t)t->t[TRACKS].n)
				return bad_in(t, TRACK, "a track outside \"tracks\"");
			t->start[i] = at;
			t->row[i] = (uint32_t)r;
			t->track[i] = (uint32_t)tr;
		}
	}
	if (m != t->a[TRACK].n)
		return bad_in(t, TRACK, "more tracks than spans of rows "
		    "without one");
	return 0;
}

/* Parents, as timeline.js finds them; and the open marks. */
static int
decode_parents(struct tl *t)
{
	const int64_t *pa = t->a[PARENT].v, *du = t->a[DUR].v;
	size_t a = 0, b = 0, cur = 0;	/* row above: [a, b); this row: [b, ..) */

	t->parent = xmalloc((t->n + 1) * sizeof *t->parent);
	for (size_t i = 0; i < t->n; i++) {
		if (i == 0 || t->row[i] != t->row[i - 1]) {
			/* the row above is the previous row only if adjacent */
			a = i > 0 && t->row[i - 1] + 1 == t->row[i] ? cur : i;
			b = cur = i;
		}
		if (pa[i] == 0)
			t->parent[i] = TL_ROOT;
		else if (pa[i] == 1) {
			/* The first span above whose end passes my start. */
			size_t lo = a, hi = b;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (t->start[mid] + du[mid] <= t->start[i])
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo == b || t->start[lo] > t->start[i])
				return bad_in(t, PARENT, "a 1 (the span above) "
				    "where no span above holds the start");
			t->parent[i] = (uint32_t)lo;
		} else if (pa[i] < 0 || (uint64_t)pa[i] - 2 >= t->n ||
		    (size_t)pa[i] - 2 == i)
			return bad_in(t, PARENT, "a position outside the spans, "
			    "or the span's own");
		else
			t->parent[i] = (uint32_t)(pa[i] - 2);
	}
	t->open = xcalloc(t->n + 1, 1);
	for (size_t i = 0; i < t->a[OPEN].n; i++) {
		if (t->a[OPEN].v[i] < 0 || (uint64_t)t->a[OPEN].v[i] >= t->n)
			return bad_in(t, OPEN, "a position outside the spans");
		t->open[t->a[OPEN].v[i]] = 1;
	}
	return 0;
}

/* Notes: triples whose position, key and value are in range. */
static int
check_notes(struct tl *t)
{
	for (int k = SPROPS; k <= EVENTS; k++) {
		const struct arr *x = &t->a[k];

		if (x->n % 3)
			return bad_in(t, k, "not triples");
		for (size_t i = 0; i < x->n; i += 3) {
			int64_t pos = x->v[i], key = x->v[i + 1], v = x->v[i + 2];

			if (pos < 0 || (uint64_t)pos >= t->n)
				return bad_in(t, k, "a position outside the spans");
			if (key < 0 || key >= (int64_t)t->t[KEYS].n)
				return bad_in(t, k, "a key outside \"keys\"");
			if (k == SPROPS && (v < 0 || v >= (int64_t)t->t[VALS].n))
				return bad_in(t, k, "a value outside \"vals\"");
			/* An event's time: within 2^62 of the origin. */
			if (k == EVENTS && (v < SPAN_TIME_MIN - t->start[pos] ||
			    v > SPAN_TIME_MAX - t->start[pos]))
				return bad_in(t, k, "an event's time past 2^62 ns");
		}
	}
	return 0;
}

/* A sample's weight or event: its own, or the one for all. */
static int64_t
each(const struct arr *a, size_t i)
{
	return a->v[a->once ? 0 : i];
}

/*
 * Samples, as spanflame.js decodes them: stacks as nodes (the caller's
 * node + 1, 0 for none, and a name), each after its caller; per sample
 * in time order its time as a delta, its span's position + 1 (0: none),
 * track, stack's node, weight and event (those two may be one for all).
 */
static int
check_samples(struct tl *t)
{
	const struct arr *no = &t->a[SNODE];
	size_t n = t->a[STIME].n, nnodes = no->n / 2;
	int64_t at = 0;

	if (no->n % 2)
		return bad_in(t, SNODE, "not pairs");
	for (size_t i = 0; i < nnodes; i++) {
		if (no->v[2 * i] < 0 || (uint64_t)no->v[2 * i] > i)
			return bad_in(t, SNODE, "a caller not before its callee");
		if (no->v[2 * i + 1] < 0 ||
		    no->v[2 * i + 1] >= (int64_t)t->t[FNAMES].n)
			return bad_in(t, SNODE, "a name outside \"fnames\"");
	}
	for (int k = SSPAN; k <= SEVENT; k++)
		if (t->a[k].seen && !t->a[k].once && t->a[k].n != n)
			return bad_in(t, k, "not one a sample (the length of "
			    "stime)");
	t->nsamples = n;
	t->stime = xmalloc((n + 1) * sizeof *t->stime);
	for (size_t i = 0; i < n; i++) {
		int64_t d = t->a[STIME].v[i];

		if (i == 0 ? span_range_check(d, 0) != SPAN_IN_RANGE : d < 0 ||
		    span_range_check(at, (uint64_t)d) != SPAN_IN_RANGE)
			return bad_in(t, STIME, "a time before the one before it "
			    "or past 2^62 ns");
		t->stime[i] = at += d;
		if (t->a[SSPAN].v[i] < 0 || (uint64_t)t->a[SSPAN].v[i] > t->n)
			return bad_in(t, SSPAN, "a position outside the spans");
		if (t->a[STRACK].v[i] < 0 ||
		    t->a[STRACK].v[i] >= (int64_t)t->t[TRACKS].n)
			return bad_in(t, STRACK, "a track outside \"tracks\"");
		if (t->a[SSTACK].v[i] < 0 || (uint64_t)t->a[SSTACK].v[i] >= nnodes)
			return bad_in(t, SSTACK, "a node outside \"snode\"");
		if (t->a[SEVENT].seen && (each(&t->a[SEVENT], i) < 0 ||
		    each(&t->a[SEVENT], i) >= (int64_t)t->t[EVNAMES].n))
			return bad_in(t, SEVENT, "an event outside \"evnames\"");
	}
	return 0;
}

/*
 * Siblings by start, longer first, as spanlayout orders them; then the
 * deeper row first, where spanlayout's last key, the position in its
 * input, put them: it places the later of two such siblings first, right
 * below their parent, and the earlier below it.
 */
static int
cmp_sib(const void *va, const void *vb, const void *ctx)
{
	const struct tl *t = ctx;
	uint32_t a = *(const uint32_t *)va, b = *(const uint32_t *)vb;
	const int64_t *du = t->a[DUR].v;

	if (t->start[a] != t->start[b])
		return t->start[a] < t->start[b] ? -1 : 1;
	if (du[a] != du[b])
		return du[a] > du[b] ? -1 : 1;
	return t->row[a] > t->row[b] ? -1 : t->row[a] < t->row[b];
}

/*
 * The spans in preorder into pre[0..n): roots (children of node n) and
 * each span's children in cmp_sib's order.  -1 after a reported error
 * when some span is not reached: its parents make a cycle.
 */
static int
preorder(struct tl *t, uint32_t *pre)
{
	size_t n = t->n, np = 0, top = 0;
	uint32_t *first = xcalloc(n + 2, sizeof *first), *at, *kids, *stack;

	/* The children of x (a span, or n for the roots) in
	 * kids[first[x] .. first[x + 1]). */
	for (size_t i = 0; i < n; i++)
		first[(t->parent[i] == TL_ROOT ? n : t->parent[i]) + 1]++;
	for (size_t x = 1; x <= n + 1; x++)
		first[x] += first[x - 1];
	at = xmalloc((n + 1) * sizeof *at);
	memcpy(at, first, (n + 1) * sizeof *at);
	kids = xmalloc((n + 1) * sizeof *kids);
	for (size_t i = 0; i < n; i++)
		kids[at[t->parent[i] == TL_ROOT ? n : t->parent[i]]++] = (uint32_t)i;
	free(at);
	for (size_t x = 0; x <= n; x++)
		sort_ctx(kids + first[x], first[x + 1] - first[x], sizeof *kids,
		    cmp_sib, t);
	stack = xmalloc((n + 2) * sizeof *stack);
	stack[top++] = (uint32_t)n;
	while (top > 0) {
		uint32_t x = stack[--top];

		if (x < n)
			pre[np++] = x;
		for (uint32_t c = first[x + 1]; c-- > first[x];)
			stack[top++] = kids[c];
	}
	free(first);
	free(kids);
	free(stack);
	return np == n ? 0 : bad_in(t, PARENT, "parents that make a cycle");
}

static void
put_note(struct tl *t, int k, size_t i, uint64_t id)
{
	const int64_t *x = t->a[k].v + i;
	struct spans_note nt = { .id = id };

	nt.key = str_at(&t->t[KEYS], x[1], &nt.nkey);
	if (k == SPROPS) {
		nt.kind = SPANS_PROP;
		nt.val = str_at(&t->t[VALS], x[2], &nt.nval);
	} else {
		nt.kind = k == IPROPS ? SPANS_PROP_INT : SPANS_EVENT;
		nt.num = k == IPROPS ? x[2] : t->start[x[0]] + x[2];
	}
	spans_put_note(&nt);
}

/* The samples, after the spans as spans(5) has them; id: the spans' ids. */
static void
write_samples(struct tl *t, const uint32_t *id)
{
	const int64_t *no = t->a[SNODE].v;
	uint32_t *path = xmalloc((t->a[SNODE].n / 2 + 1) * sizeof *path);
	char *stack = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < t->nsamples; i++) {
		int64_t sp = t->a[SSPAN].v[i];
		size_t depth = 0, len = 0;
		struct spans_sample x = {
			.id = sp ? id[sp - 1] : 0,
			.time = t->stime[i],
			.weight = t->a[SWEIGHT].u[t->a[SWEIGHT].once ? 0 : i],
			.event = "",
		};

		x.track = str_at(&t->t[TRACKS], t->a[STRACK].v[i], &x.ntrack);
		if (t->a[SEVENT].seen)
			x.event = str_at(&t->t[EVNAMES], each(&t->a[SEVENT], i),
			    &x.nevent);
		/* The leaf's node up to the root's, then their names root
		 * first, as a folded line's. */
		for (int64_t nd = t->a[SSTACK].v[i] + 1; nd; nd = no[2 * (nd - 1)])
			path[depth++] = (uint32_t)(nd - 1);
		while (depth-- > 0) {
			size_t nn;
			const char *nm = str_at(&t->t[FNAMES], no[2 * path[depth] + 1],
			    &nn);

			stack = xgrow(stack, &cap, len + nn + 2, 1);
			memcpy(stack + len, nm, nn);
			len += nn;
			if (depth)
				stack[len++] = ';';
		}
		x.stack = stack;
		x.nstack = len;
		spans_put_sample(&x);
	}
	free(path);
	free(stack);
}

static void
write_spans(struct tl *t, const uint32_t *pre)
{
	size_t n = t->n, nnotes = 0;
	uint32_t *id = xmalloc((n + 1) * sizeof *id);
	size_t *first = xcalloc(n + 2, sizeof *first);
	uint64_t *note;

	for (size_t i = 0; i < n; i++)
		id[pre[i]] = (uint32_t)i + 1;
	/* Each span's notes, kind by kind in order: one counting pass. */
	for (int k = SPROPS; k <= EVENTS; k++)
		for (size_t i = 0; i < t->a[k].n; i += 3, nnotes++)
			first[t->a[k].v[i] + 1]++;
	for (size_t x = 1; x <= n; x++)
		first[x] += first[x - 1];
	note = xmalloc((nnotes + 1) * sizeof *note);
	for (int k = SPROPS; k <= EVENTS; k++)
		for (size_t i = 0; i < t->a[k].n; i += 3)
			note[first[t->a[k].v[i]]++] = (uint64_t)k << 56 | i;
	/* first[x] is now where x's notes end, x + 1's start. */
	out_str(SPANS_LAID_OUT_MAGIC "\n");
	if (t->nsamples)
		out_str(SPANS_REVISION3_LINE "\n");
	else if (nnotes)
		out_str(SPANS_REVISION_LINE "\n");
	/* The header as spanlayout writes it: metadata, origin, rows. */
	for (size_t i = 0; i < t->t[META].n; i++) {
		size_t len;
		const char *m = str_at(&t->t[META], (int64_t)i, &len);

		out_str("# ");
		out_write(m, len);
		out_char('\n');
	}
	if (t->has_origin)
		out_fmt("# time-origin-ns: %lld\n", (long long)t->origin);
	out_fmt("# rows: %zu\n", t->a[ROWLEN].n);
	for (size_t o = 0; o < n; o++) {
		uint32_t x = pre[o];
		struct spans_rec rec = {
			.id = id[x],
			.parent = t->parent[x] == TL_ROOT ? 0 : id[t->parent[x]],
			.start = t->start[x],
			.dur = (uint64_t)t->a[DUR].v[x],
			.row = t->row[x],
			.open = t->open[x],
		};

		rec.track = str_at(&t->t[TRACKS], t->track[x], &rec.ntrack);
		rec.name = str_at(&t->t[NAMES], t->a[NAME].v[x], &rec.nname);
		spans_put(&rec, 1);
		for (size_t k = x ? first[x - 1] : 0; k < first[x]; k++)
			put_note(t, (int)(note[k] >> 56),
			    (size_t)(note[k] & (((uint64_t)1 << 56) - 1)), id[x]);
	}
	write_samples(t, id);
	free(id);
	free(first);
	free(note);
}

int
tlread_spans(struct reader *r)
{
	struct tl t;
	uint32_t *pre = NULL;
	int ret;

	memset(&t, 0, sizeof t);
	t.r = r;
	ret = svg_block_read(r, &t.b);
	if (ret == 0 && (t.b.data == NULL || !t.b.timeline))
		ret = rd_fail(r, "not a timeline SVG: --to=spans reads the "
		    "timelines flamegraph-svg draws from laid-out spans");
	if (ret == 0) {
		t.oneline = memchr(t.b.data, '\n', t.b.n) == NULL;
		json_init_mem(&t.j, t.b.data, t.b.n, t.b.line);
		ret = read_block(&t);
	}
	if (ret == 0)
		ret = check_keys(&t);
	if (ret == 0)
		ret = decode_rows(&t);
	if (ret == 0)
		ret = decode_parents(&t);
	if (ret == 0)
		ret = check_notes(&t);
	if (ret == 0 && t.a[STIME].seen)
		ret = check_samples(&t);
	if (ret == 0) {
		pre = xmalloc((t.n + 1) * sizeof *pre);
		ret = preorder(&t, pre);
	}
	if (ret == 0)
		write_spans(&t, pre);
	free(pre);
	json_free(&t.j);
	for (int i = 0; i < NTABLES; i++) {
		free(t.t[i].buf);
		free(t.t[i].off);
	}
	for (int i = 0; i < NARRAYS; i++)
		free(t.a[i].v);
	free(t.start);
	free(t.row);
	free(t.parent);
	free(t.track);
	free(t.open);
	free(t.stime);
	free(t.b.file);
	return ret;
}
