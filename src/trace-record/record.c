/*
 * record.c: trace-record's spans mode (see main.c for the protocol).
 *
 * The stages, in order: the output opened (a run is not to be lost to a
 * path that cannot be written), the clock chosen and calibrated before
 * the program starts, the channel made (a socket for packets, shared
 * memory for the buffers), the program spawned, its packets received
 * until it and every process holding the socket are done, then the spans
 * written and what was lost reported.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "../lib/out.h"
#include "../libtracerecord/proto.h"
#include "clock.h"
#include "collect.h"
#include "outfile.h"
#include "record.h"
#include "spawn.h"

/* After the program exits, how long a straggler holding the socket may
 * stay silent before trace-record stops waiting for it. */
#define GRACE_MS 500

void
record_child_env(const struct channel *ch, const struct clockcal *cal)
{
	char fd[16], sfd[16], offs[CLOCK_MAX_CPUS * 24 + 1] = "";
	static const char *modes[] = { "", "tsc", "tscp", "mono" };
	size_t used = 0;

	snprintf(fd, sizeof fd, "%d", ch->sock[1]);
	snprintf(sfd, sizeof sfd, "%d", ch->shmfd);
	for (int i = 0; i < cal->ncpus && used + 48 < sizeof offs; i++)
		used += (size_t)snprintf(offs + used, sizeof offs - used, "%s%d:%lld",
		    i ? "," : "", cal->cpu[i], (long long)cal->offset[i]);
	setenv("TRACE_RECORD_FD", fd, 1);
	setenv("TRACE_RECORD_CLOCK", modes[cal->mode], 1);
	setenv("TRACE_RECORD_OFFSETS", offs, 1);
	setenv("TRACE_RECORD_SHM", sfd, 1);
}

/*
 * The program, started with its environment saying where to send spans;
 * *failed is its exit status when it could not be.
 */
static pid_t
spawn(char **argv, const struct channel *ch, const struct clockcal *cal,
    int *failed)
{
	int report[2];
	pid_t pid;

	if (pipe2(report, O_CLOEXEC) < 0)
		die(EXIT_SELF, "pipe:");
	if ((pid = fork()) < 0)
		die(EXIT_SELF, "fork:");
	if (pid == 0) {
		close(report[0]);
		record_child_env(ch, cal);
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
int
record_take(int sock, struct collect *c, uint64_t *bad)
{
	static unsigned char pk[TR_PACKET_MAX + 64];

	for (;;) {
		ssize_t n = recv(sock, pk, sizeof pk, MSG_DONTWAIT | MSG_TRUNC);

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 1;
			die(EXIT_SELF, "recv:");
		}
		if ((size_t)n > sizeof pk || collect_packet(c, pk, (size_t)n) != NULL)
			++*bad;
	}
}

static int
receive(int sock, pid_t child, struct collect *c, uint64_t *bad, int64_t *ended)
{
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
		if (record_take(sock, c, bad) == 0)
			break;
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

/* The clock and its calibration alone, as a spans(5) header. */
static int
clock_info(const struct clockcal *cal)
{
	char *none[] = { NULL };
	struct collect *c = collect_new(NULL, 0, 0);

	collect_write(c, cal, none, 0, -1);
	collect_free(c);
	out_flush();
	return 0;
}

void
record_channel_open(struct channel *ch, uint32_t nbufs)
{
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, ch->sock) < 0)
		die(EXIT_SELF, "socketpair:");
	fcntl(ch->sock[0], F_SETFD, FD_CLOEXEC);
	/* Room for bursts of names: the program's writer blocks, never its threads. */
	int big = 4 << 20;

	setsockopt(ch->sock[0], SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
	setsockopt(ch->sock[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
	/* The buffers: memory takes pages only where the program writes. */
	ch->shmsize = TR_SHM_HEAD + (size_t)nbufs * TR_BUF_SIZE;
	ch->shmfd = memfd_create("trace-record", 0);
	if (ch->shmfd < 0 || ftruncate(ch->shmfd, (off_t)ch->shmsize) < 0)
		die(EXIT_SELF, "shared memory of %zu bytes:", ch->shmsize);
	ch->shm = mmap(NULL, ch->shmsize, PROT_READ | PROT_WRITE, MAP_SHARED, ch->shmfd, 0);
	if (ch->shm == MAP_FAILED)
		die(EXIT_SELF, "shared memory of %zu bytes:", ch->shmsize);
	ch->shm->magic = TR_MAGIC;
	ch->shm->nbufs = nbufs;
}

/*
 * --min-duration in the library's clock ticks, rounded down: the library
 * takes back only spans that are short for certain, and collect.c judges
 * the rest in nanoseconds.
 */
static uint64_t
min_ticks(const struct clockcal *cal, uint64_t ns)
{
	double t = (double)ns * cal->ticks_per_ns;

	if (cal->mode == TR_CLOCK_MONO)
		return ns;
	return t < 1e19 ? (uint64_t)t : UINT64_MAX;
}

/* Ctrl-C is for the program; its spans are still written. */
static void
signals_forward(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int
record_run(const struct record_opts *o, char **argv)
{
	struct outfile of;
	struct clockcal cal;
	struct channel ch;
	uint64_t bad = 0;

	if (clock_choose(&cal, o->clock) != 0)
		die(EXIT_SELF, "--clock %s: %s", o->clock, cal.why);
	out_init();
	if (o->info)
		return clock_info(&cal);
	output_open(&of, o->output);
	record_channel_open(&ch, o->nbufs);
	if (o->max_spans)
		ch.shm->flags |= TR_SHM_DROP;
	ch.shm->min_ticks = min_ticks(&cal, o->filter.min_ns);
	signals_forward();

	struct collect *c = collect_new(ch.shm, o->nbufs, o->max_spans);

	collect_filter(c, &o->filter);
	int64_t t0 = clock_mono(), t1 = t0;
	int failed;
	pid_t child = spawn(argv, &ch, &cal, &failed);

	if (failed) {
		output_abandon(&of);
		collect_free(c);
		munmap(ch.shm, ch.shmsize);
		return failed;
	}
	close(ch.sock[1]);
	close(ch.shmfd);
	int status = receive(ch.sock[0], child, c, &bad, &t1);

	output_start(&of);
	collect_write(c, &cal, argv, bad, t1 - t0);
	out_flush();
	if (bad)
		warn_msg("%llu malformed packets ignored", (unsigned long long)bad);
	if (collect_dropped(c))
		warn_msg("%llu spans dropped (--max-spans: buffers full, or past "
		    "the bound)",
		    (unsigned long long)collect_dropped(c));
	collect_free(c);
	munmap(ch.shm, ch.shmsize);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
