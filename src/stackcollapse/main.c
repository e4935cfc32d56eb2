/*
 * stackcollapse: fold stack samples into one line per distinct stack.
 *
 * Reads a profiler's output (files or standard input, gzip detected by its
 * magic bytes) and writes folded stacks, "root;...;leaf COUNT", sorted
 * bytewise, as FlameGraph's stackcollapse scripts do, byte for byte:
 *
 *	perf record -F 99 -g -- ./prog
 *	perf script | stackcollapse | flamegraph-svg > prog.svg
 *
 * The format is named with --format or recognized from the first input's
 * head (formats.c); every input of one run is read in that format.  perf
 * input is parsed here, large inputs split at blank lines (sample
 * boundaries) and parsed on several threads with the same output as one;
 * folded input goes through merge.c, the other formats through their own
 * file and the sink (formats.h).
 */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/input.h"
#include "../lib/num.h"
#include "../lib/opt.h"
#include "../lib/out.h"
#include "formats.h"
#include "merge.h"
#include "perf.h"
#include "stacks.h"

#define MAX_THREADS 16
#define MIN_PART (8u << 20)	/* smaller parts are not worth a thread */

static const char usage_text[] =
"usage: stackcollapse [--format=FORMAT] [--recursive] [--no-aggregate]\n"
"                     [FORMAT OPTIONS] [FILE...]\n"
"       stackcollapse --diff [-n] [-s] [--recursive] BEFORE AFTER\n"
"\n"
"Fold a profiler's stack samples into folded stacks (see folded(5)); merge\n"
"folded files; or write the difference of two (stack, before, after).\n"
"\n"
"  --format=FORMAT       auto (default: recognized from the first input),\n"
"                        perf, dtrace, stap, bpftrace, gdb, jstack, sample,\n"
"                        vtune, vsprof, ghcprof, xctrace, pmcstat, go, chrome,\n"
"                        folded (sum and sort folded files)\n"
"  --recursive           collapse direct recursion: a;b;b;c becomes a;b;c\n"
"  --no-aggregate        one line per sample, in input order, nothing merged\n"
"  --diff                BEFORE and AFTER folded files to \"STACK N1 N2\"\n"
"  -n, --normalize       --diff: scale BEFORE's counts to AFTER's total\n"
"  -s, --strip-hex       --diff: write every 0x<hex> as 0x...\n"
"  --pid                 root frame comm-PID\n"
"  --tid                 root frame comm-PID/TID\n"
"  --kernel              annotate kernel frames with _[k]\n"
"  --jit                 annotate JIT frames with _[j]\n"
"  --all                 --kernel and --jit\n"
"  --addrs               show addresses of frames with no symbol\n"
"  --event-filter=EVENT  keep samples of EVENT (default: the first event)\n"
"  --includeoffset       dtrace: keep function offsets (+0x..)\n"
"  --no-modules          sample, vtune: no module`function prefix\n"
"  --ticks, --bytes      ghcprof: weigh by ticks or bytes, not %time\n"
"  --no-thread-names     jstack: no thread name root frame\n"
"  --thread-ids          jstack: keep the -TID of thread names\n"
"  --shorten-pkgs        jstack: org.foo.Bar.run becomes o.f.Bar.run\n"
"  --all-states          jstack: every thread, not only RUNNABLE ones\n"
"  --perl                exactly stackcollapse-perf.pl: drop a last sample\n"
"                        with no blank line, cut names at the first '(',\n"
"                        keep half-demangled Rust names\n"
"  -j, --threads=N       parse with N threads (default: CPUs, at most 16)\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n";

/* One part of a block, parsed by one context. */
struct job {
	struct perf_ctx *ctx;
	struct perf_shared *wsh;	/* NULL on worker threads */
	const char *p;
	size_t n;
	struct perf_report rep;
};

