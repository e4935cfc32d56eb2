/*
 * sample.c: the --sample run, from start to the written report.
 *
 * The program is forked first and held on a pipe before its exec, so
 * that the mechanism can be chosen with its pid in hand: perf events
 * opened on it with enable_on_exec count from the exec on, and if
 * perf_event_open is refused (perf_event_paranoid, seccomp, no kernel
 * support) the child is told instead to exec with the signal sampler
 * preloaded.  While it runs, rings are drained every few milliseconds
 * into memory; nothing is named or written before the end, so the cost
 * while the program runs is copying, and replaying the process events
 * in time order (report.c's replay_settle): a sample is settled a drain
 * after it came, a --call-graph=dwarf one unwound, its frames put with
 * the mappings of its time and kept once per distinct chain, so that
 * memory holds some 48 bytes a sample and the distinct stacks, not the
 * stack copies (kilobytes a sample, gigabytes an hour), the frames or
 * every mapping a dlopen loop announces.  Perf records are settled once
 * older than the drain before: the rings are read one after another,
 * and a record written in one after it was read (while the others were)
 * is in the next drain, never two later.  The sampler's ring is one, but
 * a thread takes the time before it reserves room for its record, and
 * may be preempted in between: its records wait SIGNAL_LAG_NS more.
 * SIGTERM and SIGHUP are passed on to the program (timeout(1) signals
 * trace-record): the program's end is awaited and its samples are still
 * written.  Ctrl-C is the program's.
 *
 * With -p, perf events are opened on each thread of a running process,
 * its mappings and thread names read from /proc as the records that
 * would have announced them; sampling stops when the process ends or
 * trace-record is interrupted.
 */
#include "sample.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/err.h"
#include "../lib/out.h"
#include "clock.h"
#include "guard.h"
#include "outfile.h"
#include "perfev.h"
#include "recs.h"
#include "report.h"
#include "sigsample.h"
#include "spanrx.h"
#include "spawn.h"
#include "symtab.h"

/* How much longer the signal sampler's records wait to settle than
 * perf's: far more than a thread preempted between taking the time and
 * writing its record waits, and some 25 samples a thread at a 250 Hz
 * tick. */
#define SIGNAL_LAG_NS	100000000

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	got_signal = sig;
}

/* A child that execs argv when told which mechanism to prepare for. */
static pid_t
spawn_held(char **argv, const struct sigsample *ss, const struct spanrx *sx,
    const struct clockcal *cal, int *go, int *report)
{
	int g[2], r[2];
	pid_t pid;

	if (pipe2(g, O_CLOEXEC) < 0 || pipe2(r, O_CLOEXEC) < 0)
		die(EXIT_SELF, "pipe:");
	if ((pid = fork()) < 0)
		die(EXIT_SELF, "fork:");
	if (pid == 0) {
		char how;

		close(g[1]);
		close(r[0]);
		if (read(g[0], &how, 1) != 1)
			_exit(EXIT_SELF);
		if (ss && how == 's')
			sigsample_child(ss);
		if (sx)
			spanrx_child(sx, cal);
		spawn_exec(argv, r[1]);
	}
	close(g[0]);
	close(r[1]);
	*go = g[1];
	*report = r[0];
	return pid;
}

/* What -p would have seen announced: mappings and thread names; and
 * whose perf map to trust. */
