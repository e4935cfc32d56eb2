/*
 * stackcollapse: fold stack samples into one line per distinct stack.
 *
 * Reads a profiler's output (files or standard input, gzip detected by its
 * magic bytes; pprof's profile.proto too) and writes folded stacks, "root;...;leaf COUNT", sorted
 * bytewise, as FlameGraph's stackcollapse scripts do, byte for byte:
 *
 *	perf record -F 99 -g -- ./prog
 *	perf script | stackcollapse | flamegraph-svg > prog.svg
 *
 * The format is named with --format or recognized from the first input's
 * head (formats.c); every input of one run is read in that format, by
 * the format's file through a reader into the sink (formats.h), or by the
 * format's own driver (perf's, perfrun.c, parses on several threads).
 * Each format declares the options it takes; this file adds the ones of
 * the run (--format, --no-aggregate, --to, --unit, --diff, -j) and the
 * transforms (--focus, --hide, ..., transform.c), which every format's
 * stacks go through once summed.
 * The aggregated stacks are written as folded text or, with --to=table,
 * as a table of functions (table.c), with --to=pprof as a pprof profile
 * (pprofout.c), or with --to=speedscope as a file for speedscope's app
 * (speedscope.c).  --to=spans is no output of stacks: it gives back the
 * spans a timeline SVG was drawn from (tlread.c).
 */
#include <getopt.h>
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
#include "../lib/sniff.h"
#include "flamebearer.h"
#include "formats.h"
#include "merge.h"
#include "pprofout.h"
#include "speedscope.h"
#include "table.h"
#include "tlread.h"
#include "transform.h"

