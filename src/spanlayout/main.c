/*
 * spanlayout: lay out span trees into rows, as a timeline draws them.
 *
 * Reads spans (spans(5) text, Chrome trace events or a TiDB trace, told
 * apart by their first bytes and keys) from files or standard input and
 * writes them laid out ("# spanlayout v1": the spans(5) columns with the
 * row before the name), parents before children, times relative to the
 * earliest start:
 *
 *	uftrace dump --chrome | spanlayout | flamegraph-svg > trace.svg
 *
 * or, with --fold, folded stacks weighted by nanoseconds of self time;
 * or, with --to=chrome, the spans as Chrome trace events (chromeout.c)
 * for Perfetto's UI:
 *
 *	trace-record -o run.spans ./prog && spanlayout --to=chrome run.spans > run.json
 * What was repaired (orphans, cycles, unmatched ends) is summed up on
 * stderr; what cannot be laid out right (duplicate ids, bad numbers,
 * broken JSON) stops the run with the place it was found.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/opt.h"
#include "../lib/out.h"
#include "../lib/spans.h"
#include "chromeout.h"
#include "fold.h"
#include "layout.h"
#include "spanset.h"

static const char usage_text[] =
"usage: spanlayout [--format=auto|spans|chrome|tidb] [--by-track | --together]\n"
"                  [--fold[=self|total] | --to=layout|chrome] [FILE...]\n"
"\n"
"Lay out spans into rows (see spanlayout(1), spans(5)).\n"
"\n"
"  -f, --format=FMT   input format (default: auto)\n"
"  -t, --by-track     one band of rows per track; a parent on another track\n"
"                     does not pull a span out of its track's band\n"
"  -T, --together     one band for all tracks (default when some span's\n"
"                     parent is on another track; else --by-track)\n"
"  --fold[=self]      write folded stacks weighted by self time (ns)\n"
"  --fold=total       ... weighted by whole duration (ns)\n"
"  --to=chrome        write the spans as Chrome trace events (JSON) for\n"
"                     Perfetto, chrome://tracing or speedscope\n"
"  --to=layout        write the layout (default)\n"
"  -h, --help         show this help and exit\n"
"  -V, --version      show the version and exit\n";

/* A note of span id, its time (an event's) from origin. */
static void
note_put(const struct spanset *s, const struct note *x, uint64_t id, int64_t origin)
{
	struct spans_note n = {
		.kind = (enum spans_note_kind)x->kind,
		.id = id,
		.key = intern_str(&s->strs, x->key),
		.nkey = intern_len(&s->strs, x->key),
		.num = x->kind == SPANS_EVENT ? x->num - origin : x->num,
	};

	if (x->kind == SPANS_PROP) {
		n.val = intern_str(&s->strs, x->val);
		n.nval = intern_len(&s->strs, x->val);
	}
	spans_put_note(&n);
}

/* Spans gathered at a time by write_layout: 320 KiB, in the caches. */
#define WRITE_CHUNK 4096

