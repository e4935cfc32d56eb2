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
 * or, with --fold, folded stacks weighted by nanoseconds of self time.
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
#include "fold.h"
#include "layout.h"
#include "spanset.h"

static const char usage_text[] =
"usage: spanlayout [--format=auto|spans|chrome|tidb] [--by-track | --together]\n"
"                  [--fold[=self|total]] [FILE...]\n"
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
"  -h, --help         show this help and exit\n"
"  -V, --version      show the version and exit\n";

static void
write_layout(const struct spanset *s, const struct tree *t, const uint32_t *row,
    uint32_t rows)
{
	out_str(SPANS_LAID_OUT_MAGIC "\n");
	for (size_t i = 0; i < s->nmeta; i++) {
		out_str("# ");
		out_str(s->meta[i]);
		out_char('\n');
	}
	out_fmt("# time-origin-ns: %lld\n# rows: %u\n", (long long)t->origin, rows);
	for (size_t i = 0; i < t->n; i++) {
		uint32_t x = t->pre[i];
		const struct span *sp = &s->v[x];
		struct spans_rec rec = {
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

		if (t->broken[x])
			out_fmt("# cycle-broken: %llu had parent %llu\n",
			    (unsigned long long)sp->id, (unsigned long long)sp->parent);
		spans_put(&rec, 1);
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
	plural(buf, sizeof buf, &first, s->other_phases,
	    "event that is not a span (not X, B, E or M) ignored",
	    "events that are not spans (not X, B, E or M) ignored");
	if (!first)
		warnx("%s", buf);
	for (uint64_t i = 0; i < t->cycles && i < 5; i++) {
		const struct span *sp = &s->v[t->cycle_at[i]];
		char q[4 * 60 + 8];

		warn_at(s->files[sp->file], sp->line, "cycle broken at span %llu "
		    "%s, now a root", (unsigned long long)sp->id,
		    err_quote(q, intern_str(&s->names, sp->name),
		    intern_len(&s->names, sp->name), 60));
	}
	if (t->cycles > 5)
		warnx("... and %llu more cycles", (unsigned long long)(t->cycles - 5));
}

int
main(int argc, char **argv)
{
	enum { OPT_FOLD = 256 };
	static const struct option longopts[] = {
		{ "by-track", no_argument, NULL, 't' },
		{ "fold", optional_argument, NULL, OPT_FOLD },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "together", no_argument, NULL, 'T' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	enum span_format fmt = FMT_AUTO;
	int ch, by_track = -1, fold = 0, status = 0;
	struct spanset s;
	struct tree t;

	err_init(argv[0]);
	out_init();
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":f:htTV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (strcmp(optarg, "auto") == 0)
				fmt = FMT_AUTO;
			else if (strcmp(optarg, "spans") == 0)
				fmt = FMT_SPANS;
			else if (strcmp(optarg, "chrome") == 0)
				fmt = FMT_CHROME;
			else if (strcmp(optarg, "tidb") == 0)
				fmt = FMT_TIDB;
			else
				die(EXIT_USAGE, "unknown format \"%s\" (auto, spans, "
				    "chrome or tidb)", optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
		case 't':
			by_track = 1;
			break;
		case 'T':
			by_track = 0;
			break;
		case 'V':
			puts("spanlayout (flametools) " FT_VERSION);
			return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
		case OPT_FOLD:
			if (optarg == NULL || strcmp(optarg, "self") == 0)
				fold = 1;
			else if (strcmp(optarg, "total") == 0)
				fold = 2;
			else
				die(EXIT_USAGE, "--fold takes self or total, not \"%s\"",
				    optarg);
			break;
		default:
			opt_fail(ch, argv, usage_text);
		}
	}
	argc -= optind;
	argv += optind;

	spanset_init(&s);
	if (argc == 0 && spanset_read(&s, "-", fmt) < 0)
		status = EXIT_INPUT;
	for (int i = 0; i < argc && status == 0; i++)
		if (spanset_read(&s, argv[i], fmt) < 0)
			status = EXIT_INPUT;
	if (status == 0 && tree_build(&t, &s, by_track) < 0)
		status = EXIT_INPUT;
	if (status == 0) {
		if (fold) {
			if (fold_write(&t, &s, fold == 2, by_track == 1) < 0)
				die(EXIT_INPUT, "a stack's total time does not fit in "
				    "64 bits");
		} else {
			uint32_t *row = xmalloc((t.n + 1) * sizeof *row);
			uint32_t rows = layout_rows(&t, &s, row);

			write_layout(&s, &t, row, rows);
			free(row);
		}
		summary(&s, &t);
		out_flush();
		tree_free(&t);
	}
	spanset_free(&s);
	return status;
}