static const char usage_text[] =
"usage: stackcollapse [--format=FORMAT] [TRANSFORM...] [--no-aggregate]\n"
"                     [--to=folded|table|pprof|speedscope|flamebearer]\n"
"                     [--unit=UNIT] [FORMAT OPTIONS] [FILE...]\n"
"       stackcollapse --diff [-n] [-s] [TRANSFORM...] BEFORE AFTER\n"
"       stackcollapse --diff --to=table|flamebearer [-s] [TRANSFORM...]\n"
"                     BEFORE AFTER\n"
"       stackcollapse --diff --to=table [-s] [TRANSFORM...] [DIFF_FILE]\n"
"       stackcollapse --to=spans [TIMELINE_SVG]\n"
"\n"
"Fold a profiler's stack samples into folded stacks (see folded(5)); merge\n"
"folded files; write them as a table of functions; or write the difference\n"
"of two (stack, before, after).\n"
"\n"
"  --format=FORMAT       auto (default: recognized from the first input),\n"
"                        perf, dtrace, stap, bpftrace, gdb, jstack, sample,\n"
"                        vtune, vsprof, ghcprof, xctrace, pmcstat, go, chrome,\n"
"                        pprof, elfutils, faulthandler, perf-sched,\n"
"                        java-exceptions, ibmjava, instruments, ljp, xdebug,\n"
"                        wcp, aix, vtune-mc, svg (a flame graph drawn by\n"
"                        flamegraph.pl, inferno or flamegraph-svg),\n"
"                        flamebearer (Pyroscope's JSON), spans (the\n"
"                        samples of trace-record --sample --spans),\n"
"                        folded (sum and sort folded files)\n"
"  --no-aggregate        one line per sample, in input order, nothing merged\n"
"  --to=OUTPUT           folded (default), or table: per function\n"
"                        \"SELF\\tTOTAL\\tSELF%\\tTOTAL%\\tNAME\", heaviest\n"
"                        self first, shares of all; with --diff\n"
"                        \"SELF_BEFORE\\tTOTAL_BEFORE\\tSELF_AFTER\\tTOTAL_AFTER\\tNAME\"\n"
"                        largest growth of self share first; or pprof: a\n"
"                        profile.proto (gzip when built with zlib); or\n"
"                        speedscope: a speedscope JSON file (speedscope.app);\n"
"                        or flamebearer: Pyroscope's profile JSON; or\n"
"                        spans: the laid-out spans (spans(5)) that\n"
"                        flamegraph-svg drew a timeline SVG from\n"
"  --unit=UNIT           what a count is: samples (default; nanoseconds\n"
"                        for perf's cpu-clock and task-clock), nanoseconds,\n"
"                        bytes; for speedscope also microseconds,\n"
"                        milliseconds, seconds; for pprof also objects or\n"
"                        TYPE/UNIT (--sample-unit is the same option); for\n"
"                        flamebearer Pyroscope's units or a time\n"
"  --diff                BEFORE and AFTER folded files to \"STACK N1 N2\"\n"
"  -n, --normalize       --diff: scale BEFORE's counts to AFTER's total\n"
"  -s, --strip-hex       --diff: write every 0x<hex> as 0x...; -s without\n"
"                        --diff: vtune-mc's --size\n"
"  --pid                 root frame comm-PID\n"
"  --tid                 root frame comm-PID/TID\n"
"  --kernel              annotate kernel frames with _[k]\n"
"  --jit                 annotate JIT frames with _[j]\n"
"  --all                 --kernel and --jit\n"
"  --addrs               show addresses of frames with no symbol\n"
"  --event-filter=EVENT  keep samples of EVENT (default: the first event)\n"
"  --span=REGEX          spans: the samples taken while a span whose name\n"
"                        matches was open, its children's included\n"
"  --span-self           spans: only those whose innermost span matches\n"
"  --by-span             spans: the innermost span's name as the root frame\n"
"  --srcline             append :FILE:LINE of perf script -F +srcline\n"
"  --inline              frames inlined at each address (runs addr2line)\n"
"  --context             --inline: each with :FILE:LINE\n"
"  --includeoffset       dtrace: keep function offsets (+0x..)\n"
"  --no-modules          sample, vtune: no module`function prefix\n"
"  --time, --ticks, --bytes\n"
"                        ghcprof: weigh by %time (default), ticks or bytes\n"
"  --sample-type=NAME    pprof: the value to count (default: the profile's)\n"
"  --labels              pprof: a root frame of each sample's labels\n"
"  --no-thread-names     jstack: no thread name root frame\n"
"  --thread-ids          jstack: keep the -TID of thread names\n"
"  --shorten-pkgs        jstack, java-exceptions, ibmjava: org.foo.Bar.run is\n"
"                        o.f.Bar.run\n"
"  --[no-]include-tname, --[no-]include-tid, --no-shorten-pkgs\n"
"                        jstack: stackcollapse-jstack.pl's names (and\n"
"                        --noNAME, as Getopt::Long takes them)\n"
"  --all-states          jstack: every thread, not only RUNNABLE ones\n"
"                        elfutils: --pid, --tid root frames PID=N, TID=N\n"
"  --record_tid, --record_wake_stack, --recurse\n"
"                        perf-sched: the awk script's variables, or\n"
"                        -v NAME=VALUE as awk takes them (-v recurse=1)\n"
"  --no-pkgs             java-exceptions: Bar.run for org.foo.Bar.run\n"
"  --calls, -c           xdebug: count calls, not microseconds\n"
"  --time, -t            xdebug: weigh by microseconds (the default)\n"
"  --size                vtune-mc: weigh allocated bytes, not allocations\n"
"  --include-tid, --no-include-tname\n"
"                        ibmjava: NAME-NATIVEID; no thread name frame\n"
"  -NAME                 any long option of a FlameGraph script's, after one\n"
"                        dash as Getopt::Long takes it (-pid, -include-tid)\n"
"  --perl                exactly stackcollapse-perf.pl: drop a last sample\n"
"                        with no blank line, cut names at the first '(',\n"
"                        keep half-demangled Rust names\n"
"  -j, --threads=N       parse with N threads (default: CPUs, at most 16)\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"Transforms, applied to each stack in the order given, then summed; REGEX\n"
"is an extended regular expression searched in each frame, as grep -E:\n"
"  --focus=REGEX         keep the stacks with a matching frame\n"
"  --ignore=REGEX        drop the stacks with a matching frame\n"
"  --hide=REGEX          remove matching frames, their time to the caller\n"
"  --show-from=REGEX     start each stack at its first matching frame, drop\n"
"                        the stacks without one\n"
"  --prune-from=REGEX    end each stack at its first matching frame\n"
"  --collapse-recursion, --recursive\n"
"                        a run of one frame is one: a;b;b;c becomes a;b;c\n"
"  --invert              the leaf first, the root last\n";

