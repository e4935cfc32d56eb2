/*
 * perfrun: how stackcollapse reads `perf script` inputs, perf's driver in
 * the format table (formats.h).  Each input is read in large blocks that
 * end at a blank line (a sample boundary) where one is near; until the
 * event filter is known (--event-filter, or the first sample's event), the
 * first context parses alone, then a block is split at blank lines into
 * pieces of at least MIN_PART bytes, PIECES_PER_THREAD per thread, which
 * up to -j threads take in turn, each parsing into its own context
 * (perf.h); the contexts' stacks are merged at the end (stacks.c): the
 * output is the same as one thread's.  Pieces taken in turn, rather than
 * one part per thread, because a block ends when its slowest thread does:
 * on a shared machine a thread that lost its CPU for a while held the
 * other idle, and parts of equal bytes are not of equal work either.  The
 * first piece is the first context's, which may hold a sample begun in
 * the block before; every other piece starts after a blank line, where
 * the parse state is empty, so any context can take it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/input.h"
#include "../lib/out.h"
#include "a2l.h"
#include "formats.h"
#include "perf.h"
#include "stacks.h"

#define MIN_PART (1u << 20)	/* a millisecond of parsing: 20 thread starts */
#define PIECES_PER_THREAD 4
#define MAX_PIECES (FMT_MAX_THREADS * PIECES_PER_THREAD)

/* The run: perf's options, the shared parse state, the contexts. */
static struct {
	struct perf_opts o;
	struct perf_shared sh;
	struct perf_ctx ctx[FMT_MAX_THREADS];
	struct fmt_run run;
	int nctx;		/* contexts in use */
} drv = { .sh = { &drv.o, NULL, 0, 0 } };

static void
set_event(char *arg)
{
	if (*arg == '\0')
		die(EXIT_USAGE, "--event-filter needs an event name");
	drv.sh.event = arg;
	drv.sh.eventlen = strlen(arg);
}

static const struct fmt_option perf_options[] = {
	{ "pid", &drv.o.include_pid, 1, NULL },
	{ "tid", &drv.o.include_tid, 1, NULL },
	{ "kernel", &drv.o.annotate_kernel, 1, NULL },
	{ "jit", &drv.o.annotate_jit, 1, NULL },
	{ "all", &drv.o.annotate_kernel, 1, NULL },
	{ "all", &drv.o.annotate_jit, 1, NULL },
	{ "addrs", &drv.o.include_addrs, 1, NULL },
	{ "event-filter", NULL, 0, set_event },
	{ "perl", &drv.o.perl, 1, NULL },
	{ "srcline", &drv.o.srcline, 1, NULL },
	{ "inline", &drv.o.inline_frames, 1, NULL },
	{ "context", &drv.o.context, 1, NULL },
	{ NULL, NULL, 0, NULL },
};

/* One piece of a block, and what its parse saw. */
struct piece {
	const char *p;
	size_t n;
	struct perf_report rep;
};

/* A block's pieces, and the next one not yet taken. */
struct pieces {
	struct piece pc[MAX_PIECES];
	int n;
	atomic_int next;
};

/* One thread: its context, taking pieces until none is left. */
struct worker {
	struct pieces *all;
	struct perf_ctx *ctx;
};

static void *
run_worker(void *arg)
{
	struct worker *w = arg;
	struct pieces *a = w->all;
	int i;

	while ((i = atomic_fetch_add(&a->next, 1)) < a->n)
		perf_parse(w->ctx, NULL, a->pc[i].p, a->pc[i].n, 0,
		    &a->pc[i].rep);
	return NULL;
}

/* Where one input file stands, for messages with file:line. */
struct place {
	const char *name;
	uint64_t line;		/* lines ended so far */
	uint64_t nskipped;
	unsigned nshown;
	uint64_t nfiltered;
};

/* Report what one part saw; returns -1 on a fatal error. */
static int
account(struct place *pl, const struct perf_report *r)
{
	unsigned i;

	for (i = 0; i < r->nex && pl->nshown < PERF_EXAMPLES; i++, pl->nshown++)
		warn_at(pl->name, pl->line + r->ex[i].line,
		    "skipped unrecognized line %s", r->ex[i].text);
	pl->nskipped += r->nskipped;
	pl->nfiltered += r->nfiltered;
	if (r->errline) {
		warn_at(pl->name, pl->line + r->errline, "%s", r->errmsg);
		return -1;
	}
	pl->line += r->newlines;
	return 0;
}