static void *
run_job(void *arg)
{
	struct job *j = arg;

	perf_parse(j->ctx, j->wsh, j->p, j->n, 0, &j->rep);
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

/* Split a block at blank lines into at most nthreads parts and parse them. */
static int
parse_block(struct perf_ctx *ctx, int nthreads, struct perf_shared *sh,
    const char *p, size_t n, int at_boundary, struct place *pl)
{
	struct job jobs[MAX_THREADS];
	pthread_t tids[MAX_THREADS];
	int k = 1, i, ret = 0;

	memset(jobs, 0, sizeof jobs);
	jobs[0] = (struct job){ &ctx[0], sh, p, n, { 0 } };
	if (at_boundary && sh->event != NULL && nthreads > 1) {
		const char *cut = p, *end = p + n;

		for (i = 1; i < nthreads; i++) {
			const char *t = p + (size_t)((double)n * i / nthreads);
			const char *b;

			if (t < cut + MIN_PART || end - t < MIN_PART)
				continue;
			b = memmem(t, (size_t)(end - t), "\n\n", 2);
			if (b == NULL || end - (b + 2) < MIN_PART)
				break;
			jobs[k - 1].n = (size_t)(b + 2 - jobs[k - 1].p);
			jobs[k] = (struct job){ &ctx[k], NULL, b + 2,
			    (size_t)(end - (b + 2)), { 0 } };
			cut = b + 2;
			k++;
		}
	}
	for (i = 1; i < k; i++)
		if (pthread_create(&tids[i], NULL, run_job, &jobs[i]) != 0)
			die(EXIT_INPUT, "cannot start a thread:");
	run_job(&jobs[0]);
	for (i = 1; i < k; i++)
		pthread_join(tids[i], NULL);
	for (i = 0; i < k; i++)
		if (account(pl, &jobs[i].rep) < 0)
			ret = -1;
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
		if (sh->event == NULL) {
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

/* --diff: two folded files set side by side. */
static int
fold_diff(char **argv, int recursive, int normalize, int strip)
{
	struct merge m;
	int status = 0;

	merge_init(&m);
	m.recursive = recursive;
	m.striphex = strip;
	m.integral = 1;
	for (int i = 0; i < 2; i++)
		if (merge_read(&m, argv[i], i) < 0)
			status = EXIT_INPUT;
	if (status == 0 && merge_write(&m, 1, normalize) < 0)
		status = EXIT_INPUT;
	out_flush();
	merge_free(&m);
	return status;
}

/* The first input's head, to tell its format: more when that is not enough. */
#define HEAD_BYTES (64u << 10)
#define HEAD_MAX (4u << 20)

/*
 * Recognize the format of the open input from its head: 1 with *f set,
 * 0 for an empty input or one of blank lines only (nothing to fold; the
 * latter is said), -1 after an error.  Detection starts at the first line
 * that is not blank, however far in; a NUL byte is not blank.
 */
static int
guess(struct input *in, const struct format **f)
{
	const char *p;
	size_t n, i, want, from;
	int full;

	for (want = HEAD_BYTES;; want *= 8) {
		if (input_head(in, want, &p, &n) < 0)
			return -1;
		full = n >= want;
		for (i = 0; i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
		    p[i] == '\n'); i++)
			;
		if (i == n && !full) {
			if (n)
				warn_at(in->name, 0, "nothing to fold: the input "
				    "has only blank lines");
			return 0;
		}
		if (i < n) {
			/* A full head may end inside a line: detect on whole ones. */
			from = i;
			while (from > 0 && p[from - 1] != '\n')
				from--;
			if (full) {
				const char *nl = memrchr(p + from, '\n', n - from);

				n = nl ? (size_t)(nl + 1 - p) : n;
			}
			if ((*f = fmt_guess(p + from, n - from)) != NULL)
				return 1;
		}
		if (!full || want >= HEAD_MAX)
			break;
	}
	warn_at(in->name, 0, "cannot tell the input's format; tried %s "
	    "(name one with --format)", fmt_names());
	return -1;
}

/* One input in a format of formats.c. */
static int
collapse_other(const struct format *f, struct input *in,
    const struct fmt_opts *fo, struct sink *sink)
{
	struct reader r;
	int ret;

	memset(&r, 0, sizeof r);
	r.in = in;
	r.name = in->name;
	r.o = fo;
	r.sink = sink;
	sink->rd = &r;
	ret = f->collapse(&r);
	sink->rd = NULL;
	if (sink->failed)
		ret = -1;
	if (r.nskipped)
		warn_at(r.name, 0, "skipped %llu unrecognized line%s",
		    (unsigned long long)r.nskipped, r.nskipped == 1 ? "" : "s");
	return ret;
}

int
main(int argc, char **argv)
{
	enum { OPT_EVENT = 256, OPT_PERL, OPT_FORMAT, OPT_RECURSIVE, OPT_DIFF,
	    OPT_NOAGG, OPT_OFFSET, OPT_NOMOD, OPT_TICKS, OPT_BYTES, OPT_TIME,
	    OPT_NOTNAME, OPT_TIDS, OPT_SHORTEN, OPT_ALLSTATES };
	static const struct option longopts[] = {
		{ "addrs", no_argument, NULL, 'a' },
		{ "all", no_argument, NULL, 'A' },
		{ "all-states", no_argument, NULL, OPT_ALLSTATES },
		{ "bytes", no_argument, NULL, OPT_BYTES },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "event-filter", required_argument, NULL, OPT_EVENT },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "includeoffset", no_argument, NULL, OPT_OFFSET },
		{ "jit", no_argument, NULL, 'J' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "no-aggregate", no_argument, NULL, OPT_NOAGG },
		{ "no-modules", no_argument, NULL, OPT_NOMOD },
		{ "no-thread-names", no_argument, NULL, OPT_NOTNAME },
		{ "normalize", no_argument, NULL, 'n' },
		{ "perl", no_argument, NULL, OPT_PERL },
		{ "pid", no_argument, NULL, 'p' },
		{ "recursive", no_argument, NULL, OPT_RECURSIVE },
		{ "shorten-pkgs", no_argument, NULL, OPT_SHORTEN },
		{ "strip-hex", no_argument, NULL, 's' },
		{ "thread-ids", no_argument, NULL, OPT_TIDS },
		{ "threads", required_argument, NULL, 'j' },
		{ "ticks", no_argument, NULL, OPT_TICKS },
		{ "tid", no_argument, NULL, 't' },
		{ "time", no_argument, NULL, OPT_TIME },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct perf_opts o = { 0 };
	struct perf_shared sh = { &o, NULL, 0, 0 };
	struct perf_ctx ctx[MAX_THREADS];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nthreads = ncpu < 1 ? 1 : ncpu > MAX_THREADS ? MAX_THREADS : (int)ncpu;
	int ch, i, status = 0, recursive = 0, diff = 0, normalize = 0;
	int strip = 0, noagg = 0, any_perf = 0;
	const struct format *fmt = NULL;
	struct fmt_opts fo = { 0 };
	struct sink sink;
	char *stdin_only[] = { "-", NULL };
	uint64_t v;

	err_init(argv[0]);
	out_init();
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hj:nsV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			o.include_addrs = 1;
			break;
		case 'A':
			o.annotate_kernel = o.annotate_jit = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			out_flush();
			return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
		case 'j':
			if (num_parse_arg(optarg, 1, MAX_THREADS, &v) < 0)
				die(EXIT_USAGE, "--threads takes a number from 1 "
				    "to %d, not \"%s\"", MAX_THREADS, optarg);
			nthreads = (int)v;
			break;
		case 'J':
			o.annotate_jit = 1;
			break;
		case 'k':
			o.annotate_kernel = 1;
			break;
		case 'p':
			o.include_pid = 1;
			break;
		case 't':
			o.include_tid = 1;
			break;
		case 'V':
			puts("stackcollapse (flametools) " FT_VERSION);
			return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
		case OPT_PERL:
			o.perl = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "auto") == 0)
				fmt = NULL;
			else if ((fmt = fmt_find(optarg)) == NULL)
				die(EXIT_USAGE, "unknown format \"%s\" (auto, %s)",
				    optarg, fmt_names());
			break;
		case OPT_NOAGG:
			noagg = 1;
			break;
		case OPT_OFFSET:
			fo.includeoffset = 1;
			break;
		case OPT_NOMOD:
			fo.no_modules = 1;
			break;
		case OPT_TIME:
			fo.ghc_source = 0;
			break;
		case OPT_TICKS:
			fo.ghc_source = 1;
			break;
		case OPT_BYTES:
			fo.ghc_source = 2;
			break;
		case OPT_NOTNAME:
			fo.jstack_no_tname = 1;
			break;
		case OPT_TIDS:
			fo.jstack_tid = 1;
			break;
		case OPT_SHORTEN:
			fo.shorten_pkgs = 1;
			break;
		case OPT_ALLSTATES:
			fo.jstack_all = 1;
			break;
		case OPT_RECURSIVE:
			recursive = 1;
			break;
		case OPT_DIFF:
			diff = 1;
			break;
		case 'n':
			normalize = 1;
			break;
		case 's':
			strip = 1;
			break;
		case OPT_EVENT:
			if (*optarg == '\0')
				die(EXIT_USAGE, "--event-filter needs an event name");
			sh.event = optarg;
			sh.eventlen = strlen(optarg);
			break;
		default:
			opt_fail(ch, argv, usage_text);
		}
	}
	argc -= optind;
	argv += optind;

	if ((normalize || strip) && !diff)
		die(EXIT_USAGE, "--normalize and --strip-hex go with --diff");
	if (diff && argc != 2)
		die(EXIT_USAGE, "--diff takes two folded files, BEFORE and AFTER");
	if (diff)
		return fold_diff(argv, recursive, normalize, strip);
	if (noagg) {
		nthreads = 1;
		o.no_aggregate = 1;
		o.recursive = recursive;
	}
	for (i = 0; i < nthreads; i++)
		perf_ctx_init(&ctx[i], &sh);
	sink_init(&sink, noagg, recursive);
	if (argc == 0)
		argv = stdin_only, argc = 1;
	for (i = 0; i < argc; i++) {
		struct input in;
		int r = 0;

		if (input_open(&in, argv[i], "\n") < 0) {
			status = EXIT_INPUT;
			continue;
		}
		if (fmt == NULL && (r = guess(&in, &fmt)) <= 0) {
			input_close(&in);
			if (r == 0)
				continue;
			status = EXIT_INPUT;
			break;
		}
		if (strcmp(fmt->name, "perf") == 0) {
			any_perf = 1;
			r = collapse_perf(ctx, nthreads, &sh, &in);
		} else if (strcmp(fmt->name, "folded") == 0) {
			if (noagg)
				die(EXIT_USAGE, "%s: folded input is one line per stack "
				    "already; --no-aggregate does not apply", in.name);
			r = merge_read_input(&sink.m, &in, 0) < 0 ? -1 : 0;
		} else {
			r = collapse_other(fmt, &in, &fo, &sink);
		}
		if (r < 0)
			status = EXIT_INPUT;
		input_close(&in);
	}
	if (any_perf && !noagg && stacks_write(ctx, nthreads, recursive) < 0)
		die(EXIT_INPUT, "a stack's total count does not fit in 64 bits");
	/* A sum of folded files missing one would look complete. */
	sink_finish(&sink, status == 0 || fmt == NULL ||
	    strcmp(fmt->name, "folded") != 0);
	out_flush();
	for (i = 0; i < nthreads; i++)
		perf_ctx_free(&ctx[i]);
	if (sh.event_defaulted)
		free(sh.event);
	return status;
}