/* The first input's head, to tell its format: more when that is not enough. */
#define HEAD_BYTES (64u << 10)
#define HEAD_MAX (4u << 20)

static int detect(struct input *in, const struct format **f, int *blank);
static int collapse_input(const struct format *f, struct input *in,
    struct sink *sink);

/*
 * One --diff input into column which: folded stacks as they are, or
 * another format folded first as it would be alone (a span profile with
 * --span, a pprof profile, ...).  perf script text has a driver of its
 * own, which writes its stacks itself: it is to be folded first.
 */
static int
diff_read(struct merge *m, const char *path, int which, const struct fmt_run *run)
{
	const struct format *f = NULL;
	struct input in;
	int ret = 0, blank;

	if (input_open(&in, path, "\n") < 0)
		return -1;
	/* What another format says it is; else folded, read as ever. */
	if (which != MERGE_BOTH && detect(&in, &f, &blank) < 0) {
		input_close(&in);
		return -1;
	}
	if (f == NULL || f == fmt_find("folded")) {
		ret = merge_read_input(m, &in, which) < 0 ? -1 : 0;
	} else if (f->driver) {
		warn_at(in.name, 0, "--diff folds %s input only once folded: "
		    "stackcollapse %s > FILE.folded first", f->name, in.name);
		ret = -1;
	} else {
		struct fmt_run alone = *run;
		struct sink sk;

		/* Summed as they are: transforms and outputs come after. */
		alone.xf = NULL;
		alone.table = alone.pprof = alone.speedscope = alone.flamebearer = 0;
		alone.noagg = 0;
		sink_init(&sk, &alone);
		ret = collapse_input(f, &in, &sk);
		if (sk.m.unit[0])
			merge_unit(m, sk.m.unit);
		for (uint32_t id = 0; ret == 0 && id < folded_sum_n(&sk.m.sum); id++) {
			size_t len;
			const char *st = folded_sum_stack(&sk.m.sum, id, &len);

			if (merge_add(m, st, len, folded_sum_count(&sk.m.sum, 0, id),
			    which) < 0) {
				warn_at(in.name, 0, "a stack's counts sum to 2^64 or more");
				ret = -1;
			}
		}
		sink_finish(&sk, 0);
	}
	input_close(&in);
	return ret;
}

/*
 * --diff: two inputs set side by side (folded, or folded first by
 * diff_read), or as a table of both (table.h), which reads one "STACK
 * BEFORE AFTER" file too (argc 1, or 0 for standard input) and keeps
 * fractions.
 */
static int
fold_diff(int argc, char **argv, const struct fmt_run *run, int normalize,
    int strip)
{
	char *stdin_only[] = { "-", NULL };
	struct merge m;
	int status = 0, table = run->table || run->flamebearer;

	merge_init(&m);
	m.striphex = strip;
	m.integral = !run->table;
	if (argc == 0)
		argv = stdin_only;
	for (int i = 0; i < (argc == 2 ? 2 : 1); i++)
		if (diff_read(&m, argv[i], argc == 2 ? i : MERGE_BOTH, run) < 0)
			status = EXIT_INPUT;
	if (status == 0 && xform_sum(run->xf, &m.sum) < 0) {
		warn_msg("a transformed stack's counts sum to 2^64 or more");
		status = EXIT_INPUT;
	} else if (status == 0 && table && sink_write_diff(&m, run) < 0)
		status = EXIT_INPUT;
	else if (status == 0 && !table) {
		/* what the counts are, when the inputs agree (folded(5)) */
		if (m.unit[0]) {
			out_str(FOLDED_UNIT_LINE);
			out_str(m.unit);
			out_char('\n');
		}
		if (merge_write(&m, 1, normalize) < 0)
			status = EXIT_INPUT;
	}
	out_flush();
	merge_free(&m);
	return status;
}

/*
 * An input that is another step's (sniff.h): said with what to run, 1;
 * else 0.  A trace with a CPU profile in it is chrome's to read, a spans
 * file spanprof.c's (its samples, or what to run when it has none).
 */