static void
write_layout(const struct spanset *s, const struct tree *t, const uint32_t *row,
    uint32_t rows)
{
	struct spans_rec *recs = xmalloc(WRITE_CHUNK * sizeof *recs);

	out_str(SPANS_LAID_OUT_MAGIC "\n");
	if (s->nsamples)
		out_str(SPANS_REVISION3_LINE "\n");
	else if (s->nnotes)
		out_str(SPANS_REVISION_LINE "\n");
	for (size_t i = 0; i < s->nmeta; i++) {
		out_str("# ");
		out_str(s->meta[i]);
		out_char('\n');
	}
	out_fmt("# time-origin-ns: %lld\n# rows: %u\n", (long long)t->origin, rows);
	/*
	 * In preorder, a span's fields are read from a random place: gathered
	 * a chunk at a time in a loop that does nothing else, those reads go
	 * on together; each waited for the formatting of the line before
	 * when done line by line (a tenth of the time of 10M spans).
	 */
	for (size_t at = 0; at < t->n; at += WRITE_CHUNK) {
		size_t m = t->n - at < WRITE_CHUNK ? t->n - at : WRITE_CHUNK;

		for (size_t j = 0; j < m; j++) {
			uint32_t x = t->pre[at + j];
			const struct span *sp = &s->v[x];

			recs[j] = (struct spans_rec){
				.id = sp->id,
				.parent = t->broken[x] ? 0 : sp->parent,
				/* Fits: tree_build checked the span against the origin. */
				.start = (int64_t)((uint64_t)sp->start - (uint64_t)t->origin),
				.dur = sp->dur,
				.track = intern_str(&s->tracks, sp->track),
				.ntrack = intern_len(&s->tracks, sp->track),
				.row = row[x],
				.name = intern_str(&s->names, sp->name),
				.nname = intern_len(&s->names, sp->name),
				.open = (sp->flags & SPAN_OPEN) != 0,
			};
		}
		for (size_t j = 0; j < m; j++) {
			uint32_t x = t->pre[at + j];

			if (t->broken[x])
				out_fmt("# cycle-broken: %llu had parent %llu\n",
				    (unsigned long long)recs[j].id,
				    (unsigned long long)s->v[x].parent);
			spans_put(&recs[j], 1);
			for (uint32_t k = s->nnotes ? s->nfirst[x] : 0;
			    s->nnotes && k < s->nfirst[x + 1]; k++)
				note_put(s, &s->notes[k], recs[j].id, t->origin);
		}
	}
	free(recs);
	/* The samples as they came, after the spans, timed from the origin. */
	for (size_t i = 0; i < s->nsamples; i++) {
		const struct sample *y = &s->samples[i];
		struct spans_sample x = {
			.id = y->id, .time = y->time - t->origin, .weight = y->weight,
			.track = intern_str(&s->strs, y->track),
			.ntrack = intern_len(&s->strs, y->track),
			.event = intern_str(&s->strs, y->event),
			.nevent = intern_len(&s->strs, y->event),
			.stack = intern_str(&s->stacks, y->stack),
			.nstack = intern_len(&s->stacks, y->stack),
		};

		spans_put_sample(&x);
	}
}

static void
plural(char *buf, size_t cap, int *first, uint64_t n, const char *one,
    const char *many)
{
	size_t at = strlen(buf);

	if (n == 0)
		return;
	snprintf(buf + at, cap - at, "%s%llu %s", *first ? "" : ", ",
	    (unsigned long long)n, n == 1 ? one : many);
	*first = 0;
}

/* The one-line summary of what was repaired or skipped, and the cycles. */
static void
summary(const struct spanset *s, const struct tree *t)
{
	char buf[1024] = "";
	int first = 1;

	plural(buf, sizeof buf, &first, t->orphans,
	    "orphan laid out as a root", "orphans laid out as roots");
	plural(buf, sizeof buf, &first, t->self_parents,
	    "span that is its own parent laid out as a root",
	    "spans that are their own parents laid out as roots");
	plural(buf, sizeof buf, &first, t->cycles, "cycle broken", "cycles broken");
	plural(buf, sizeof buf, &first, s->unmatched_ends,
	    "end (E) event with no begin skipped", "end (E) events with no begin skipped");
	plural(buf, sizeof buf, &first, s->open_begins,
	    "begin (B) event never ended, kept open to the end of the trace",
	    "begin (B) events never ended, kept open to the end of the trace");
	plural(buf, sizeof buf, &first, s->lost_notes,
	    "property or event of no span ignored",
	    "properties or events of no span ignored");
	plural(buf, sizeof buf, &first, s->other_phases,
	    "event that is not a span (not X, B, E or M) ignored",
	    "events that are not spans (not X, B, E or M) ignored");
	if (!first)
		warn_msg("%s", buf);
	for (uint64_t i = 0; i < t->cycles && i < 5; i++) {
		const struct span *sp = &s->v[t->cycle_at[i]];
		char q[4 * 60 + 8];

		warn_at(s->files[sp->file], sp->line, "cycle broken at span %llu "
		    "%s, now a root", (unsigned long long)sp->id,
		    err_quote(q, intern_str(&s->names, sp->name),
		    intern_len(&s->names, sp->name), 60));
	}
	if (t->cycles > 5)
		warn_msg("... and %llu more cycles", (unsigned long long)(t->cycles - 5));
}

/*
 * What is written: the layout, folded stacks by self or total time, or
 * the spans as Chrome trace events.
 */
enum output { OUT_LAYOUT, OUT_FOLD_SELF, OUT_FOLD_TOTAL, OUT_CHROME };

struct options {
	enum span_format fmt;
	enum bands bands;
	enum output output;
};

enum { OPT_FOLD = 256, OPT_TO };

