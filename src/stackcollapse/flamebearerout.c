/*
 * flamebearerout: stackcollapse --to=flamebearer, see flamebearer.h.
 *
 * The flamebearer (Pyroscope's pkg/structs/flamebearer) is a call tree
 * laid out in rows: names[] holds each name once, and levels[d] the
 * bars of depth d from left to right, four numbers a bar (offset, total,
 * self, name index), or seven in a "double" profile (left offset, total,
 * self; right offset, total, self; name).  An offset is written as the
 * gap from the end of the bar before it in the row, which is what
 * @pyroscope/models' decodeFlamebearer undoes.  Children start at their
 * parent's start and the parent's self is its right end, as Pyroscope
 * lays them out.
 *
 * The tree is built from the sorted stacks by looking each (parent, name)
 * up in a table, since bytewise order does not keep a frame's callees
 * together ("a;b2" sorts between "a;b" and "a;b;c"); the rows come from
 * walking it breadth first, which visits each row from left to right.
 * Counts must be whole and the total below 2^53: JSON readers take
 * numbers as doubles, and a count they round would be a different
 * profile, so those are refused rather than written.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/jsonesc.h"
#include "../lib/out.h"
#include "flamebearer.h"

#define MAXSAFE (1ull << 53)

static const char *const units[] = { "samples", "objects", "goroutines",
    "bytes", "lock_samples", "lock_nanoseconds", "trace_samples",
    "exceptions" };
/* Times: samples at the rate that makes one sample one of the unit. */
static const struct { const char *name; uint64_t rate; } times[] = {
	{ "nanoseconds", 1000000000 }, { "microseconds", 1000000 },
	{ "milliseconds", 1000 }, { "seconds", 1 } };

int
flamebearer_unit(const char *name)
{
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(name, units[i]) == 0)
			return 1;
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (strcmp(name, times[i].name) == 0)
			return 1;
	return 0;
}

struct node {
	uint32_t name;		/* in names */
	uint32_t kid, last, next;	/* first and last child, next sibling */
	uint64_t tot[2], self[2], off[2];
};

struct tree {
	struct node *nd;
	size_t n, cap;
	struct intern names, edges;	/* edges: (parent, name) -> node */
};

static uint32_t
child(struct tree *t, uint32_t parent, const char *s, size_t len)
{
	uint32_t key[2], id;
	int isnew;

	key[0] = parent;
	key[1] = intern_put(&t->names, s, len, NULL);
	/* node 0 is the root, which no edge names */
	id = intern_put(&t->edges, key, sizeof key, &isnew) + 1;
	if (isnew) {
		struct node *p;

		t->nd = xgrow(t->nd, &t->cap, id + 1, sizeof *t->nd);
		memset(&t->nd[id], 0, sizeof t->nd[id]);
		t->nd[id].name = key[1];
		t->nd[id].kid = t->nd[id].next = UINT32_MAX;
		t->n++;
		p = &t->nd[parent];
		if (p->kid == UINT32_MAX)
			p->kid = id;
		else
			t->nd[p->last].next = id;
		p->last = id;
	}
	return id;
}

/* The counts of a, in whole numbers that JavaScript holds exactly. */
static int
whole(const struct count *c, uint64_t *v)
{
	if (c->frac || c->whole >= MAXSAFE)
		return -1;
	*v = c->whole;
	return 0;
}

/* Every stack of a into t: tot and self per column; -1 if not whole. */
static int
build(struct tree *t, const struct folded_sum *a, int ncol)
{
	uint32_t *ids = folded_sum_sorted(a);
	size_t n = folded_sum_n(a), len;
	int ret = 0;

	for (size_t i = 0; i < n && ret == 0; i++) {
		const char *s = folded_sum_stack(a, ids[i], &len);
		uint32_t at = 0;
		uint64_t v[2] = { 0, 0 };
		size_t start = 0;

		for (int c = 0; c < ncol; c++)
			if (whole(folded_sum_count(a, c, ids[i]), &v[c]) < 0)
				ret = -1;
		/* trailing empty frames are no frames, as in speedscope.c */
		while (len > 0 && s[len - 1] == ';')
			len--;
		for (int c = 0; c < ncol; c++)
			t->nd[0].tot[c] += v[c];
		while (len > 0 && start <= len) {
			const char *semi = memchr(s + start, ';', len - start);
			size_t e = semi ? (size_t)(semi - s) : len;

			at = child(t, at, s + start, e - start);
			for (int c = 0; c < ncol; c++)
				t->nd[at].tot[c] += v[c];
			start = e + 1;
		}
		for (int c = 0; c < ncol; c++) {
			t->nd[at].self[c] += v[c];
			if (t->nd[0].tot[c] >= MAXSAFE)
				ret = -1;
		}
	}
	free(ids);
	return ret;
}