static void
synthesize(pid_t pid, struct recs *r, int64_t now)
{
	char path[64], line[4352], name[4097];
	FILE *fp;
	DIR *d;
	struct dirent *e;
	struct stat st;

	snprintf(path, sizeof path, "/proc/%d", (int)pid);
	if (stat(path, &st) == 0)
		symtab_perfmap_owner(st.st_uid);
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	if ((fp = fopen(path, "re")) != NULL) {
		unsigned long long a, b, off;
		char perm[8];

		while (fgets(line, sizeof line, fp))
			if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4096[^\n]", &a, &b,
			    perm, &off, name) == 5 && perm[2] == 'x') {
				unsigned char buf[sizeof(struct rec_mmap) + 4097];
				struct rec_mmap m = { a, b - a, off };
				size_t n = strlen(name);

				memcpy(buf, &m, sizeof m);
				memcpy(buf + sizeof m, name, n + 1);
				recs_add(r, REC_MMAP, now, (uint32_t)pid, (uint32_t)pid, 0, buf,
				    sizeof m + n + 1);
			}
		fclose(fp);
	}
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char c[32] = "";
		int tid = atoi(e->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)pid, tid);
		if ((fp = fopen(path, "re")) == NULL)
			continue;
		if (fgets(c, sizeof c, fp)) {
			c[strcspn(c, "\n")] = '\0';
			c[15] = '\0';
			recs_add(r, REC_COMM, now, (uint32_t)pid, (uint32_t)tid, 0, c,
			    strlen(c) + 1);
		}
		fclose(fp);
	}
	closedir(d);
}

/*
 * What pid has mapped executable now, as a REC_LIVE record in r, stamped
 * before looking: a mapping made while it looks is announced after
 * that, and a sample taken meanwhile in one removed meanwhile is the
 * most that can lose its mapping.
 */
static void
live_maps(pid_t pid, struct recs *r, int64_t now)
{
	char path[64], line[4352];
	uint64_t *v = NULL;
	size_t n = 0, cap = 0;
	FILE *fp;

	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	if ((fp = fopen(path, "re")) == NULL)
		return;		/* gone: its records end before now */
	while (fgets(line, sizeof line, fp)) {
		unsigned long long a, b;
		char perm[8];

		/* (A line fits: a path is at most 4096 bytes.) */
		if (sscanf(line, "%llx-%llx %7s", &a, &b, perm) == 3 && perm[2] == 'x') {
			v = xgrow(v, &cap, n + 2, sizeof *v);
			v[n++] = a;
			v[n++] = b;
		}
	}
	fclose(fp);
	recs_add(r, REC_LIVE, now, (uint32_t)pid, (uint32_t)pid, 0, v, n * sizeof *v);
	free(v);
}

/* The perf mechanism's records between their ring and r. */
struct live {
	struct recs	 pend;
	struct replay	*rp;
	int64_t		 last;		/* when the drain before started */
	int64_t		 to_real;
	struct spanrx	*sx;		/* --spans, or NULL */
};

static void
drain(struct perfev *pe, struct sigsample *ss, struct recs *r, struct live *lv)
{
	int64_t now = clock_mono() + lv->to_real;

	if (pe)
		perfev_read(pe, &lv->pend);
	if (ss)
		sigsample_read(ss, &lv->pend);
	if (pe || ss)
		replay_settle(lv->rp, &lv->pend, r, ss && lv->last != INT64_MIN ?
		    lv->last - SIGNAL_LAG_NS : lv->last);
	lv->last = now;
	if (pe) {
		uint32_t pid;

		while ((pid = replay_crowded(lv->rp)) != 0)
			live_maps((pid_t)pid, &lv->pend, clock_mono() + lv->to_real);
	}
	if (lv->sx)
		spanrx_take(lv->sx);
}

/* Wait, draining, until the child ends; its wait status, and in *cpu_ns
 * the CPU time it (and its children it waited for) used. */
static int
run(pid_t child, struct perfev *pe, struct sigsample *ss, struct recs *r,
    struct live *lv, int64_t *cpu_ns)
{
	int status = 0, forwarded = 0;
	struct rusage ru;