static int
wrong_step(const struct input *in, const char *p, size_t n)
{
	char q[SNIFF_NAME_MAX];
	unsigned long long line;

	switch (sniff_head(p, n, &line)) {
	case SNIFF_PERF_DATA:
		warn_at(in->name, 0, "this is perf.data, not text: run perf "
		    "script -i %s | stackcollapse", sniff_perf_name(q, in->name));
		return 1;
	case SNIFF_CHROME_TRACE:
		warn_at(in->name, line, "this is a Chrome trace of spans, not "
		    "samples: fold it with spanlayout --fold");
		return 1;
	default:
		return 0;
	}
}

/*
 * The format of the open input from its head, said to no one: 1 with *f
 * set, 0 when none claims it (*blank: the input is empty or blank lines
 * only), -1 on a read error.  Detection starts at the first line that
 * is not blank, however far in; a NUL byte is not blank.
 */
static int
detect(struct input *in, const struct format **f, int *blank)
{
	const char *p;
	size_t n, i, want, from;
	int full;

	*blank = 0;
	for (want = HEAD_BYTES;; want *= 8) {
		if (input_head(in, want, &p, &n) < 0)
			return -1;
		if ((*f = fmt_guess_binary(p, n)) != NULL)
			return 1;
		full = n >= want;
		for (i = 0; i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
		    p[i] == '\n'); i++)
			;
		if (i == n && !full) {
			*blank = 1;
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
			return 0;
	}
}

/*
 * Recognize the format of the open input from its head: 1 with *f set,
 * 0 for an empty input or one of blank lines only (nothing to fold; the
 * latter is said), -1 after an error (another step's file, or no format
 * that claims it, said).
 */
static int
guess(struct input *in, const struct format **f)
{
	const char *p;
	size_t n;
	int blank, r;

	if (input_head(in, HEAD_BYTES, &p, &n) < 0)
		return -1;
	if (wrong_step(in, p, n))
		return -1;
	if ((r = detect(in, f, &blank)) != 0)
		return r;
	if (blank) {
		if (n)
			warn_at(in->name, 0, "nothing to fold: the input has "
			    "only blank lines");
		return 0;
	}
	warn_at(in->name, 0, "cannot tell the input's format; tried %s "
	    "(name one with --format)", fmt_names());
	return -1;
}

/* One input in a format read through a reader into the sink. */
static int
collapse_input(const struct format *f, struct input *in, struct sink *sink)
{
	struct reader r;
	int ret;

	memset(&r, 0, sizeof r);
	r.in = in;
	r.name = in->name;
	r.sink = sink;
	sink->rd = &r;
	if (f->split && sink->run->nthreads > 1 && !sink->noagg && in->map)
		ret = split_collapse(f, &r, sink->run->nthreads);
	else
		ret = f->collapse(&r);
	sink->rd = NULL;
	if (sink->failed)
		ret = -1;
	if (r.nskipped)
		warn_at(r.name, 0, "skipped %llu unrecognized line%s",
		    (unsigned long long)r.nskipped, r.nskipped == 1 ? "" : "s");
	return ret;
}

/* What the command line asks, besides the formats' own options. */
struct opts {
	const struct format *fmt;	/* NULL: told from the first input */
	struct fmt_run run;
	struct xform xf;	/* run.xf */
	int diff;
	int tospans;		/* --to=spans: a timeline SVG's spans */
	int normalize;		/* --diff -n */
	int strip;		/* --diff -s */
	int short_s;		/* -s: --diff's -s, or vtune-mc's --size */
	int short_ct;		/* -c or -t: xdebug's */
	int short_v;		/* -v: perf-sched's */
};