/* The rows, breadth first; offsets as gaps from the bar before. */
static void
write_levels(struct tree *t, int ncol)
{
	uint32_t *q = xmalloc((t->n + 1) * sizeof *q);
	size_t head = 0, tail = 0;
	uint64_t prev[2] = { 0, 0 };
	int first = 1;

	q[tail++] = 0;
	out_str("[[");
	/* a row ends where the next starts: a marker would cost a pass */
	for (size_t rowend = 1; head < tail; ) {
		struct node *x = &t->nd[q[head]];
		uint64_t off[2] = { x->off[0], x->off[1] };

		if (head == rowend) {
			out_str("],\n[");
			rowend = tail;
			prev[0] = prev[1] = 0;
			first = 1;
		}
		head++;
		for (uint32_t k = x->kid; k != UINT32_MAX; k = t->nd[k].next) {
			for (int c = 0; c < ncol; c++) {
				t->nd[k].off[c] = off[c];
				off[c] += t->nd[k].tot[c];
			}
			q[tail++] = k;
		}
		for (int c = 0; c < ncol; c++) {
			out_fmt("%s%llu,%llu,%llu", first ? "" : ",",
			    (unsigned long long)(x->off[c] - prev[c]),
			    (unsigned long long)x->tot[c],
			    (unsigned long long)x->self[c]);
			prev[c] = x->off[c] + x->tot[c];
			first = 0;
		}
		out_fmt(",%lu", (unsigned long)x->name);
	}
	out_str("]]");
	free(q);
}

int
flamebearer_write(const struct folded_sum *a, int two, const char *unit)
{
	struct tree t;
	uint64_t rate = 100, maxself = 0;
	const char *u = "samples";
	int ncol = two ? 2 : 1;

	for (size_t i = 0; unit && i < sizeof times / sizeof times[0]; i++)
		if (strcmp(unit, times[i].name) == 0)
			rate = times[i].rate;
	if (unit && rate == 100)
		u = unit;
	memset(&t, 0, sizeof t);
	intern_init(&t.names);
	intern_init(&t.edges);
	t.nd = xgrow(NULL, &t.cap, 1, sizeof *t.nd);
	memset(t.nd, 0, sizeof *t.nd);
	t.nd[0].name = intern_put(&t.names, "total", 5, NULL);
	t.nd[0].kid = t.nd[0].next = UINT32_MAX;
	t.n = 1;
	if (build(&t, a, ncol) < 0) {
		warn_msg("--to=flamebearer takes whole counts whose total is "
		    "below 2^53 (JavaScript's numbers would round the rest)");
		intern_free(&t.names);
		intern_free(&t.edges);
		free(t.nd);
		return -1;
	}
	for (size_t i = 0; i < t.n; i++)
		for (int c = 0; c < ncol; c++)
			if (t.nd[i].self[c] > maxself)
				maxself = t.nd[i].self[c];
	out_str("{\"version\":1,\"flamebearer\":{\"names\":[");
	for (uint32_t i = 0; i < intern_count(&t.names); i++) {
		if (i)
			out_char(',');
		json_out(intern_str(&t.names, i), intern_len(&t.names, i));
	}
	out_str("],\n\"levels\":");
	write_levels(&t, ncol);
	out_fmt(",\n\"numTicks\":%llu,\"maxSelf\":%llu},\n",
	    (unsigned long long)(t.nd[0].tot[0] + t.nd[0].tot[1]),
	    (unsigned long long)maxself);
	out_fmt("\"metadata\":{\"format\":\"%s\",\"units\":\"%s\","
	    "\"sampleRate\":%llu,\"spyName\":\"unknown\"}",
	    two ? "double" : "single", u, (unsigned long long)rate);
	if (two)
		out_fmt(",\"leftTicks\":%llu,\"rightTicks\":%llu",
		    (unsigned long long)t.nd[0].tot[0],
		    (unsigned long long)t.nd[0].tot[1]);
	out_str("}\n");
	intern_free(&t.names);
	intern_free(&t.edges);
	free(t.nd);
	return 0;
}