	for (;;) {
		struct pollfd p[257];
		int n = pe ? perfev_pollfds(pe, p, 256) : 0;

		if (lv->sx)
			p[n++] = (struct pollfd){ .fd = spanrx_fd(lv->sx), .events = POLLIN };
		if (poll(p, (nfds_t)n, pe ? 50 : 10) < 0 && errno != EINTR)
			die(EXIT_SELF, "poll:");
		drain(pe, ss, r, lv);
		if (got_signal && !forwarded) {
			kill(child, got_signal);
			forwarded = 1;
		}
		pid_t w = wait4(child, &status, WNOHANG, &ru);

		if (w == child) {
			*cpu_ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
			    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
			break;
		}
		if (w < 0 && errno != EINTR)
			die(EXIT_SELF, "waitpid:");
	}
	drain(pe, ss, r, lv);
	return status;
}

/* -p: sample until the process is gone or trace-record is stopped. */
static void
run_attached(pid_t pid, struct perfev *pe, struct recs *r, struct live *lv)
{
	while (!got_signal && kill(pid, 0) == 0) {
		struct pollfd p[256];
		int n = perfev_pollfds(pe, p, 256);

		if (poll(p, (nfds_t)n, 50) < 0 && errno != EINTR)
			die(EXIT_SELF, "poll:");
		drain(pe, NULL, r, lv);
	}
	drain(pe, NULL, r, lv);
}

/* Which mechanism, and what it could not open: 1 when something. */
static int
say_perf(const struct perfev *pe, unsigned hz, int kernel, pid_t attach)
{
	size_t nt, missed;
	int e;

	warn_msg("sampling at %u Hz with perf_event_open (%s)", hz, kernel ?
	    "kernel and user stacks" : "user stacks only: kernel ones not permitted");
	if ((missed = perfev_missed(pe, &nt, &e)) == 0)
		return 0;
	if (attach)
		warn_msg("-p %d: %zu of %zu threads not sampled, or not on every CPU "
		    "(perf_event_open: %s)", (int)attach, missed, nt, strerror(e));
	else
		warn_msg("the program is not sampled on every CPU (perf_event_open: %s)",
		    strerror(e));
	return 1;
}

/*
 * The signal mechanism's rate, said as it will be: CPU-time timers are
 * checked at the kernel's tick, so above its rate a signal stands for
 * several periods (its period says so) and there are fewer samples than
 * -F asks.  The tick's length is the coarse clocks' resolution, which
 * Linux gives as one tick; when it cannot be read, hz is said.
 */
static void
say_signal(unsigned hz, int wall, const char *perf_why)
{
	struct timespec res;
	unsigned tick = 0;
	char below[96] = "";

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 &&
	    res.tv_sec == 0 && res.tv_nsec > 0)
		tick = (unsigned)((1000000000L + res.tv_nsec / 2) / res.tv_nsec);
	if (tick && tick < hz) {
		snprintf(below, sizeof below, ": the kernel's tick, below -F %u "
		    "(a sample weighs the periods it stands for)", hz);
		hz = tick;
	}
	warn_msg("sampling at %u Hz with timer signals in the program "
	    "(LD_PRELOAD)%s%s%s%s", hz, wall ? ", and its blocking calls timed" : "",
	    below, perf_why ? "; perf_event_open: " : "", perf_why ? perf_why : "");
}

/*
 * What an allocation run's samples stand for.  None at all, from a
 * program the sampler was loaded into: its calls never reached the
 * wrappers (a malloc of its own in the executable comes first in the
 * lookup order), or it allocated too little.
 */
static void
say_heap(const struct sample_opts *o, const struct heap_stats *hs, const struct recs *r,
    int empty)
{
	const char *ev = heap_event(&o->heap);

	if (hs->samples == 0 && !empty)
		warn_msg("no allocation was sampled: the program allocated less than "
		    "about --alloc-interval (%llu bytes), or its malloc is its own, "
		    "defined in the executable, which the preloaded wrappers cannot "
		    "come before", (unsigned long long)o->heap.interval);
	if (o->heap.when == HEAP_PEAK && hs->peak_time)
		warn_msg("%s: the sampled heap was largest at %lld.%09lld", ev,
		    (long long)(hs->peak_time / 1000000000),
		    (long long)(hs->peak_time % 1000000000));
	warn_msg("%llu allocation samples, %llu lost; %s: %.0f bytes", (unsigned long long)
	    hs->samples, (unsigned long long)r->lost, ev, hs->bytes);
}

