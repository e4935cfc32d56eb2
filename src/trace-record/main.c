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
 * nanoseconds.  The clock is chosen and
 * calibrated here, before the program starts (clock.c).
 *
 *	trace-record -o run.spans -- ./server --once
 *	trace-record ./prog | spanlayout | flamegraph-svg --timeline > t.svg
 *
 * Exit status: the program's, or 128+N if signal N killed it; 125 if
 * trace-record itself failed, 126 if the program could not be run, 127
 * if it was not found (as env(1) and timeout(1) do).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/err.h"
#include "../lib/num.h"
#include "../lib/out.h"
#include "../libtracerecord/proto.h"
#include "clock.h"
#include "collect.h"
#include "outfile.h"
#include "sample.h"
#include "spawn.h"

/* After the program exits, how long a straggler holding the socket may
 * stay silent before trace-record stops waiting for it. */
#define GRACE_MS 500
#define DEFAULT_BUFFERS 1024

static const char usage_text[] =
"usage: trace-record [-o FILE] [--clock auto|tsc|tscp|mono] [--buffers N]\n"
"                    [--] PROGRAM [ARG...]\n"
"       trace-record --sample [-g] [-F HZ] [--folded] [-o FILE]\n"
"                    [--mechanism auto|perf|signal] [--] PROGRAM [ARG...]\n"
"       trace-record --sample [-g] [-F HZ] [--folded] [-o FILE] -p PID\n"
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
"                      share; with none free, spans are dropped and\n"
"                      counted (default 1024)\n"
"      --clock-info    print the chosen clock and its calibration, and exit\n"
"      --sample        sample the stacks of PROGRAM (its threads and children)\n"
"  -F, --freq HZ       samples per second of CPU time per thread (default 99)\n"
"  -g, --call-graph    whole stacks (frame pointers), not just the function\n"
"      --folded        write folded stacks, not perf script text\n"
"      --mechanism M   auto (default): perf_event_open, else SIGPROF timers\n"
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
		warnx("%s%s", pre, err_quote(q, arg, strlen(arg), 100));
	else
		warnx("%s", pre);
	fputs(usage_text, stderr);
	exit(EXIT_SELF);
}

/* The program, its environment saying where to send spans. */
/* The program, started; *failed is its exit status when it could not be. */
static pid_t
spawn(char **argv, int sock, int shm, const struct clockcal *cal, int *failed)
{
	char fd[16], sfd[16], offs[CLOCK_MAX_CPUS * 24 + 1] = "";
	static const char *modes[] = { "", "tsc", "tscp", "mono" };
	int report[2];
	pid_t pid;
	size_t used = 0;

	snprintf(fd, sizeof fd, "%d", sock);
	snprintf(sfd, sizeof sfd, "%d", shm);
	for (int i = 0; i < cal->ncpus && used + 48 < sizeof offs; i++)
		used += (size_t)snprintf(offs + used, sizeof offs - used, "%s%d:%lld",
		    i ? "," : "", cal->cpu[i], (long long)cal->offset[i]);
	if (pipe2(report, O_CLOEXEC) < 0)
		die(EXIT_SELF, "pipe:");
	if ((pid = fork()) < 0)
		die(EXIT_SELF, "fork:");
	if (pid == 0) {
		close(report[0]);
		setenv("TRACE_RECORD_FD", fd, 1);
		setenv("TRACE_RECORD_CLOCK", modes[cal->mode], 1);
		setenv("TRACE_RECORD_OFFSETS", offs, 1);
		setenv("TRACE_RECORD_SHM", sfd, 1);
		spawn_exec(argv, report[1]);
	}
	close(report[1]);
	*failed = spawn_failed(pid, report[0], argv);
	return pid;
}

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	got_signal = sig;
}