/*
 * Split a block at blank lines into pieces and parse them on at most
 * nthreads threads.
 */
static int
parse_block(struct perf_ctx *ctx, int nthreads, struct perf_shared *sh,
    const char *p, size_t n, int at_boundary, struct place *pl)
{
	struct pieces *a = xcalloc(1, sizeof *a);
	struct worker w[FMT_MAX_THREADS];
	pthread_t tids[FMT_MAX_THREADS];
	int k = 1, i, want, ret = 0;

	a->pc[0] = (struct piece){ p, n, { 0 } };
	a->n = 1;
	if (at_boundary && sh->event != NULL && ctx[0].seen_line &&
	    nthreads > 1) {
		const char *cut = p, *end = p + n;

		want = nthreads * PIECES_PER_THREAD;
		for (i = 1; i < want; i++) {
			const char *t = p + (size_t)((double)n * i / want);
			const char *b;

			if (t < cut + MIN_PART || end - t < MIN_PART)
				continue;
			b = memmem(t, (size_t)(end - t), "\n\n", 2);
			if (b == NULL || end - (b + 2) < MIN_PART)
				break;
			a->pc[a->n - 1].n = (size_t)(b + 2 - a->pc[a->n - 1].p);
			a->pc[a->n++] = (struct piece){ b + 2,
			    (size_t)(end - (b + 2)), { 0 } };
			cut = b + 2;
		}
		k = a->n < nthreads ? a->n : nthreads;
	}
	if (k == 1) {
		perf_parse(&ctx[0], sh, p, n, 0, &a->pc[0].rep);
	} else {
		/* the first piece is the first context's (the note on top) */
		atomic_store(&a->next, 1);
		for (i = 0; i < k; i++) {
			w[i] = (struct worker){ a, &ctx[i] };
			if (i > 0)
				perf_ctx_inherit(&ctx[i], &ctx[0]);
		}
		for (i = 1; i < k; i++)
			if (pthread_create(&tids[i], NULL, run_worker,
			    &w[i]) != 0)
				die(EXIT_INPUT, "cannot start a thread:");
		perf_parse(&ctx[0], NULL, a->pc[0].p, a->pc[0].n, 0,
		    &a->pc[0].rep);
		run_worker(&w[0]);
		for (i = 1; i < k; i++)
			pthread_join(tids[i], NULL);
	}
	/* After a fatal piece the line count stops, so later ones go unsaid. */
	for (i = 0; i < a->n && ret == 0; i++)
		if (account(pl, &a->pc[i].rep) < 0)
			ret = -1;
	free(a);
	return ret;
}

static int
collapse_perf(struct perf_ctx *ctx, int nthreads, struct perf_shared *sh,
    struct input *in)
{
	struct place pl = { NULL, 0, 0, 0, 0 };
	struct perf_report rep;
	const char *p, *path;
	size_t n;
	int at_boundary, r, ret = 0, nl_end = 1;

	input_set_boundary(in, "\n\n");
	pl.name = path = in->name;
	while ((r = input_next(in, &p, &n, &at_boundary)) > 0) {
		nl_end = p[n - 1] == '\n';
		if (sh->event == NULL || !ctx[0].seen_line) {
			size_t used;

			memset(&rep, 0, sizeof rep);
			used = perf_parse(&ctx[0], sh, p, n, 1, &rep);
			if (account(&pl, &rep) < 0) {
				ret = -1;
				break;
			}
			p += used;
			n -= used;
		}
		if (n && parse_block(ctx, nthreads, sh, p, n, at_boundary, &pl) < 0) {
			ret = -1;
			break;
		}
		in->lines = pl.line;	/* for input.h's line too long */
	}
	if (r < 0)
		ret = -1;
	memset(&rep, 0, sizeof rep);
	if (ret == 0 && perf_end_file(&ctx[0], &rep)) {
		warn_at(path, pl.line + !nl_end,
		    "input ends inside a sample (no blank line after it); %s",
		    sh->o->perl ? "dropped it" : "counted it");
	}
	if (rep.errline) {
		warn_at(path, pl.line + !nl_end, "%s", rep.errmsg);
		ret = -1;
	}
	if (pl.nskipped)
		warn_at(path, 0, "skipped %llu unrecognized line%s",
		    (unsigned long long)pl.nskipped, pl.nskipped == 1 ? "" : "s");
	if (pl.nfiltered)
		warn_at(path, 0, "skipped %llu sample%s of events other than %s",
		    (unsigned long long)pl.nfiltered,
		    pl.nfiltered == 1 ? "" : "s", sh->event);
	return ret;
}

