/*
 * trace-record: run a program and write the spans it records.
 *
 * The program (linked with libtracerecord, or built with
 * -finstrument-functions and linked with it) finds a socket in
 * $TRACE_RECORD_FD, shared memory for its buffers in $TRACE_RECORD_SHM
 * and the clock to read in $TRACE_RECORD_CLOCK; it fills buffers with
 * events and names them in packets (proto.h).  trace-record packs the
 * events as buffers come and puts each buffer back for reuse; when the
 * program and every process that inherited the socket are done, it pairs
 * them into spans and writes them in spans(5) text, times in Unix-epoch
 * nanoseconds.  The clock is chosen and calibrated before the program
 * starts (clock.c).  That run is record.c's; --sample's and --alloc's,
 * sample.c's.
 *
 *	trace-record -o run.spans -- ./server --once
 *	trace-record ./prog | spanlayout | flamegraph-svg --timeline > t.svg
 *	trace-record --alloc=inuse_space --folded ./prog | flamegraph-svg > leaks.svg
 *
 * Exit status: the program's, or 128+N if signal N killed it; 125 if
 * trace-record itself failed, 126 if the program could not be run, 127
 * if it was not found (as env(1) and timeout(1) do).
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/num.h"
#include "../lib/out.h"
#include "perfev.h"
#include "record.h"
#include "sample.h"
#include "spawn.h"

#define DEFAULT_BUFFERS 1024

static const char usage_text[] =
"usage: trace-record [-o FILE] [--clock auto|tsc|tscp|mono] [--buffers N]\n"
"                    [--max-spans N] [--min-duration TIME] [--max-depth N]\n"
"                    [--filter REGEX]... [--exclude REGEX]... [--] PROGRAM [ARG...]\n"
"       trace-record --sample [-g | --call-graph=fp|dwarf] [--stack-size N]\n"
"                    [-F HZ] [--wall] [--spans] [--folded] [-o FILE]\n"
"                    [--mechanism auto|perf|signal] [--] PROGRAM [ARG...]\n"
"       trace-record --sample [-g] [-F HZ] [--folded] [-o FILE] -p PID\n"
"       trace-record --alloc[=TYPE] [--alloc-interval BYTES]\n"
"                    [-g | --call-graph=fp|dwarf] [--folded] [-o FILE]\n"
"                    [--] PROGRAM [ARG...]\n"
"       trace-record --clock-info [--clock auto|tsc|tscp|mono]\n"
"\n"
"Run PROGRAM and write the spans it records (spans(5)) to standard output;\n"
"with --sample, its sampled stacks as perf script text instead.\n"
"\n"
"  -o, --output FILE   write to FILE instead\n"
"      --clock MODE    auto (default): the TSC when the CPU and kernel vouch\n"
"                      for it, else CLOCK_MONOTONIC; or force tsc, tscp\n"
"                      (rdtscp with per-CPU offsets) or mono\n"
"      --buffers N     buffers of 64 KiB (2046 events) the program's threads\n"
"                      share; with none free, a thread waits for one\n"
"                      (default 1024)\n"
"      --max-spans N   write at most N spans, and never make the program\n"
"                      wait: with no buffer free, spans are dropped; both\n"
"                      are counted\n"
"      --min-duration TIME\n"
"                      leave out spans shorter than TIME: digits and ns, us,\n"
"                      ms or s (10us)\n"
"      --max-depth N   leave out spans nested deeper than N kept spans\n"
"      --filter REGEX  only spans whose name matches REGEX (grep -E), and\n"
"                      the spans under them; may be repeated\n"
"      --exclude REGEX leave out spans whose name matches, and the spans\n"
"                      under them; may be repeated\n"
"      --clock-info    print the chosen clock and its calibration, and exit\n"
"      --sample        sample the stacks of PROGRAM (its threads and children)\n"
"      --alloc[=TYPE]  sample its allocations instead, by bytes (LD_PRELOAD);\n"
"                      TYPE alloc_space (default), alloc_objects, inuse_space,\n"
"                      inuse_objects (not freed at the end), peak_space,\n"
"                      peak_objects (live when the heap was largest)\n"
"      --alloc-interval BYTES\n"
"                      mean bytes between samples (default 524288)\n"
"  -F, --freq HZ       samples per second of CPU time per thread (default 99)\n"
"  -g, --call-graph[=fp|dwarf]\n"
"                      whole stacks, not just the function: fp (-g) walks\n"
"                      frame pointers; dwarf unwinds a copy of each\n"
"                      sample's stack with the binaries' DWARF CFI (perf)\n"
"      --stack-size N  dwarf: bytes of stack copied per sample (default\n"
"                      8192; 8 to 65528, a multiple of 8)\n"
"      --wall          also the time each thread spends blocked, off the\n"
"                      CPU (offcpu-time samples)\n"
"      --spans         with the program's spans too: a span profile\n"
"                      (spans(5) with each sample and its span)\n"
"      --folded        write folded stacks, not perf script text\n"
"      --mechanism M   auto (default): perf_event_open, else timer signals\n"
"                      in the program (LD_PRELOAD); or force perf or signal\n"
"  -p, --pid PID       sample a running process until it ends or until\n"
"                      trace-record is interrupted (perf only)\n"
"  -h, --help          this help\n"
"  -V, --version       version\n"
"\n"
"Exit status: the program's (128+N if killed by signal N); 125 if\n"
"trace-record failed, 126 if PROGRAM could not run, 127 if not found.\n";

/* "PRE\"ARG\"" (or just PRE), then the usage; exit 125, not 2. */
static void
usage_fail(const char *pre, const char *arg)
{
	char q[512];

	if (arg)
		warn_msg("%s%s", pre, err_quote(q, arg, strlen(arg), 100));
	else
		warn_msg("%s", pre);
	fputs(usage_text, stderr);
	exit(EXIT_SELF);
}