/* Every option, the formats' included; returns optind.  Exits on errors. */
static int
parse_options(int argc, char **argv, struct opts *o)
{
	/* A transform's option is OPT_XFORM + its enum xform_kind. */
	enum { OPT_FORMAT = 256, OPT_DIFF, OPT_NOAGG, OPT_TO, OPT_UNIT,
	    OPT_STRIP, OPT_XFORM = 384, OPT_FMTOPT = 512 };
	static const struct option runopts[] = {
		{ "collapse-recursion", no_argument, NULL,
		    OPT_XFORM + XF_COLLAPSE_RECURSION },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "focus", required_argument, NULL, OPT_XFORM + XF_FOCUS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "hide", required_argument, NULL, OPT_XFORM + XF_HIDE },
		{ "ignore", required_argument, NULL, OPT_XFORM + XF_IGNORE },
		{ "invert", no_argument, NULL, OPT_XFORM + XF_INVERT },
		{ "no-aggregate", no_argument, NULL, OPT_NOAGG },
		{ "normalize", no_argument, NULL, 'n' },
		{ "prune-from", required_argument, NULL,
		    OPT_XFORM + XF_PRUNE_FROM },
		{ "recursive", no_argument, NULL,
		    OPT_XFORM + XF_COLLAPSE_RECURSION },
		{ "sample-unit", required_argument, NULL, OPT_UNIT },
		{ "show-from", required_argument, NULL, OPT_XFORM + XF_SHOW_FROM },
		{ "strip-hex", no_argument, NULL, OPT_STRIP },
		{ "threads", required_argument, NULL, 'j' },
		{ "to", required_argument, NULL, OPT_TO },
		{ "unit", required_argument, NULL, OPT_UNIT },
		{ "version", no_argument, NULL, 'V' },
	};
	const size_t nrun = sizeof runopts / sizeof runopts[0];
	/*
	 * Static: an option's error or --help exits inside the loop, and
	 * the tables stay reachable (not a leak to LeakSanitizer) till then.
	 */
	static struct option *fmtopts, *longopts;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nfmt, typelen;
	const char *type, *unit, *unitarg = NULL;
	char optname[32];
	uint64_t v;
	int ch, li;

	memset(o, 0, sizeof *o);
	fmtopts = fmt_longopts(OPT_FMTOPT);
	xform_init(&o->xf);
	o->run.xf = &o->xf;
	o->run.nthreads = ncpu < 1 ? 1 : ncpu > FMT_MAX_THREADS ?
	    FMT_MAX_THREADS : (int)ncpu;
	for (nfmt = 0; fmtopts[nfmt].name != NULL; nfmt++)
		;
	longopts = xcalloc(nrun + nfmt + 1, sizeof *longopts);
	memcpy(longopts, runopts, sizeof runopts);
	memcpy(longopts + nrun, fmtopts, nfmt * sizeof *fmtopts);
	/* The scripts' names after one dash: fmtopts holds them all. */
	opt_one_dash(argc, argv, fmtopts);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":chj:nstv:V", longopts,
	    &li)) != -1) {
		switch (ch) {
		case 'c':	/* stackcollapse-xdebug.php's -c */
			fmt_option_set("calls", NULL);
			o->short_ct = 1;
			break;
		case 't':
			/*
			 * stackcollapse-xdebug.php's -t: weigh by time, the
			 * default; -c wins over it, before or after, as there.
			 */
			o->short_ct = 1;
			break;
		case 'v':	/* stackcollapse-perf-sched.awk -v NAME=VALUE */
			fmt_option_set("v", optarg);
			o->short_v = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			out_flush();
			exit(fflush(stdout) == 0 ? 0 : EXIT_INPUT);
		case 'j':
			if (num_parse_arg(optarg, 1, FMT_MAX_THREADS, &v) < 0)
				die(EXIT_USAGE, "--threads takes a number from 1 "
				    "to %d, not \"%s\"", FMT_MAX_THREADS, optarg);
			o->run.nthreads = (int)v;
			break;
		case 'n':
			o->normalize = 1;
			break;
		case 's':
			o->short_s = 1;
			break;
		case OPT_STRIP:
			o->strip = 1;
			break;
		case 'V':
			puts("stackcollapse (flametools) " FT_VERSION);
			exit(fflush(stdout) == 0 ? 0 : EXIT_INPUT);
		case OPT_FORMAT:
			if (strcmp(optarg, "auto") == 0)
				o->fmt = NULL;
			else if ((o->fmt = fmt_find(optarg)) == NULL)
				die(EXIT_USAGE, "unknown format \"%s\" (auto, %s)",
				    optarg, fmt_names());
			break;
		case OPT_XFORM + XF_FOCUS:
		case OPT_XFORM + XF_IGNORE:
		case OPT_XFORM + XF_HIDE:
		case OPT_XFORM + XF_SHOW_FROM:
		case OPT_XFORM + XF_PRUNE_FROM:
		case OPT_XFORM + XF_COLLAPSE_RECURSION:
		case OPT_XFORM + XF_INVERT:
			/* "--hide" for regcomp's complaint */
			snprintf(optname, sizeof optname, "--%s",
			    longopts[li].name);
			xform_add(&o->xf, (enum xform_kind)(ch - OPT_XFORM),
			    optname, optarg);
			break;
		case OPT_DIFF:
			o->diff = 1;
			break;
		case OPT_NOAGG:
			o->run.noagg = 1;
			break;
		case OPT_TO:
			o->run.table = strcmp(optarg, "table") == 0;
			o->run.pprof = strcmp(optarg, "pprof") == 0;
			o->run.speedscope = strcmp(optarg, "speedscope") == 0;
			o->run.flamebearer = strcmp(optarg, "flamebearer") == 0;
			o->tospans = strcmp(optarg, "spans") == 0;
			if (!o->run.table && !o->run.pprof &&
			    !o->run.speedscope && !o->run.flamebearer &&
			    !o->tospans && strcmp(optarg, "folded") != 0)
				die(EXIT_USAGE, "unknown output \"%s\" (folded, "
				    "table, pprof, speedscope, flamebearer, spans)",
				    optarg);
			break;
		case OPT_UNIT:
			unitarg = optarg;	/* checked once --to is known */
			break;
		default:
			if (ch >= OPT_FMTOPT && ch < OPT_FMTOPT + (int)nfmt)
				fmt_option_set(fmtopts[ch - OPT_FMTOPT].name,
				    optarg);
			else
				opt_fail(ch, argv, usage_text);
		}
	}
	free(longopts);
	free(fmtopts);
	/*
	 * -s is difffolded.pl's with --diff, else stackcollapse-vtune-mc.pl's
	 * (its --size, abbreviated as Getopt::Long allows and its usage
	 * shows): collapse_all holds it to that format.
	 */
	if (o->short_s && o->diff)
		o->strip = 1;
	else if (o->short_s)
		fmt_option_set("size", NULL);
	if ((o->normalize || o->strip) && !o->diff)
		die(EXIT_USAGE, "--normalize and --strip-hex go with --diff");
	/*
	 * A table sums stacks: none are with --no-aggregate.  Its diff form
	 * orders by shares, so scaling (-n) would change nothing but its
	 * exact counts.
	 */
	if (o->run.table && o->run.noagg)
		die(EXIT_USAGE, "--to=table does not go with --no-aggregate");
	if (o->run.table && o->normalize)
		die(EXIT_USAGE, "--to=table compares shares: --normalize goes "
		    "with --to=folded");
	if (o->run.flamebearer && o->run.noagg)
		die(EXIT_USAGE, "--to=flamebearer does not go with --no-aggregate");
	if (o->run.flamebearer && o->normalize)
		die(EXIT_USAGE, "--to=flamebearer keeps both sides' counts: "
		    "--normalize goes with --to=folded");
	/* Spans are no stacks: nothing that works on stacks applies. */
	if (o->tospans && (o->diff || o->run.noagg || unitarg ||
	    xform_any(&o->xf)))
		die(EXIT_USAGE, "--to=spans writes a timeline's spans: it goes "
		    "with no --diff, --no-aggregate, --unit or transform");
	if (o->tospans && o->fmt != NULL && o->fmt != fmt_find("svg"))
		die(EXIT_USAGE, "--to=spans reads a timeline SVG, not %s",
		    o->fmt->name);
	if (o->tospans && argc - optind > 1)
		die(EXIT_USAGE, "--to=spans reads one timeline SVG");
	if ((o->run.speedscope || o->run.pprof) && (o->diff || o->run.noagg))
		die(EXIT_USAGE, "--to=%s goes with neither --diff nor "
		    "--no-aggregate", o->run.pprof ? "pprof" : "speedscope");
	/* A unit that nothing writes would be silently dropped. */
	if (unitarg && o->run.speedscope) {
		if ((o->run.unit = speedscope_unit(unitarg)) == NULL)
			die(EXIT_USAGE, "unknown unit \"%s\" for speedscope "
			    "(samples, nanoseconds, microseconds, milliseconds, "
			    "seconds, bytes)", unitarg);
	} else if (unitarg && o->run.pprof) {
		if (pprof_unit(unitarg, &type, &typelen, &unit) < 0)
			die(EXIT_USAGE, "unknown unit \"%s\" for pprof (count, "
			    "nanoseconds, bytes, objects, or TYPE/UNIT)", unitarg);
		o->run.unit = unitarg;
	} else if (unitarg && o->run.flamebearer) {
		if (!flamebearer_unit(unitarg))
			die(EXIT_USAGE, "unknown unit \"%s\" for flamebearer "
			    "(samples, objects, goroutines, bytes, lock_samples, "
			    "lock_nanoseconds, trace_samples, exceptions, "
			    "nanoseconds, microseconds, milliseconds, seconds)",
			    unitarg);
		o->run.unit = unitarg;
	} else if (unitarg)
		die(EXIT_USAGE, "--unit goes with --to=pprof, speedscope or "
		    "flamebearer");
	if (o->diff && !o->run.table && !o->run.flamebearer &&
	    argc - optind != 2)
		die(EXIT_USAGE, "--diff takes two folded files, BEFORE and AFTER");
	if (o->diff && (o->run.table || o->run.flamebearer) && argc - optind > 2)
		die(EXIT_USAGE, "--diff --to=%s takes BEFORE and AFTER, or one "
		    "file of \"STACK BEFORE AFTER\" lines", o->run.table ?
		    "table" : "flamebearer");
	return optind;
}