int
sample_run(const struct sample_opts *o, char **argv)
{
	struct clockcal cal;
	struct recs r;
	struct perfev *pe = NULL;
	struct sigsample *ss = NULL;
	struct sigaction sa;
	int kernel = 0, status = 0, go = -1, report = -1, e = 0, partial = 0, empty = 0;
	int64_t cpu_ns = 0, t0 = 0, t1 = 0;
	uint64_t runnable = 0, unseen = 0;
	pid_t child = 0;
	struct outfile of;
	struct live lv;

	recs_init(&r);
	memset(&lv, 0, sizeof lv);
	recs_init(&lv.pend);
	lv.last = INT64_MIN;
	if (clock_choose(&cal, o->clock) != 0)
		die(EXIT_SELF, "--clock %s: %s", o->clock, cal.why);
	lv.to_real = cal.mono_to_real;
	lv.rp = replay_new();
	guard_files();
	output_open(&of, o->output);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (o->attach) {
		sigaction(SIGINT, &sa, NULL);
		if (o->spans) {
			output_abandon(&of);
			die(EXIT_SELF, "-p: --spans needs the program started by "
			    "trace-record, which gives it the channel for its spans");
		}
		if (strcmp(o->mechanism, "signal") == 0) {
			output_abandon(&of);
			die(EXIT_SELF, "-p: the signal mechanism cannot attach to a "
			    "running process; it needs perf_event_open");
		}
		synthesize(o->attach, &lv.pend, clock_mono() + cal.mono_to_real);
		pe = perfev_open(o->attach, 1, o->hz, o->callchain, o->stack,
		    cal.mono_to_real, o->wall, &kernel);
		if (pe == NULL) {
			e = errno;
			output_abandon(&of);
			errno = e;
			die(EXIT_SELF, "-p %d: perf_event_open:", (int)o->attach);
		}
		partial = say_perf(pe, o->hz, kernel, o->attach);
		run_attached(o->attach, pe, &r, &lv);
	} else {
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		if (o->alloc) {
			ss = sigsample_new(o->hz, o->callchain == CG_DWARF, 0, &cal);
			sigsample_alloc(ss, o->heap.interval, o->heap.when != HEAP_ALLOC);
		} else if (strcmp(o->mechanism, "perf") != 0)
			ss = sigsample_new(o->hz, o->callchain == CG_DWARF, o->wall, &cal);
		if (o->spans)
			lv.sx = spanrx_open(o->nbufs);
		t0 = clock_mono();
		child = spawn_held(argv, ss, lv.sx, &cal, &go, &report);
		if (lv.sx)
			spanrx_started(lv.sx);
		if (!o->alloc && strcmp(o->mechanism, "signal") != 0) {
			pe = perfev_open(child, 0, o->hz, o->callchain, o->stack,
			    cal.mono_to_real, o->wall, &kernel);
			e = errno;
			if (pe == NULL && strcmp(o->mechanism, "perf") == 0) {
				kill(child, SIGKILL);
				waitpid(child, NULL, 0);
				output_abandon(&of);
				errno = e;
				die(EXIT_SELF, "--mechanism=perf: perf_event_open:");
			}
		}
		if (pe) {
			say_perf(pe, o->hz, kernel, 0);
			if (ss) {
				sigsample_close(ss, &lv.pend);
				ss = NULL;
			}
		} else {
			const char *why;

			if (o->alloc)
				warn_msg("sampling allocations every %llu bytes on average "
				    "in the program (LD_PRELOAD)",
				    (unsigned long long)o->heap.interval);
			else
				say_signal(o->hz, o->wall, strcmp(o->mechanism, "auto") == 0 ?
				    strerror(e) : NULL);
			if ((why = sigsample_check(ss, argv[0])) != NULL)
				warn_msg("%s cannot be sampled: %s; only what it executes "
				    "can be", argv[0], why);
		}
		if (write(go, pe ? "p" : "s", 1) != 1)
			die(EXIT_SELF, "starting the program:");
		close(go);
		if ((status = spawn_failed(child, report, argv)) != 0) {
			output_abandon(&of);
			perfev_close(pe);
			if (ss)
				sigsample_close(ss, &lv.pend);
			replay_free(lv.rp);	/* (before r: its paths are r's) */
			recs_free(&r);
			recs_free(&lv.pend);
			spanrx_free(lv.sx);
			return status;
		}
		status = run(child, pe, ss, &r, &lv, &cpu_ns);
		if (lv.sx)
			spanrx_finish(lv.sx);
		t1 = clock_mono();
	}
	/* The last accounts are in the ring's rest, read by _end. */
	if (ss)
		empty = sigsample_end(ss, &lv.pend, cpu_ns, &unseen);
	perfev_close(pe);
	replay_settle(lv.rp, &lv.pend, &r, INT64_MAX);
	runnable = replay_finish(lv.rp, &r, clock_mono() + lv.to_real);
	recs_free(&lv.pend);
	replay_free(lv.rp);

	output_start(&of);
	struct report_opts ro = { o->folded, "cpu-clock", NULL };
	struct report_stats st;
	struct heap_stats hs;

	if (o->alloc) {
		heap_weigh(&r, &o->heap, &hs);
		ro.event = heap_event(&o->heap);
	}

	if (lv.sx)
		spanrx_write(lv.sx, &cal, argv, t1 - t0, &r, &ro, &st);
	else
		report_write(&r, &ro, &st);
	out_flush();
	spanrx_free(lv.sx);
	guard_files_said();
	if (o->alloc)
		say_heap(o, &hs, &r, empty);
	/* Nothing in the report shows them: a thread's first sample comes
	 * after a whole period of its own CPU time. */
	else if (st.unsampled && !st.untimed)
		warn_msg("%llu thread%s ended without a sample, having run %.3f s of "
		    "CPU time in all: each less than a period (1/%u s)",
		    (unsigned long long)st.unsampled, st.unsampled == 1 ? "" : "s",
		    (double)st.unsampled_ns / 1e9, o->hz);
	else if (st.unsampled && cpu_ns > 0)
		warn_msg("%llu thread%s ended without a sample, each having run less "
		    "than a period (1/%u s); %.3f s of the program's CPU time is in "
		    "no sample", (unsigned long long)st.unsampled,
		    st.unsampled == 1 ? "" : "s", o->hz, (uint64_t)cpu_ns >
		    st.sampled_ns ? (double)((uint64_t)cpu_ns - st.sampled_ns) / 1e9 : 0.0);
	else if (st.unsampled)
		warn_msg("%llu thread%s ended without a sample, each having run less "
		    "than a period (1/%u s)", (unsigned long long)st.unsampled,
		    st.unsampled == 1 ? "" : "s", o->hz);
	/* Preempted threads wanted the CPU: neither on it nor blocked. */
	if (o->wall && pe)
		warn_msg("--wall: %.3f s spent preempted, waiting for a CPU, is "
		    "in no sample", (double)runnable / 1e9);
	else if (o->wall && !o->alloc)
		warn_msg("--wall: %.3f s spent preempted, waiting for a CPU, or "
		    "blocked past libc's functions, is in no sample", (double)unseen / 1e9);
	if (!o->alloc)
		warn_msg("%llu samples, %llu lost", (unsigned long long)r.samples,
		    (unsigned long long)r.lost);
	recs_free(&r);
	if (o->attach)
		return partial ? EXIT_SELF : 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	/* Nothing sampled, and said why: not a success, whatever the program's. */
	if (empty && WEXITSTATUS(status) == 0)
		return EXIT_SELF;
	return WEXITSTATUS(status);
}
