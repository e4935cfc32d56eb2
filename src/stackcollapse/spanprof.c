/*
 * spanprof: the stack samples of a span profile, a spans(5) file of
 * revision 3 (trace-record --sample --spans, as written or laid out by
 * spanlayout): each "# sample" line is a stack with its weight and the
 * span innermost on its thread when it was taken.
 *
 *	trace-record --sample -g --spans -o run.spans -- ./server
 *	stackcollapse --span='^parse$' run.spans | flamegraph-svg > parse.svg
 *
 * --span=REGEX keeps the samples taken while a span whose name matches
 * (an extended regex searched in the name, as grep -E) was open: the
 * innermost span or one of its ancestors, through the parents as the
 * file gives them (a parent on another thread too: work handed to a
 * thread is still its parent's).  --span-self keeps only those whose
 * innermost span matches.  --by-span puts the innermost span's name
 * first, as the root frame ("[no span]" for a sample outside every
 * span), so that one graph is split by kind of span.  The stacks then go
 * to the sink as any format's: summed, transformed, written as --to
 * says.
 *
 * The spans come before their samples in trace-record's files, but
 * nothing here needs that: samples are kept until the end of the input
 * and resolved then.  A spans file without samples is an error that
 * says what to run instead: its spans are timings, not stacks.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/spans.h"
#include "formats.h"

static struct {
	char *span;		/* --span's REGEX, or NULL */
	int self;		/* --span-self */
	int by_span;		/* --by-span */
} opt;

/* A span as the samples need it: its parent and name. */
struct pspan {
	uint64_t id, parent;
	uint32_t name;		/* in names */
	int match;		/* -1 unknown, 0 no, 1: it or an ancestor matches */
	int self;		/* its own name matches */
};

struct psample {
	uint64_t id, weight;
	uint32_t stack;		/* in stacks */
};

static void
set_span(char *arg)
{
	opt.span = arg;
}

static const struct fmt_option spanprof_options[] = {
	{ "span", NULL, 0, set_span },
	{ "span-self", &opt.self, 1, NULL },
	{ "by-span", &opt.by_span, 1, NULL },
	{ NULL, NULL, 0, NULL },
};

static int
spanprof_detect(const char *p, size_t n)
{
	static const char a[] = "# spans v1", b[] = SPANS_LAID_OUT_MAGIC;

	return (n >= sizeof a - 1 && memcmp(p, a, sizeof a - 1) == 0) ||
	    (n >= sizeof b - 1 && memcmp(p, b, sizeof b - 1) == 0);
}

static int
by_id(const void *a, const void *b)
{
	uint64_t x = ((const struct pspan *)a)->id, y = ((const struct pspan *)b)->id;

	return x < y ? -1 : x > y;
}

static struct pspan *
find(struct pspan *v, size_t n, uint64_t id)
{
	struct pspan key = { .id = id };

	return id && n ? bsearch(&key, v, n, sizeof *v, by_id) : NULL;
}

/*
 * Whether s or an ancestor matches, memoized; a cycle of parents (a
 * broken file) ends the walk as no match.
 */
static int
matches(struct pspan *v, size_t n, struct pspan *s)
{
	struct pspan *p = s, *t;
	size_t steps = 0;

	while (p && p->match < 0 && !p->self && steps++ < n)
		p = find(v, n, p->parent);
	int m = p && (p->self || p->match > 0);

	t = p;		/* where the walk stopped: known, or matching itself */
	if (t && t->match < 0)
		t->match = 1;
	for (p = s, steps = 0; p && p != t && steps++ < n; p = find(v, n, p->parent))
		p->match = m;
	return m;
}

static int
spanprof_collapse(struct reader *r)
{
	struct spans_reader sr;
	struct spans_rec rec;
	struct pspan *v = NULL;
	struct psample *smp = NULL;
	size_t n = 0, cap = 0, ns = 0, scap = 0;
	struct intern names, stacks;
	regex_t re;
	int k, ret = 0;
	char *buf = NULL;
	size_t bufcap = 0;

	if (opt.self && !opt.span)
		die(EXIT_USAGE, "--span-self needs --span=REGEX");
	if (opt.span && (k = regcomp(&re, opt.span, REG_EXTENDED | REG_NOSUB)) != 0) {
		char what[256];

		regerror(k, &re, what, sizeof what);
		die(EXIT_USAGE, "--span: %s: \"%s\"", what, opt.span);
	}
	intern_init(&names);
	intern_init(&stacks);
	spans_reader_init(&sr, r->in, SPANS_SAMPLES);
	while ((k = spans_next(&sr, &rec)) > 0) {
		if (k == SPANS_SPAN) {
			v = xgrow(v, &cap, n + 1, sizeof *v);
			v[n].id = rec.id;
			v[n].parent = rec.parent;
			v[n].name = intern_put(&names, rec.name, rec.nname, NULL);
			v[n].match = -1;
			v[n].self = 0;
			n++;
		} else if (k == SPANS_SAMPLE) {
			smp = xgrow(smp, &scap, ns + 1, sizeof *smp);
			smp[ns].id = sr.sample.id;
			smp[ns].weight = sr.sample.weight;
			smp[ns].stack = intern_put(&stacks, sr.sample.stack,
			    sr.sample.nstack, NULL);
			ns++;
		}
	}
	r->line = sr.line;
	if (k < 0) {
		ret = -1;
		goto out;
	}
	if (ns == 0) {
		r->line = sr.vline ? sr.vline : 1;
		ret = rd_fail(r, "this is a spans file (spans(5)), not samples: "
		    "fold it with spanlayout --fold, or record its samples with "
		    "it (trace-record --sample --spans)");
		goto out;
	}
	if (n)
		qsort(v, n, sizeof *v, by_id);
	for (size_t i = 0; i < n; i++)
		if (opt.span)
			v[i].self = regexec(&re, intern_str(&names, v[i].name), 0,
			    NULL, 0) == 0;
	for (size_t i = 0; i < ns; i++) {
		struct pspan *s = find(v, n, smp[i].id);
		const char *st = intern_str(&stacks, smp[i].stack);
		size_t len = intern_len(&stacks, smp[i].stack);

		if (opt.span && (s == NULL || !(opt.self ? s->self : matches(v, n, s))))
			continue;
		if (opt.by_span) {
			const char *nm = s ? intern_str(&names, s->name) : "[no span]";
			size_t nl = s ? intern_len(&names, s->name) : 9;

			buf = xgrow(buf, &bufcap, nl + len + 2, 1);
			memcpy(buf, nm, nl);
			/* A span's name is one frame: ';' would split it. */
			for (size_t j = 0; j < nl; j++)
				if (buf[j] == ';')
					buf[j] = ':';
			buf[nl] = ';';
			memcpy(buf + nl + 1, st, len);
			sink_put(r->sink, buf, nl + 1 + len, smp[i].weight, 0);
		} else {
			sink_put(r->sink, st, len, smp[i].weight, 0);
		}
	}
out:
	spans_reader_free(&sr);
	if (opt.span)
		regfree(&re);
	intern_free(&names);
	intern_free(&stacks);
	free(v);
	free(smp);
	free(buf);
	return ret;
}

const struct format spanprof_format = {
	.name = "spans",
	.detect = spanprof_detect,
	.collapse = spanprof_collapse,
	.options = spanprof_options,
	.all_or_nothing = 1,
};