static const struct option longopts[] = {
	{ "by-track", no_argument, NULL, 't' },
	{ "fold", optional_argument, NULL, OPT_FOLD },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "to", required_argument, NULL, OPT_TO },
	{ "together", no_argument, NULL, 'T' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* --format's names, by enum span_format. */
static const char *const formats[] = {
	[FMT_AUTO] = "auto", [FMT_SPANS] = "spans", [FMT_CHROME] = "chrome",
	[FMT_TIDB] = "tidb",
};

/* The options into o, argc and argv past them; --help, --version and a
 * usage error exit here. */
static void
parse_options(int *argcp, char ***argvp, struct options *o)
{
	int ch, to = 0, fold = 0;
	size_t i;

	*o = (struct options){ FMT_AUTO, BANDS_AUTO, OUT_LAYOUT };
	opterr = 0;
	while ((ch = getopt_long(*argcp, *argvp, ":f:htTV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			for (i = 0; i < sizeof formats / sizeof *formats; i++)
				if (strcmp(optarg, formats[i]) == 0)
					break;
			if (i == sizeof formats / sizeof *formats)
				die(EXIT_USAGE, "unknown format \"%s\" (auto, spans, "
				    "chrome or tidb)", optarg);
			o->fmt = (enum span_format)i;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(fflush(stdout) == 0 ? 0 : EXIT_INPUT);
		case 't':
			o->bands = BANDS_BY_TRACK;
			break;
		case 'T':
			o->bands = BANDS_ONE;
			break;
		case 'V':
			puts("spanlayout (flametools) " FT_VERSION);
			exit(fflush(stdout) == 0 ? 0 : EXIT_INPUT);
		case OPT_FOLD:
			fold = 1;
			if (optarg == NULL || strcmp(optarg, "self") == 0)
				o->output = OUT_FOLD_SELF;
			else if (strcmp(optarg, "total") == 0)
				o->output = OUT_FOLD_TOTAL;
			else
				die(EXIT_USAGE, "--fold takes self or total, not \"%s\"",
				    optarg);
			break;
		case OPT_TO:
			to = 1;
			if (strcmp(optarg, "layout") == 0)
				o->output = OUT_LAYOUT;
			else if (strcmp(optarg, "chrome") == 0)
				o->output = OUT_CHROME;
			else
				die(EXIT_USAGE, "--to takes layout or chrome, not "
				    "\"%s\"", optarg);
			break;
		default:
			opt_fail(ch, *argvp, usage_text);
		}
	}
	/* Two outputs asked for: which one the user meant is not ours to guess. */
	if (to && fold)
		die(EXIT_USAGE, "--fold and --to name two outputs; give one");
	*argcp -= optind;
	*argvp += optind;
}

/* Every input (standard input when none) into s; -1 after an error. */
static int
read_inputs(struct spanset *s, int argc, char **argv, enum span_format fmt)
{
	if (argc == 0)
		return spanset_read(s, "-", fmt);
	for (int i = 0; i < argc; i++)
		if (spanset_read(s, argv[i], fmt) < 0)
			return -1;
	return 0;
}

/* The layout, or the folded stacks, of t to standard output. */
static void
write_output(const struct tree *t, const struct spanset *s,
    const struct options *o)
{
	uint32_t *row, rows;

	if (o->output == OUT_CHROME) {
		chrome_write(s, t);
		return;
	}
	if (o->output != OUT_LAYOUT) {
		if (fold_write(t, s, o->output == OUT_FOLD_TOTAL,
		    o->bands == BANDS_BY_TRACK) < 0)
			exit(EXIT_INPUT);	/* said where, by fold_write */
		return;
	}
	row = xmalloc((t->n + 1) * sizeof *row);
	rows = layout_rows(t, s, row);
	write_layout(s, t, row, rows);
	free(row);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct spanset s;
	struct tree t;

	err_init(argv[0]);
	out_init();
	parse_options(&argc, &argv, &o);
	spanset_init(&s);
	if (read_inputs(&s, argc, argv, o.fmt) < 0 ||
	    tree_build(&t, &s, o.bands) < 0) {
		spanset_free(&s);
		return EXIT_INPUT;
	}
	spanset_notes(&s);
	write_output(&t, &s, &o);
	summary(&s, &t);
	out_flush();
	tree_free(&t);
	spanset_free(&s);
	return 0;
}