/* Every input in one format; the exit status. */
static int
collapse_all(const struct opts *o, int argc, char **argv)
{
	const struct format *fmt = o->fmt;
	char *stdin_only[] = { "-", NULL };
	struct sink sink;
	int i, status = 0, driving = 0;

	sink_init(&sink, &o->run);
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
		/*
		 * The letters are those of one script each; elsewhere they
		 * would be taken for another script's abbreviation
		 * (stackcollapse-perf.pl -t, its --tid) and silently ignored.
		 */
		if (o->short_s && fmt != fmt_find("vtune-mc"))
			die(EXIT_USAGE, "-s is --strip-hex with --diff, or "
			    "vtune-mc's --size; this input is %s", fmt->name);
		if (o->short_ct && fmt != fmt_find("xdebug"))
			die(EXIT_USAGE, "-c and -t are xdebug's (--calls, "
			    "--time); this input is %s", fmt->name);
		if (o->short_v && fmt != fmt_find("perf-sched"))
			die(EXIT_USAGE, "-v is perf-sched's (the awk script's "
			    "variables); this input is %s", fmt->name);
		if (fmt->driver != NULL) {
			if (!driving)
				fmt->driver->begin(&o->run);
			driving = 1;
			r = fmt->driver->input(&in);
		} else {
			r = collapse_input(fmt, &in, &sink);
		}
		if (r < 0)
			status = EXIT_INPUT;
		input_close(&in);
	}
	if (driving)
		fmt->driver->end();
	/*
	 * A driver wrote its own stacks, the sink has none; with no format
	 * told (fmt NULL) nothing was read, but the table has its header.
	 */
	if (sink_finish(&sink, !driving && (status == 0 || (fmt != NULL &&
	    !fmt->all_or_nothing))) < 0)
		status = EXIT_INPUT;
	out_flush();
	return status;
}

/* --to=spans: the one input's spans; the exit status. */
static int
timeline_spans(const char *path)
{
	struct reader r;
	struct input in;
	int status = 0;

	if (input_open(&in, path ? path : "-", "\n") < 0)
		return EXIT_INPUT;
	memset(&r, 0, sizeof r);
	r.in = &in;
	r.name = in.name;
	if (tlread_spans(&r) < 0)
		status = EXIT_INPUT;
	input_close(&in);
	out_flush();
	return status;
}

int
main(int argc, char **argv)
{
	struct opts o;
	int n, status;

	err_init(argv[0]);
	out_init();
	n = parse_options(argc, argv, &o);
	argc -= n;
	argv += n;
	if (o.tospans)
		status = timeline_spans(argv[0]);
	else if (o.diff)
		status = fold_diff(argc, argv, &o.run, o.normalize, o.strip);
	else
		status = collapse_all(&o, argc, argv);
	xform_end(&o.xf);
	return status;
}
