/*
 * wall.c: off-CPU time in the preloaded library (trace-record --sample
 * --wall with the signal mechanism).
 *
 * Contract.  The CPU-time timer of sampler.c sees a thread only while it
 * runs, and a signal sent to a blocked thread would make its nanosleep,
 * poll or epoll_wait fail with EINTR (even under SA_RESTART), which
 * changes what the program does.  So no thread is signalled: libc's
 * blocking entry points are wrapped instead (the list is below: sleeps,
 * opens, reads and writes, sockets and name lookups, poll, select and
 * epoll, mutexes, condition variables, rwlocks, semaphores, joins, waits
 * for children (system, pclose too), file locks, System V and POSIX
 * IPC, signal waits, fsync, and futex through syscall(2), which
 * sampler.c passes here; stdio's and readdir's are wallstdio.c's, the
 * fortified and 64-bit names of these wallfort.c's),
 * each calling the next definition (dlsym RTLD_NEXT) and returning what
 * it returns, errno too.  Around the call the trace clock is read; what
 * the thread spent in the call less its CPU time there (those are in
 * cpu-clock samples already) is the blocked interval, d.  The CPU time
 * is the timer periods the handler counted during the call: a whole
 * period, 1/F s, lands on one call of a few microseconds now and then,
 * so what a call cannot take of it is a debt the thread's next calls pay
 * off, or the CPU time of short calls would be counted twice (a pipe
 * ping-pong, where it is most of the time in the calls: 40% too much
 * off-CPU time).
 *
 * Intervals are sampled by time, as alloc.c samples allocations by
 * bytes (Go's heap sampling): each thread counts down a wall time drawn
 * from an exponential distribution of mean T, the timer's period (1/F
 * s), and the interval that reaches zero is taken, and a new count
 * drawn.  The exponential forgets, so an interval of d ns is taken with
 * probability 1 - exp(-d/T) whatever came before it, and trace-record
 * weighs it d / (1 - exp(-d/T)) ns: unbiased, a wait of 10 T or more
 * taken almost surely at about its length, one of T/1000 once in a
 * thousand at about T.  A million short waits a second so cost a clock
 * read each side and about F stack walks a second, not a million.
 *
 * A taken interval is an SR_OFFCPU record (sring.h): its frames are
 * libc's function (the leaf, named as the call) and then the caller's
 * chain, walked after the call returned (the caller's frames are as
 * they were) from the return address, stack pointer and frame pointer
 * kept at entry, with frame pointers or DWARF CFI as the run walks
 * (sampler_walk): this file is built with frame pointers, so each
 * wrapper's frame holds its caller's.
 *
 * A thread blocked at the end counts too: each followed thread's call
 * in progress is in a registry (this thread's slot, in thread-local
 * storage, linked into a list under a spin lock taken only when a
 * thread starts or ends), and when the process exits (exit(), or a
 * return from main: the library's destructor, after the program's
 * atexit handlers) the calls still in progress on the other threads are
 * taken up to that moment, their stacks walked from the exiting thread
 * (they are blocked, and a thread that ends waits on the lock, its stack
 * still mapped, until the walk is done).  So too when SIGTERM, SIGHUP or
 * SIGINT ends the process (trace-record passes the first two on; Ctrl-C
 * sends the last): where the program leaves one of them SIG_DFL, the
 * kernel is given a handler of ours instead, which does that walk, puts
 * SIG_DFL back and raises the signal again, so that the process ends as
 * it would have, the moment the handler returns (a call the signal broke
 * into never returns to the program: nothing sees EINTR).  sigaction and
 * signal are wrapped for these signals, as sampler.c wraps them for its
 * own: the program sees and sets its own dispositions; one of its own
 * handlers goes to the kernel as it is.  A slot's state word says idle,
 * in a call, or taken by that walk, with a count of calls above it: the
 * walk copies a slot and then claims it with a compare-and-swap, which
 * fails if the call ended or another began meanwhile (the copy is
 * dropped), and a call that ends to find itself claimed writes nothing.
 *
 * What no sample shows is told too: each thread's wall time from its
 * start, less its CPU time and the time in all its timed calls, sampled
 * or not, is time spent runnable but preempted, or blocked past libc's
 * functions.  Each thread sends its account (SR_WALLTIME) as it ends,
 * and the destructor sends those of the threads still there.
 *
 * Safe against: recursion (nothing here calls a wrapped function: the
 * walk and the ring take no locks and make no system call; the lock is
 * spun with sched_yield); signal handlers that block inside a timed call
 * (a call entered below the frame of one in progress is its handler's:
 * not timed, the outer interval holds it), or that leave it with
 * longjmp (the next call, above that frame, takes the slot over);
 * threads (everything per thread is initial-exec TLS); fork (the child's
 * registry is its one thread); pthread_cancel inside a call (the thread
 * leaves the registry as it ends).  What is not seen: calls made inside
 * libc past its exported functions (printf's and scanf's reads and
 * writes: wallstdio.c says which stdio functions are seen), system
 * calls made directly or inlined futexes (std::mutex's fast path
 * is pthread_mutex_lock's, and seen), static programs, threads not
 * started through pthread_create, and a process ended by a signal or by
 * _exit keeps the calls then in progress out.  Time spent runnable but
 * preempted outside a call is in no sample, as with the perf mechanism.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sampler.h"
#include "wall.h"

#define TLS	__thread __attribute__((tls_model("initial-exec")))

enum { IDLE, IN, TAKEN };

struct slot {
	struct slot	*prev, *next;	/* the registry, under reg_lock */
	uint32_t	 state;		/* calls << 2 | IDLE, IN or TAKEN */
	int		 followed;	/* in the registry */
	uint32_t	 tid;
	const char	*comm;		/* the thread's name (sampler.c's) */
	const uint64_t	*periods;	/* its sampler_periods */
	uintptr_t	 hi;		/* its stack's top */
	struct wcall	 call;		/* the one in progress, for the walk */
	uint64_t	 start;		/* trace clock, raw */
	uint64_t	 blocked;	/* raw units in calls timed, all */
	int		 told;		/* its SR_WALLTIME is sent */
};