/*
 * Take packets until every process holding the socket has closed it, or,
 * once the program has exited and every process that started recording
 * is done (a child may outlive it), until GRACE_MS pass in silence (a
 * daemon it left behind may hold the socket for ever).  SIGTERM and
 * SIGHUP are passed on to the program, and once it has ended the wait
 * stops at the last packet queued.  Returns the program's wait status,
 * and in *ended when the program ended.
 */
static int
receive(int sock, pid_t child, struct collect *c, uint64_t *bad, int64_t *ended)
{
	static unsigned char pk[TR_PACKET_MAX + 64];
	int status = 0, running = 1, stop = 0;

	for (;;) {
		struct pollfd p = { .fd = sock, .events = POLLIN };
		int r = poll(&p, 1, running ? 100 : stop ? 0 : GRACE_MS);

		if (r < 0 && errno != EINTR)
			die(EXIT_SELF, "poll:");
		if (got_signal) {
			if (running)
				kill(child, got_signal);
			got_signal = 0;
			stop = 1;
		}
		if (running && waitpid(child, &status, WNOHANG) == child) {
			running = 0;
			*ended = clock_mono();
			/* Its last packets may have come after the poll. */
			continue;
		}
		if (r == 0 && !running && (stop || !collect_recording(c)))
			break;
		if (r <= 0)
			continue;
		ssize_t n = recv(sock, pk, sizeof pk, MSG_DONTWAIT | MSG_TRUNC);

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			die(EXIT_SELF, "recv:");
		}
		if ((size_t)n > sizeof pk || collect_packet(c, pk, (size_t)n) != NULL)
			++*bad;
	}
	if (running) {
		while (waitpid(child, &status, 0) < 0) {
			if (errno != EINTR)
				die(EXIT_SELF, "waitpid:");
			if (got_signal)
				kill(child, got_signal);
			got_signal = 0;
		}
		*ended = clock_mono();
	}
	return status;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "buffers", required_argument, NULL, 'b' },
		{ "clock", required_argument, NULL, 'c' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "clock-info", no_argument, NULL, 'i' },
		{ "folded", no_argument, NULL, 'f' },
		{ "freq", required_argument, NULL, 'F' },
		{ "mechanism", required_argument, NULL, 'm' },
		{ "pid", required_argument, NULL, 'p' },
		{ "sample", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *mode = "auto";
	int ch, info = 0, sample = 0, sopt = 0, sv[2];
	struct sample_opts so = { .hz = 99, .mechanism = "auto" };
	struct clockcal cal;
	uint64_t bad = 0, v, nbufs = DEFAULT_BUFFERS;

	/*
	 * A closed 0, 1 or 2 would be the next file opened (the output, the
	 * socket, the sampler's ring) and be written as stdout by us or by
	 * the program.  /dev/null holds the place, opened the other way
	 * round, so that using it still fails as the closed one would.
	 */
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 &&
		    open("/dev/null", fd ? O_RDONLY : O_WRONLY) != fd)
			return EXIT_SELF;
	err_init(argv[0]);
	err_input_status(EXIT_SELF);
	while ((ch = getopt_long(argc, argv, "+:F:ghp:o:V", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			if (num_parse_u64(optarg, strlen(optarg), &v) != 0 || v == 0 ||
			    v > 1000000)
				usage_fail("--buffers wants a count from 1 to 1000000, "
				    "not ", optarg);
			nbufs = v;
			break;
		case 'c':
			if (strcmp(optarg, "auto") && strcmp(optarg, "tsc") &&
			    strcmp(optarg, "tscp") && strcmp(optarg, "mono"))
				usage_fail("--clock wants auto, tsc, tscp or mono, not ",
				    optarg);
			mode = optarg;
			break;
		case 'i':
			info = 1;
			break;
		case 'F':
			if (num_parse_u64(optarg, strlen(optarg), &v) != 0 || v == 0 ||
			    v > 100000)
				usage_fail("-F wants samples per second from 1 to 100000, "
				    "not ", optarg);
			so.hz = (unsigned)v;
			sopt = 1;
			break;
		case 'f':
			so.folded = 1;
			sopt = 1;
			break;
		case 'g':
			so.callchain = 1;
			sopt = 1;
			break;
		case 'm':
			if (strcmp(optarg, "auto") && strcmp(optarg, "perf") &&
			    strcmp(optarg, "signal"))
				usage_fail("--mechanism wants auto, perf or signal, not ",
				    optarg);
			so.mechanism = optarg;
			sopt = 1;
			break;
		case 'p':
			if (num_parse_u64(optarg, strlen(optarg), &v) != 0 || v == 0 ||
			    v > 0x7fffffff)
				usage_fail("-p wants a process id, not ", optarg);
			so.attach = (pid_t)v;
			sopt = 1;
			break;
		case 's':
			sample = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'o':
			output = optarg;
			break;
		case 'V':
			printf("trace-record (flametools) %s\n", FT_VERSION);
			return 0;
		case ':':
			usage_fail("an argument is needed by option ", argv[optind - 1]);
			break;
		default:
			usage_fail("unknown option ", argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	if (!sample && sopt)
		usage_fail("-F, -g, -p, --folded and --mechanism need --sample", NULL);
	if (so.attach && argc > 0)
		usage_fail("-p takes no program to run", NULL);
	if (!info && argc == 0 && !so.attach)
		usage_fail("no program to run", NULL);
	if (sample && !info) {
		so.clock = mode;
		so.output = output;
		out_init();
		return sample_run(&so, argv);
	}

	/* Opened first: a run is not to be lost to a path that cannot be written. */
	struct outfile of;

	output_open(&of, info ? NULL : output);
	if (clock_choose(&cal, mode) != 0)
		die(EXIT_SELF, "--clock %s: %s", mode, cal.why);
	out_init();
	if (info) {
		char *none[] = { NULL };
		struct collect *c = collect_new(NULL, 0);

		collect_write(c, &cal, none, 0, -1);
		collect_free(c);
		out_flush();
		return 0;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) < 0)
		die(EXIT_SELF, "socketpair:");
	fcntl(sv[0], F_SETFD, FD_CLOEXEC);
	/* Room for bursts of names: the program's writer blocks, never its threads. */
	int big = 4 << 20;

	setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
	setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
	/* The buffers: memory takes pages only where the program writes. */
	size_t shmsize = TR_SHM_HEAD + (size_t)nbufs * TR_BUF_SIZE;
	int shmfd = memfd_create("trace-record", 0);
	struct tr_shm *shm;

	if (shmfd < 0 || ftruncate(shmfd, (off_t)shmsize) < 0)
		die(EXIT_SELF, "shared memory of %zu bytes:", shmsize);
	shm = mmap(NULL, shmsize, PROT_READ | PROT_WRITE, MAP_SHARED, shmfd, 0);
	if (shm == MAP_FAILED)
		die(EXIT_SELF, "shared memory of %zu bytes:", shmsize);
	shm->magic = TR_MAGIC;
	shm->nbufs = (uint32_t)nbufs;

	/* Ctrl-C is for the program; its spans are still written. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	struct collect *c = collect_new(shm, (uint32_t)nbufs);
	int64_t t0 = clock_mono(), t1 = t0;
	int failed;
	pid_t child = spawn(argv, sv[1], shmfd, &cal, &failed);

	if (failed) {
		output_abandon(&of);
		collect_free(c);
		munmap(shm, shmsize);
		return failed;
	}

	close(sv[1]);
	close(shmfd);
	int status = receive(sv[0], child, c, &bad, &t1);

	output_start(&of);
	collect_write(c, &cal, argv, bad, t1 - t0);
	out_flush();
	if (bad)
		warnx("%llu malformed packets ignored", (unsigned long long)bad);
	if (collect_dropped(c))
		warnx("%llu spans dropped (buffers full; see --buffers)",
		    (unsigned long long)collect_dropped(c));
	collect_free(c);
	munmap(shm, shmsize);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