struct opts {
	struct record_opts	 rec;
	struct sample_opts	 sample;
	int			 sampling;	/* --sample */
	int			 sample_only;	/* an option only --sample takes */
};

/* The options into *o; returns the index of the program's name in argv. */
static int
parse_options(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "alloc", optional_argument, NULL, 'A' },
		{ "alloc-interval", required_argument, NULL, 'I' },
		{ "buffers", required_argument, NULL, 'b' },
		{ "call-graph", optional_argument, NULL, 'G' },
		{ "clock", required_argument, NULL, 'c' },
		{ "clock-info", no_argument, NULL, 'i' },
		{ "exclude", required_argument, NULL, 'e' },
		{ "filter", required_argument, NULL, 'k' },
		{ "folded", no_argument, NULL, 'f' },
		{ "freq", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "max-depth", required_argument, NULL, 'd' },
		{ "max-spans", required_argument, NULL, 'M' },
		{ "mechanism", required_argument, NULL, 'm' },
		{ "min-duration", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "sample", no_argument, NULL, 's' },
		{ "spans", no_argument, NULL, 'P' },
		{ "stack-size", required_argument, NULL, 'S' },
		{ "version", no_argument, NULL, 'V' },
		{ "wall", no_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	struct sample_opts *so = &o->sample;
	struct spanfilter *sf = &o->rec.filter;
	const char *why;
	uint64_t v;
	int ch, hz_set = 0, interval_set = 0;

	while ((ch = getopt_long(argc, argv, "+:F:ghp:o:V", longopts, NULL)) != -1) {
		switch (ch) {
		case 'A':
			if (heap_type(optarg ? optarg : "alloc_space", &so->heap) != 0)
				usage_fail("--alloc wants alloc_space, alloc_objects, "
				    "inuse_space, inuse_objects, peak_space or peak_objects, "
				    "not ", optarg);
			so->alloc = 1;
			o->sampling = 1;
			break;
		case 'I':
			if (num_parse_arg(optarg, 1, (uint64_t)1 << 40, &v) != 0)
				usage_fail("--alloc-interval wants bytes from 1 to 2^40, "
				    "not ", optarg);
			so->heap.interval = v;
			interval_set = 1;
			break;
		case 'b':
			if (num_parse_arg(optarg, 1, 1000000, &v) != 0)
				usage_fail("--buffers wants a count from 1 to 1000000, "
				    "not ", optarg);
			o->rec.nbufs = (uint32_t)v;
			break;
		case 'M':
			if (num_parse_arg(optarg, 1, UINT32_MAX - 1, &v) != 0)
				usage_fail("--max-spans wants a count from 1 to "
				    "4294967294, not ", optarg);
			o->rec.max_spans = v;
			break;
		case 't':
			if (spanfilter_duration(optarg, &sf->min_ns) != 0)
				usage_fail("--min-duration wants a time such as 10us (digits "
				    "and ns, us, ms or s), not ", optarg);
			spanfilter_note(sf, "--min-duration", optarg);
			break;
		case 'd':
			if (num_parse_arg(optarg, 1, 1000000, &v) != 0)
				usage_fail("--max-depth wants a depth from 1 to 1000000, "
				    "not ", optarg);
			sf->max_depth = (uint32_t)v;
			spanfilter_note(sf, "--max-depth", optarg);
			break;
		case 'e':
		case 'k':
			if ((why = spanfilter_add(sf, ch == 'e', optarg)) != NULL) {
				char pre[320];

				snprintf(pre, sizeof pre, "%s wants a POSIX extended "
				    "regular expression (%s), not ",
				    ch == 'e' ? "--exclude" : "--filter", why);
				usage_fail(pre, optarg);
			}
			spanfilter_note(sf, ch == 'e' ? "--exclude" : "--filter", optarg);
			break;
		case 'c':
			if (strcmp(optarg, "auto") && strcmp(optarg, "tsc") &&
			    strcmp(optarg, "tscp") && strcmp(optarg, "mono"))
				usage_fail("--clock wants auto, tsc, tscp or mono, not ",
				    optarg);
			o->rec.clock = optarg;
			break;
		case 'i':
			o->rec.info = 1;
			break;
		case 'F':
			if (num_parse_arg(optarg, 1, 100000, &v) != 0)
				usage_fail("-F wants samples per second from 1 to 100000, "
				    "not ", optarg);
			so->hz = (unsigned)v;
			hz_set = 1;
			o->sample_only = 1;
			break;
		case 'f':
			so->folded = 1;
			o->sample_only = 1;
			break;
		case 'w':
			so->wall = 1;
			o->sample_only = 1;
			break;
		case 'P':
			so->spans = 1;
			o->sample_only = 1;
			break;
		case 'g':
			so->callchain = CG_FP;
			o->sample_only = 1;
			break;
		case 'G':
			if (optarg == NULL || strcmp(optarg, "fp") == 0)
				so->callchain = CG_FP;
			else if (strcmp(optarg, "dwarf") == 0)
				so->callchain = CG_DWARF;
#ifndef __x86_64__
			if (so->callchain == CG_DWARF)
				usage_fail("--call-graph=dwarf unwinds x86-64 code only", NULL);
#endif
			else
				usage_fail("--call-graph wants fp or dwarf, not ", optarg);
			o->sample_only = 1;
			break;
		case 'S':
			if (num_parse_arg(optarg, 8, 65528, &v) != 0 || v % 8)
				usage_fail("--stack-size wants bytes from 8 to 65528, a "
				    "multiple of 8, not ", optarg);
			so->stack = (unsigned)v;
			o->sample_only = 1;
			break;
		case 'm':
			if (strcmp(optarg, "auto") && strcmp(optarg, "perf") &&
			    strcmp(optarg, "signal"))
				usage_fail("--mechanism wants auto, perf or signal, not ",
				    optarg);
			so->mechanism = optarg;
			o->sample_only = 1;
			break;
		case 'p':
			if (num_parse_arg(optarg, 1, 0x7fffffff, &v) != 0)
				usage_fail("-p wants a process id, not ", optarg);
			so->attach = (pid_t)v;
			o->sample_only = 1;
			break;
		case 's':
			o->sampling = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'o':
			o->rec.output = optarg;
			break;
		case 'V':
			printf("trace-record (flametools) %s\n", FT_VERSION);
			exit(0);
		case ':':
			usage_fail("an argument is needed by option ", argv[optind - 1]);
			break;
		default:
			usage_fail("unknown option ", argv[optind - 1]);
		}
	}
	if (!o->sampling && o->sample_only)
		usage_fail("-F, -g, -p, --call-graph, --folded, --mechanism, "
		    "--spans, --stack-size and --wall need --sample", NULL);
	if (o->sampling && spanfilter_active(sf))
		usage_fail("--min-duration, --max-depth, --filter and --exclude "
		    "filter spans: not with --sample or --alloc", NULL);
	if (so->spans && so->folded)
		usage_fail("--spans writes a span profile (spans(5)), not folded "
		    "stacks: stackcollapse folds it", NULL);
	if (interval_set && !so->alloc)
		usage_fail("--alloc-interval needs --alloc", NULL);
	if (so->alloc && (hz_set || so->wall || so->attach ||
	    strcmp(so->mechanism, "perf") == 0))
		usage_fail("--alloc samples in the program: -F, -p, --wall and "
		    "--mechanism=perf do not go with it", NULL);
	if (so->attach && argc > optind)
		usage_fail("-p takes no program to run", NULL);
	if (!o->rec.info && argc == optind && !so->attach)
		usage_fail("no program to run", NULL);
	return optind;
}

/*
 * A closed 0, 1 or 2 would be the next file opened (the output, the
 * socket, the sampler's ring) and be written as stdout by us or by the
 * program.  /dev/null holds the place, opened the other way round, so
 * that using it still fails as the closed one would.
 */
static int
std_fds_hold(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 &&
		    open("/dev/null", fd ? O_RDONLY : O_WRONLY) != fd)
			return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	struct opts o = {
		.rec = { .clock = "auto", .nbufs = DEFAULT_BUFFERS },
		.sample = { .hz = 99, .mechanism = "auto", .stack = 8192,
		    .heap = { .interval = 512 << 10 } },
	};

	if (std_fds_hold() != 0)
		return EXIT_SELF;
	err_init(argv[0]);
	err_input_status(EXIT_SELF);
	argv += parse_options(argc, argv, &o);
	if (o.sampling && !o.rec.info) {
		o.sample.clock = o.rec.clock;
		o.sample.output = o.rec.output;
		o.sample.nbufs = o.rec.nbufs;
		out_init();
		return sample_run(&o.sample, argv);
	}
	int status = record_run(&o.rec, argv);

	spanfilter_free(&o.rec.filter);
	return status;
}