static uint64_t period;		/* raw clock units; 0: not timing */
static struct slot *reg;
static int reg_lock;

/* The signals that end a process under SIG_DFL, walked before they do;
 * the program's dispositions of them (ours is the kernel's where it is
 * SIG_DFL). */
static const int ends[] = { SIGTERM, SIGHUP, SIGINT };
#define NENDS	(sizeof ends / sizeof ends[0])
static struct sigaction prog_end[NENDS];
static __typeof__(&sigaction) real_sigaction;

static TLS struct slot me;
static TLS int64_t left;		/* blocked time to the next sample */
static TLS uint64_t debt;		/* CPU time not yet taken out of a call */

/* A thread in seccomp may not yield: it spins (the lock is held for a
 * thread's start or end, or the walk at exit). */
static void
lock(int *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			if (!sampler_sealed())
				sched_yield();
}

/* The lock within a few thousand yields, or 0: a signal handler's, whose
 * thread may be the one that holds it. */
static int
lock_soon(int *l)
{
	for (int i = 0; i < 4096; i++) {
		if (!__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
			return 1;
		sched_yield();
	}
	return 0;
}

static void
unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

struct taking {
	const struct slot	*s;
	const struct wcall	*c;
	uint64_t		 d;
};

/* Write the interval of d blocked from c->t0 on the thread s as a sample
 * (struct taking; sampler_aside runs it on a stack of its own). */
static void
take_aside(void *p)
{
	const struct slot *s = ((const struct taking *)p)->s;
	const struct wcall *c = ((const struct taking *)p)->c;
	uint64_t d = ((const struct taking *)p)->d;
	struct {
		struct sr_offcpu o;
		uint64_t	 fr[SR_MAXFRAMES];
	} b;
	struct sr_rec h;
	uint32_t n = 1;

	b.fr[0] = c->fn;
	n += sampler_walk(c->ret, c->sp, c->bp, s->hi, b.fr + 1, SR_MAXFRAMES - 1);
	b.o.blocked = d;
	sampler_header(&h, SR_OFFCPU);
	h.tid = s->tid;
	if (s != &me)
		memcpy(h.comm, s->comm, sizeof h.comm);
	h.time = c->t0;
	h.cpu = c->cpu0;
	h.n = n;
	sampler_emit(&h, &b, sizeof b.o + n * sizeof b.fr[0]);
}

static __attribute__((noinline)) void
take(const struct slot *s, const struct wcall *c, uint64_t d)
{
	struct taking t = { s, c, d };

	sampler_aside(take_aside, &t);
}

/* The blocked time of c until end, less the CPU time *owed (paid off). */
static uint64_t
blocked(const struct wcall *c, uint64_t end, uint64_t *owed)
{
	int64_t d = (int64_t)(end - c->t0);

	if (d <= 0)
		return 0;
	if ((uint64_t)d <= *owed) {
		*owed -= (uint64_t)d;
		return 0;
	}
	d -= (int64_t)*owed;
	*owed = 0;
	return (uint64_t)d;
}

int
wall_enter(struct wcall *c, void *fn, const uintptr_t *fa)
{
	uintptr_t sp = (uintptr_t)(fa + 2);
	uint32_t st = me.state;

	if (!me.followed || ((st & 3) != IDLE && sp < me.call.sp))
		return 0;
	c->fn = (uintptr_t)fn;
	c->ret = fa[1];
	c->bp = fa[0];
	c->sp = sp;
	c->periods0 = sampler_periods;
	c->t0 = sampler_now(&c->cpu0);
	me.call = *c;
	__atomic_store_n(&me.state, ((st >> 2) + 1) << 2 | IN, __ATOMIC_RELEASE);
	return 1;
}

void
wall_leave(const struct wcall *c)
{
	int e = errno;
	uint32_t cpu;
	uint64_t end = sampler_now(&cpu);
	uint32_t was = __atomic_exchange_n(&me.state, me.state & ~3u, __ATOMIC_ACQ_REL);

	debt += (sampler_periods - c->periods0) * period;
	uint64_t d = blocked(c, end, &debt);

	me.blocked += d;
	/* Taken by the walk at exit already, or no time blocked. */
	if ((was & 3) != TAKEN && d > 0 && (left -= (int64_t)d) <= 0) {
		left = sampler_exp((double)period);
		take(&me, c, d);
	}
	errno = e;
}

/* The thread s's account up to end; called under reg_lock, once. */
static void
tell(struct slot *s, uint64_t end, uint32_t endcpu, clockid_t cpuclock, uint64_t more)
{
	struct sr_walltime b;
	struct sr_rec h;
	struct timespec ts;

	s->told = 1;
	memset(&b, 0, sizeof b);
	if (clock_gettime(cpuclock, &ts) == 0)
		b.cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	b.end = end;
	b.endcpu = endcpu;
	b.blocked = s->blocked + more;
	sampler_header(&h, SR_WALLTIME);
	h.tid = s->tid;
	h.time = s->start;
	h.n = 1;
	sampler_emit(&h, &b, sizeof b);
}

/*
 * At the process's end: the calls in progress, up to now, sampled as if
 * they ended now (a fresh draw: the chance is the same), and every
 * thread's account not sent yet.  This thread's own call is one too when
 * a signal broke into it.  Called with reg_lock held.
 */
static void
walk_all(void)
{
	uint32_t cpu;
	uint64_t end = sampler_now(&cpu);

	for (struct slot *s = reg; s; s = s->next) {
		uint32_t st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);

		/* A thread's CPU clock, from its tid (clock_getcpuclockid's
		 * encoding, as glibc's pthread_getcpuclockid makes it). */
		clockid_t clock = s == &me ? CLOCK_THREAD_CPUTIME_ID :
		    (clockid_t)((~(unsigned)s->tid << 3) | 6);
		struct wcall c = s->call;
		uint64_t owed = (*s->periods - c.periods0) * period;
		uint64_t d = blocked(&c, end, &owed);

		if ((st & 3) != IN || !__atomic_compare_exchange_n(&s->state,
		    &st, (st & ~3u) | TAKEN, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			if (!s->told)
				tell(s, end, cpu, clock, 0);
			continue;
		}
		if (d > 0 && (uint64_t)sampler_exp((double)period) <= d)
			take(s, &c, d);
		if (!s->told)
			tell(s, end, cpu, clock, d);
	}
}

__attribute__((destructor)) static void
wall_fini(void)
{
	if (period == 0)
		return;
	lock(&reg_lock);
	walk_all();
	unlock(&reg_lock);
}

/*
 * An ending signal the program leaves SIG_DFL: the walk, then SIG_DFL's
 * end as soon as this returns (the kernel put SIG_DFL back as it called
 * the handler, SA_RESETHAND, and the signal raised again is held off
 * until then).  No walk on a thread in seccomp, which may make no
 * system call.
 */
static void
on_end(int sig, siginfo_t *si, void *uc)
{
	int e = errno;

	(void)si;
	(void)uc;
	if (!sampler_sealed() && lock_soon(&reg_lock)) {
		walk_all();
		unlock(&reg_lock);
	}
	raise(sig);
	errno = e;
}

/* Give the kernel the program's disposition a of ends[i], or ours in
 * place of SIG_DFL. */
static int
set_end(size_t i, const struct sigaction *a)
{
	struct sigaction ours;

	if (a->sa_handler != SIG_DFL || (a->sa_flags & SA_SIGINFO))
		return real_sigaction(ends[i], a, NULL);
	memset(&ours, 0, sizeof ours);
	ours.sa_sigaction = on_end;
	ours.sa_flags = SA_SIGINFO | SA_RESTART | SA_RESETHAND;
	sigfillset(&ours.sa_mask);
	return real_sigaction(ends[i], &ours, NULL);
}

int
wall_sigaction(int sig, const struct sigaction *act, struct sigaction *old, int *r)
{
	for (size_t i = 0; i < NENDS; i++) {
		if (sig != ends[i] || period == 0)
			continue;
		struct sigaction was = prog_end[i];

		*r = 0;
		if (act && (*r = set_end(i, act)) == 0)
			prog_end[i] = *act;
		if (old && *r == 0)
			*old = was;
		return 1;
	}
	return 0;
}

void
wall_init(const struct sr_ring *r)
{
	period = r->period ? r->wall_period : 0;
	*(void **)&real_sigaction = dlsym(RTLD_NEXT, "sigaction");
	if (real_sigaction == NULL)
		period = 0;
	for (size_t i = 0; period && i < NENDS; i++)
		if (real_sigaction(ends[i], NULL, &prog_end[i]) == 0)
			set_end(i, &prog_end[i]);
}

void
wall_thread_start(uint32_t tid, const char *comm, uintptr_t hi)
{
	if (period == 0)
		return;
	me.tid = tid;
	me.comm = comm;
	me.periods = &sampler_periods;
	me.hi = hi;
	me.state = IDLE;
	me.blocked = 0;
	me.told = 0;
	me.start = sampler_now(&(uint32_t){ 0 });
	left = sampler_exp((double)period);
	lock(&reg_lock);
	me.prev = NULL;
	me.next = reg;
	if (reg)
		reg->prev = &me;
	reg = &me;
	me.followed = 1;
	unlock(&reg_lock);
}

void
wall_thread_end(void)
{
	uint32_t cpu;

	if (!me.followed)
		return;
	lock(&reg_lock);
	/* A thread in seccomp cannot read its CPU clock: no account. */
	if (!me.told && !sampler_sealed())
		tell(&me, sampler_now(&cpu), cpu, CLOCK_THREAD_CPUTIME_ID, 0);
	me.followed = 0;
	if (me.prev)
		me.prev->next = me.next;
	else
		reg = me.next;
	if (me.next)
		me.next->prev = me.prev;
	unlock(&reg_lock);
}

/* The other threads' slots are copies of memory no thread owns here. */
void
wall_after_fork(void)
{
	reg_lock = 0;
	reg = NULL;
	me.followed = 0;
}


WRAP(unsigned, sleep, (unsigned s), (s), s)
WRAP(int, usleep, (useconds_t us), (us), ENOSYS_)
WRAP(int, nanosleep, (const struct timespec *t, struct timespec *rem), (t, rem), ENOSYS_)
WRAP(int, clock_nanosleep, (clockid_t id, int fl, const struct timespec *t,
    struct timespec *rem), (id, fl, t, rem), ENOSYS)
WRAP(int, pause, (void), (), ENOSYS_)

WRAP(ssize_t, read, (int fd, void *b, size_t n), (fd, b, n), ENOSYS_)
WRAP(ssize_t, write, (int fd, const void *b, size_t n), (fd, b, n), ENOSYS_)
WRAP(ssize_t, readv, (int fd, const struct iovec *v, int n), (fd, v, n), ENOSYS_)
WRAP(ssize_t, writev, (int fd, const struct iovec *v, int n), (fd, v, n), ENOSYS_)
WRAP(ssize_t, pread, (int fd, void *b, size_t n, off_t o), (fd, b, n, o), ENOSYS_)
WRAP(ssize_t, pwrite, (int fd, const void *b, size_t n, off_t o), (fd, b, n, o), ENOSYS_)
WRAP(int, close, (int fd), (fd), ENOSYS_)
WRAP(int, fsync, (int fd), (fd), ENOSYS_)
WRAP(int, fdatasync, (int fd), (fd), ENOSYS_)
WRAP(ssize_t, sendfile, (int out, int in, off_t *o, size_t n), (out, in, o, n), ENOSYS_)
WRAP(ssize_t, splice, (int in, loff_t *oi, int out, loff_t *oo, size_t n, unsigned fl),
    (in, oi, out, oo, n, fl), ENOSYS_)
WRAP(ssize_t, copy_file_range, (int in, loff_t *oi, int out, loff_t *oo, size_t n,
    unsigned fl), (in, oi, out, oo, n, fl), ENOSYS_)

WRAP(ssize_t, recv, (int fd, void *b, size_t n, int fl), (fd, b, n, fl), ENOSYS_)
WRAP(ssize_t, recvfrom, (int fd, void *b, size_t n, int fl, __SOCKADDR_ARG a,
    socklen_t *al), (fd, b, n, fl, a, al), ENOSYS_)
WRAP(ssize_t, recvmsg, (int fd, struct msghdr *m, int fl), (fd, m, fl), ENOSYS_)
WRAP(int, recvmmsg, (int fd, struct mmsghdr *m, unsigned n, int fl, struct timespec *t),
    (fd, m, n, fl, t), ENOSYS_)
WRAP(ssize_t, send, (int fd, const void *b, size_t n, int fl), (fd, b, n, fl), ENOSYS_)
WRAP(ssize_t, sendto, (int fd, const void *b, size_t n, int fl, __CONST_SOCKADDR_ARG a,
    socklen_t al), (fd, b, n, fl, a, al), ENOSYS_)
WRAP(ssize_t, sendmsg, (int fd, const struct msghdr *m, int fl), (fd, m, fl), ENOSYS_)
WRAP(int, accept, (int fd, __SOCKADDR_ARG a, socklen_t *al), (fd, a, al), ENOSYS_)
WRAP(int, accept4, (int fd, __SOCKADDR_ARG a, socklen_t *al, int fl), (fd, a, al, fl),
    ENOSYS_)
WRAP(int, connect, (int fd, __CONST_SOCKADDR_ARG a, socklen_t al), (fd, a, al), ENOSYS_)
/* Name lookups wait on the network inside libc, past its read and poll. */
WRAP(int, getaddrinfo, (const char *node, const char *serv, const struct addrinfo *hints,
    struct addrinfo **res), (node, serv, hints, res), EAI_SYSTEM)
WRAP(int, getnameinfo, (const struct sockaddr *sa, socklen_t salen, char *host,
    socklen_t hostlen, char *serv, socklen_t servlen, int fl), (sa, salen, host, hostlen,
    serv, servlen, fl), EAI_SYSTEM)

WRAP(int, poll, (struct pollfd *p, nfds_t n, int ms), (p, n, ms), ENOSYS_)
WRAP(int, ppoll, (struct pollfd *p, nfds_t n, const struct timespec *t,
    const sigset_t *m), (p, n, t, m), ENOSYS_)
WRAP(int, select, (int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *t),
    (n, r, w, e, t), ENOSYS_)
WRAP(int, pselect, (int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *t,
    const sigset_t *m), (n, r, w, e, t, m), ENOSYS_)
WRAP(int, epoll_wait, (int fd, struct epoll_event *ev, int n, int ms), (fd, ev, n, ms),
    ENOSYS_)
WRAP(int, epoll_pwait, (int fd, struct epoll_event *ev, int n, int ms, const sigset_t *m),
    (fd, ev, n, ms, m), ENOSYS_)
WRAP(int, epoll_pwait2, (int fd, struct epoll_event *ev, int n, const struct timespec *t,
    const sigset_t *m), (fd, ev, n, t, m), ENOSYS_)

WRAP(int, pthread_cond_wait, (pthread_cond_t *cv, pthread_mutex_t *m), (cv, m), ENOSYS)
WRAP(int, pthread_cond_timedwait, (pthread_cond_t *cv, pthread_mutex_t *m,
    const struct timespec *t), (cv, m, t), ENOSYS)
WRAP(int, pthread_cond_clockwait, (pthread_cond_t *cv, pthread_mutex_t *m, clockid_t id,
    const struct timespec *t), (cv, m, id, t), ENOSYS)
WRAP(int, pthread_join, (pthread_t t, void **ret), (t, ret), ENOSYS)
WRAP(int, pthread_timedjoin_np, (pthread_t t, void **ret, const struct timespec *ts),
    (t, ret, ts), ENOSYS)
WRAP(int, pthread_clockjoin_np, (pthread_t t, void **ret, clockid_t id,
    const struct timespec *ts), (t, ret, id, ts), ENOSYS)
WRAP(int, pthread_barrier_wait, (pthread_barrier_t *b), (b), ENOSYS)

/* system and pclose wait for a child inside libc. */
WRAP(int, system, (const char *cmd), (cmd), -1)
WRAP(int, pclose, (FILE *f), (f), ENOSYS_)
WRAP(pid_t, wait, (int *st), (st), ENOSYS_)
WRAP(pid_t, waitpid, (pid_t p, int *st, int o), (p, st, o), ENOSYS_)
WRAP(pid_t, wait3, (int *st, int o, struct rusage *ru), (st, o, ru), ENOSYS_)
WRAP(pid_t, wait4, (pid_t p, int *st, int o, struct rusage *ru), (p, st, o, ru), ENOSYS_)
WRAP(int, waitid, (idtype_t t, id_t id, siginfo_t *si, int o), (t, id, si, o), ENOSYS_)

WRAP(int, flock, (int fd, int op), (fd, op), ENOSYS_)
WRAP(ssize_t, msgrcv, (int id, void *m, size_t n, long t, int fl), (id, m, n, t, fl), ENOSYS_)
WRAP(int, sigwait, (const sigset_t *m, int *sig), (m, sig), ENOSYS)
WRAP(int, sigwaitinfo, (const sigset_t *m, siginfo_t *si), (m, si), ENOSYS_)
WRAP(int, sigtimedwait, (const sigset_t *m, siginfo_t *si, const struct timespec *t),
    (m, si, t), ENOSYS_)
WRAP(int, sigsuspend, (const sigset_t *m), (m), ENOSYS_)
WRAP(int, msgsnd, (int id, const void *m, size_t n, int fl), (id, m, n, fl), ENOSYS_)
WRAP(int, semop, (int id, struct sembuf *ops, size_t n), (id, ops, n), ENOSYS_)
WRAP(int, semtimedop, (int id, struct sembuf *ops, size_t n, const struct timespec *t),
    (id, ops, n, t), ENOSYS_)
WRAP(ssize_t, mq_receive, (mqd_t q, char *m, size_t n, unsigned *prio), (q, m, n, prio),
    ENOSYS_)
WRAP(ssize_t, mq_timedreceive, (mqd_t q, char *m, size_t n, unsigned *prio,
    const struct timespec *t), (q, m, n, prio, t), ENOSYS_)
WRAP(int, mq_send, (mqd_t q, const char *m, size_t n, unsigned prio), (q, m, n, prio),
    ENOSYS_)
WRAP(int, mq_timedsend, (mqd_t q, const char *m, size_t n, unsigned prio,
    const struct timespec *t), (q, m, n, prio, t), ENOSYS_)

/*
 * Locks: the try first, so that one taken at once (most are) costs no
 * clock read.  It answers as the blocking call would, but when busy
 * (an errorcheck mutex the caller owns too: the blocking call then says
 * EDEADLK itself).
 */
#define TRY_FIRST(type, name, try, params, args, targs, busy, fail) \
FIND(name) \
EXPORT type \
name params \
{ \
	if (real_##try == NULL) \
		find_##try(); \
	REAL(name, fail); \
	if (real_##try) { \
		int e_ = errno; \
		type t_ = real_##try targs; \
		if (!(busy)) \
			return t_; \
		errno = e_; \
	} \
	TIMED(type, real args); \
}

FIND(pthread_mutex_trylock)
FIND(pthread_rwlock_tryrdlock)
FIND(pthread_rwlock_trywrlock)
FIND(sem_trywait)

TRY_FIRST(int, pthread_mutex_lock, pthread_mutex_trylock, (pthread_mutex_t *m), (m), (m),
    t_ == EBUSY, ENOSYS)
TRY_FIRST(int, pthread_mutex_timedlock, pthread_mutex_trylock, (pthread_mutex_t *m,
    const struct timespec *t), (m, t), (m), t_ == EBUSY, ENOSYS)
TRY_FIRST(int, pthread_mutex_clocklock, pthread_mutex_trylock, (pthread_mutex_t *m,
    clockid_t id, const struct timespec *t), (m, id, t), (m), t_ == EBUSY, ENOSYS)
TRY_FIRST(int, pthread_rwlock_rdlock, pthread_rwlock_tryrdlock, (pthread_rwlock_t *l),
    (l), (l), t_ == EBUSY, ENOSYS)
TRY_FIRST(int, pthread_rwlock_wrlock, pthread_rwlock_trywrlock, (pthread_rwlock_t *l),
    (l), (l), t_ == EBUSY, ENOSYS)
TRY_FIRST(int, pthread_rwlock_timedrdlock, pthread_rwlock_tryrdlock, (pthread_rwlock_t *l,
    const struct timespec *t), (l, t), (l), t_ == EBUSY, ENOSYS)
TRY_FIRST(int, pthread_rwlock_timedwrlock, pthread_rwlock_trywrlock, (pthread_rwlock_t *l,
    const struct timespec *t), (l, t), (l), t_ == EBUSY, ENOSYS)
TRY_FIRST(int, sem_wait, sem_trywait, (sem_t *s), (s), (s), t_ != 0 && errno == EAGAIN,
    ENOSYS_)
TRY_FIRST(int, sem_timedwait, sem_trywait, (sem_t *s, const struct timespec *t), (s, t),
    (s), t_ != 0 && errno == EAGAIN, ENOSYS_)
TRY_FIRST(int, sem_clockwait, sem_trywait, (sem_t *s, clockid_t id,
    const struct timespec *t), (s, id, t), (s), t_ != 0 && errno == EAGAIN, ENOSYS_)

/* fcntl and lockf: only the commands that wait for a lock are timed.
 * fcntl's argument is read as a pointer, as libc reads it (a long or an
 * int passed fit). */
static int
waits(int cmd)
{
	return cmd == F_SETLKW || cmd == F_OFD_SETLKW;
}

#define FCNTL(name) \
FIND(name) \
EXPORT int \
name(int fd, int cmd, ...) \
{ \
	va_list ap; \
	void *arg; \
	REAL(name, ENOSYS_); \
	va_start(ap, cmd); \
	arg = va_arg(ap, void *); \
	va_end(ap); \
	if (!waits(cmd)) \
		return real(fd, cmd, arg); \
	TIMED(int, real(fd, cmd, arg)); \
}

FCNTL(fcntl)
FCNTL(fcntl64)

/* lockf: only F_LOCK waits.  lockf64 is the name a program built with
 * _FILE_OFFSET_BITS=64 calls. */
#define LOCKF(name, off) \
FIND(name) \
EXPORT int \
name(int fd, int cmd, off len) \
{ \
	REAL(name, ENOSYS_); \
	if (cmd != F_LOCK) \
		return real(fd, cmd, len); \
	TIMED(int, real(fd, cmd, len)); \
}

LOCKF(lockf, off_t)
LOCKF(lockf64, off64_t)

/*
 * open and openat: a FIFO's open waits for the other end, a network
 * file system's for the server.  The mode is read only where the flags
 * say there is one, as libc reads it.
 */
#define MODE(fl, ap, last, mode) \
	mode_t mode = 0; \
	if ((fl) & O_CREAT || ((fl) & O_TMPFILE) == O_TMPFILE) { \
		va_start(ap, last); \
		mode = (mode_t)va_arg(ap, int); \
		va_end(ap); \
	}

#define OPEN(name) \
FIND(name) \
EXPORT int \
name(const char *path, int fl, ...) \
{ \
	va_list ap; \
	MODE(fl, ap, fl, mode); \
	REAL(name, ENOSYS_); \
	TIMED(int, real(path, fl, mode)); \
}

#define OPENAT(name) \
FIND(name) \
EXPORT int \
name(int dir, const char *path, int fl, ...) \
{ \
	va_list ap; \
	MODE(fl, ap, fl, mode); \
	REAL(name, ENOSYS_); \
	TIMED(int, real(dir, path, fl, mode)); \
}

OPEN(open)
OPEN(open64)
OPENAT(openat)
OPENAT(openat64)