static void
perf_begin(const struct fmt_run *run)
{
	/* Said before any input is read, not as frames quietly kept. */
	if (drv.o.inline_frames && !a2l_available())
		die(EXIT_INPUT, "--inline runs addr2line (GNU binutils), which "
		    "is not in PATH");
	drv.run = *run;
	drv.nctx = run->nthreads;
	if (run->noagg) {
		drv.nctx = 1;
		drv.o.no_aggregate = 1;
		drv.o.xf = run->xf;
	}
	for (int i = 0; i < drv.nctx; i++)
		perf_ctx_init(&drv.ctx[i], &drv.sh);
}

static int
perf_input(struct input *in)
{
	return collapse_perf(drv.ctx, drv.nctx, &drv.sh, in);
}

/*
 * What the counts are: nanoseconds when the event is a clock
 * (cpu-clock, task-clock: perf's period is the time between samples;
 * trace-record --wall's offcpu-time, whose period is the time blocked,
 * kept beside cpu-clock); for
 * trace-record --alloc's events (alloc_space, inuse_objects, ...) the
 * heap profile's sample type and unit as Go writes them, "TYPE/bytes"
 * or "TYPE/count" (speedscope: bytes, or none); all only when every
 * sample kept had its period; else unknown (NULL).
 */
static const char *
perf_unit(void)
{
	static const char *const heap[] = {
		"alloc_space", "alloc_objects", "inuse_space", "inuse_objects",
		"peak_space", "peak_objects",
	};
	static char typed[32];
	const char *ev = drv.sh.event, *unit = NULL;
	size_t n = ev ? strcspn(ev, ":") : 0;

	if (ev == NULL)
		return NULL;
	if ((n == 9 && memcmp(ev, "cpu-clock", 9) == 0) ||
	    (n == 10 && memcmp(ev, "task-clock", 10) == 0) ||
	    (n == 11 && memcmp(ev, "offcpu-time", 11) == 0))
		unit = "nanoseconds";
	for (size_t i = 0; i < sizeof heap / sizeof heap[0]; i++)
		if (n == strlen(heap[i]) && memcmp(ev, heap[i], n) == 0) {
			int bytes = i % 2 == 0;

			snprintf(typed, sizeof typed, "%s/%s", heap[i], bytes ? "bytes" : "count");
			unit = drv.run.pprof || drv.run.table ? typed :
			    bytes ? "bytes" : "none";
		}
	for (int i = 0; unit && i < drv.nctx; i++)
		if (drv.ctx[i].no_period)
			return NULL;
	return unit;
}

static void
perf_end(void)
{
	const char *u;

	if (drv.run.unit == NULL && (drv.run.pprof || drv.run.speedscope ||
	    drv.run.table))
		drv.run.unit = perf_unit();
	/*
	 * Said on the first line (folded(5)), as trace-record --folded says
	 * it, so that flamegraph-svg labels time as time without
	 * --countname: flamegraph.pl and inferno skip the line.  --perl
	 * keeps stackcollapse-perf.pl's bytes, which have no such line.
	 */
	if (!drv.o.perl && !drv.run.noagg && !drv.run.table && !drv.run.pprof &&
	    !drv.run.speedscope && !drv.run.flamebearer &&
	    (u = perf_unit()) != NULL) {
		out_str(FOLDED_UNIT_LINE);
		out_str(strcmp(u, "nanoseconds") == 0 ? "ns" :
		    strcmp(u, "bytes") == 0 ? "bytes" : "objects");
		out_char('\n');
	}
	if (!drv.run.noagg && stacks_write(drv.ctx, drv.nctx, &drv.run) < 0) {
		out_flush();
		exit(EXIT_INPUT);
	}
	for (int i = 0; i < drv.nctx; i++)
		perf_ctx_free(&drv.ctx[i]);
	if (drv.sh.event_defaulted)
		free(drv.sh.event);
}

static const struct fmt_driver perf_driver = { perf_begin, perf_input,
    perf_end };

const struct format perf_format = {
	.name = "perf",
	.detect = perf_detect,
	.options = perf_options,
	.driver = &perf_driver,
};
