/*
 * trace_record.c: the span library (libtracerecord).
 *
 * Design, after TiKV's tracing (minitrace): every thread appends span
 * events to its own buffer, with no lock and no atomic read-modify-write;
 * the parent of a new span is the thread's innermost open span (cur), as
 * the article's next_parent_id.  A begin and an end are separate events,
 * so a span still open when a buffer fills, the program crashes or exits
 * is never half-written: trace-record pairs them by id and reports the
 * begins it never saw end.
 *
 * A full buffer goes, under one mutex, to a queue that a writer thread
 * sends to trace-record, one packet per buffer (proto.h), and the thread
 * takes an empty one.  Buffers are bounded (TRACE_RECORD_BUFFERS, 256 of
 * 64 KiB by default): when none is free the thread empties its own and
 * counts the begins it threw away, so a slow reader costs spans, counted,
 * never a blocked program.  The writer alone does I/O, and it resolves
 * names (strings, or function symbols through elfsym.c) before the events
 * that use them.
 *
 * Recording is on only when $TRACE_RECORD_FD is a SOCK_SEQPACKET socket
 * (trace-record's); otherwise tr_begin and tr_end test one flag.  A forked
 * child stops recording (its buffers are its parent's); an exec'd program
 * starts its own stream.  At exit, and on a fatal signal, the events every
 * thread has made so far are sent.
 */
#include "trace_record.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#include "elfsym.h"
#include "proto.h"

#define NOINST		__attribute__((no_instrument_function))
#define EV_PER_BUF	((TR_PACKET_MAX - sizeof(struct tr_pk)) / sizeof(struct tr_ev))
#define MAX_CPUS	4096
#define FN_DEPTH	1024

struct buf {
	struct buf	*next;
	struct tr_pk	 hdr;
	struct tr_ev	 ev[EV_PER_BUF];
};

struct thr {
	struct buf	*buf;
	uint32_t	 n;		/* events in buf, stored with release */
	uint32_t	 depth;		/* -finstrument-functions stack */
	uint64_t	 cur;		/* innermost open span */
	uint64_t	 base;		/* slot << 40 */
	uint64_t	 seq;
	uint64_t	 dropped;
	pid_t		 tid;
	int		 dead;
	struct thr	*next;
	uint64_t	 stack[FN_DEPTH][2];	/* id, outer */
};

int tr_recording;		/* read relaxed by the inline tr_begin */

static int clockmode;
static int64_t *offsets;	/* TR_CLOCK_TSCP: per CPU, in ticks */
static int sock = -1;
static pid_t pid;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct buf *queue, **qtail = &queue, *spare;
static unsigned nbufs, maxbufs = 256;
static struct thr *threads;
static uint32_t nslots;
static int stopping;
static pthread_t writer;
static pthread_key_t key;

static __thread struct thr *me __attribute__((tls_model("initial-exec")));

static NOINST uint64_t
now(void)
{
#ifdef HAVE_TSC
	if (clockmode == TR_CLOCK_TSC)
		return __rdtsc();
	if (clockmode == TR_CLOCK_TSCP) {
		unsigned aux;
		uint64_t t = __rdtscp(&aux);

		return t - (uint64_t)offsets[aux & (MAX_CPUS - 1)];
	}
#endif
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A buffer from the spares, or a new one within the bound; mu held. */
static NOINST struct buf *
buf_get(void)
{
	struct buf *b = spare;

	if (b) {
		spare = b->next;
		return b;
	}
	if (nbufs >= maxbufs || (b = malloc(sizeof *b)) == NULL)
		return NULL;
	nbufs++;
	return b;
}

static NOINST void
enqueue(struct buf *b)
{
	b->next = NULL;
	*qtail = b;
	qtail = &b->next;
	pthread_cond_signal(&wake);
}

static NOINST void
fill_header(struct tr_pk *h, const struct thr *t, uint32_t kind, uint32_t count)
{
	memset(h, 0, sizeof *h);
	h->magic = TR_MAGIC;
	h->kind = kind;
	h->pid = (uint32_t)pid;
	h->tid = (uint32_t)t->tid;
	h->dropped = t->dropped;
	h->count = count;
}

static NOINST uint32_t
begins(const struct buf *b, uint32_t n)
{
	uint32_t i, k = 0;

	for (i = 0; i < n; i++)
		k += TR_KIND(b->ev[i].id) != TR_END;
	return k;
}

/*
 * The thread's buffer is full (or it wants it sent): queue it and take
 * another, or, with none to spare, empty it and count what was lost.
 */
static NOINST void
handoff(struct thr *t)
{
	struct buf *b;

	pthread_mutex_lock(&mu);
	if (t->n > 0 && !stopping && (b = buf_get()) != NULL) {
		fill_header(&t->buf->hdr, t, TR_PK_EVENTS, t->n);
		enqueue(t->buf);
		t->buf = b;
	} else {
		t->dropped += begins(t->buf, t->n);
	}
	__atomic_store_n(&t->n, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&mu);
}

static NOINST void
thread_gone(void *arg)
{
	struct thr *t = arg;

	if (t->n > 0)
		handoff(t);
	pthread_mutex_lock(&mu);
	t->dead = 1;
	if (t->buf) {
		t->buf->next = spare;
		spare = t->buf;
		t->buf = NULL;
	}
	pthread_mutex_unlock(&mu);
	me = NULL;
}

static NOINST struct thr *
thread_new(void)
{
	struct thr *t = calloc(1, sizeof *t);

	if (t == NULL)
		return NULL;
	pthread_mutex_lock(&mu);
	t->buf = buf_get();
	if (t->buf == NULL) {
		pthread_mutex_unlock(&mu);
		free(t);
		return NULL;
	}
	t->base = (uint64_t)++nslots << 40;
	t->tid = (pid_t)syscall(SYS_gettid);
	t->next = threads;
	threads = t;
	pthread_mutex_unlock(&mu);
	pthread_setspecific(key, t);
	me = t;
	return t;
}

static inline NOINST struct tr_ev *
slot(struct thr *t)
{
	if (t->n == EV_PER_BUF)
		handoff(t);
	return &t->buf->ev[t->n];
}

static inline NOINST uint64_t
push_begin(struct thr *t, uint64_t name, unsigned kind, uint64_t parent)
{
	struct tr_ev *e = slot(t);
	uint64_t id = t->base | ++t->seq;

	e->ts = now();
	e->name = name;
	e->id = id | (uint64_t)kind << 62;
	e->parent = parent;
	__atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELEASE);
	return id;
}

static inline NOINST void
push_end(struct thr *t, uint64_t id)
{
	struct tr_ev *e = slot(t);

	e->ts = now();
	e->name = 0;
	e->id = id;
	e->parent = 0;
	__atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELEASE);
}

static inline NOINST struct thr *
self(void)
{
	struct thr *t = me;

	return t ? t : thread_new();
}

NOINST tr_span
tr_begin_slow(const char *name, tr_span parent)
{
	tr_span s = { 0, 0 };
	struct thr *t;

	if ((t = self()) == NULL)
		return s;
	s.outer = t->cur;
	s.id = push_begin(t, (uintptr_t)(name ? name : "?"), TR_BEGIN_STR,
	    parent.id ? parent.id : t->cur);
	t->cur = s.id;
	return s;
}

NOINST void
tr_end_slow(tr_span s)
{
	struct thr *t;

	if ((t = self()) == NULL)
		return;
	push_end(t, s.id);
	if (t->cur == s.id)
		t->cur = s.outer;
}

NOINST void
tr_flush(void)
{
	if (me && me->n > 0)
		handoff(me);
}

void __cyg_profile_func_enter(void *fn, void *site) NOINST;
void __cyg_profile_func_exit(void *fn, void *site) NOINST;

/* A span per function of a program built with -finstrument-functions. */
void
__cyg_profile_func_enter(void *fn, void *site)
{
	struct thr *t;

	(void)site;
	if (!__atomic_load_n(&tr_recording, __ATOMIC_RELAXED) || (t = self()) == NULL)
		return;
	if (t->depth < FN_DEPTH) {
		t->stack[t->depth][0] = push_begin(t, (uintptr_t)fn, TR_BEGIN_FN, t->cur);
		t->stack[t->depth][1] = t->cur;
		t->cur = t->stack[t->depth][0];
	}
	t->depth++;
}

void
__cyg_profile_func_exit(void *fn, void *site)
{
	struct thr *t = me;

	(void)fn;
	(void)site;
	if (t == NULL || t->depth == 0)
		return;
	if (--t->depth < FN_DEPTH) {
		push_end(t, t->stack[t->depth][0]);
		t->cur = t->stack[t->depth][1];
	}
}

/*
 * The writer.  Names first: every begin's name not sent before goes in a
 * names packet ahead of the events; the set of sent names is the writer's
 * alone.
 */
static uint64_t *sent;
static size_t nsent, capsent;

static NOINST int
name_seen(uint64_t k)
{
	size_t i, j;

	if (nsent * 2 >= capsent) {
		size_t ncap = capsent ? capsent * 2 : 1024;
		uint64_t *n = calloc(ncap, sizeof *n);

		if (n == NULL)
			return 1;
		for (j = 0; j < capsent; j++)
			if (sent[j]) {
				for (i = (sent[j] * 0x9e3779b97f4a7c15ull) >> 20 & (ncap - 1);
				    n[i]; i = (i + 1) & (ncap - 1))
					;
				n[i] = sent[j];
			}
		free(sent);
		sent = n;
		capsent = ncap;
	}
	for (i = (k * 0x9e3779b97f4a7c15ull) >> 20 & (capsent - 1); sent[i];
	    i = (i + 1) & (capsent - 1))
		if (sent[i] == k)
			return 1;
	sent[i] = k;
	nsent++;
	return 0;
}

static NOINST int
send_all(const void *p, size_t n)
{
	while (send(sock, p, n, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static NOINST void
send_names(struct buf *b, uint32_t n, struct thr *t, int in_signal)
{
	/* The handler has its own: it may interrupt the writer mid-packet. */
	static char wbuf[TR_PACKET_MAX], sbuf[TR_PACKET_MAX];
	char *pk = in_signal ? sbuf : wbuf;
	struct tr_pk *h = (struct tr_pk *)pk;
	size_t used = sizeof *h;
	uint32_t count = 0, i;
	uint64_t last = 0;
	char tmp[64];

	for (i = 0; i < n; i++) {
		const struct tr_ev *e = &b->ev[i];
		unsigned kind = TR_KIND(e->id);
		const char *s;
		size_t len, need;

		if (kind == TR_END || e->name == last || (!in_signal && name_seen(e->name)))
			continue;
		last = e->name;
		if (kind == TR_BEGIN_STR) {
			s = (const char *)(uintptr_t)e->name;
		} else if (in_signal || (s = elfsym_lookup((uintptr_t)e->name)) == NULL) {
			/* No symbol (or no time to look): its address. */
			static const char hex[] = "0123456789abcdef";
			uint64_t v = e->name;
			int d = 0;

			tmp[d++] = '0';
			tmp[d++] = 'x';
			for (int sh = 60; sh >= 0; sh -= 4)
				if ((v >> sh) || sh == 0 || d > 2)
					tmp[d++] = hex[v >> sh & 15];
			tmp[d] = '\0';
			s = tmp;
		}
		len = strnlen(s, 4096);
		need = sizeof(struct tr_name) + ((len + 7) & ~(size_t)7);
		if (used + need > TR_PACKET_MAX) {
			fill_header(h, t, TR_PK_NAMES, count);
			if (send_all(pk, used) < 0)
				return;
			used = sizeof *h;
			count = 0;
		}
		struct tr_name *nm = (struct tr_name *)(pk + used);

		nm->key = e->name;
		nm->len = (uint32_t)len;
		nm->pad = 0;
		memcpy(pk + used + sizeof *nm, s, len);
		memset(pk + used + sizeof *nm + len, 0, need - sizeof *nm - len);
		used += need;
		count++;
	}
	if (count) {
		fill_header(h, t, TR_PK_NAMES, count);
		send_all(pk, used);
	}
}

static NOINST void
send_events(struct buf *b)
{
	struct thr t = { .tid = (pid_t)b->hdr.tid, .dropped = b->hdr.dropped };

	send_names(b, b->hdr.count, &t, 0);
	if (send_all(&b->hdr, sizeof b->hdr + b->hdr.count * sizeof(struct tr_ev)) < 0)
		__atomic_store_n(&tr_recording, 0, __ATOMIC_RELAXED);	/* reader gone */
}

static NOINST void *
write_loop(void *arg)
{
	(void)arg;
	for (;;) {
		struct buf *b, *next;

		pthread_mutex_lock(&mu);
		while (queue == NULL && !stopping)
			pthread_cond_wait(&wake, &mu);
		b = queue;
		queue = NULL;
		qtail = &queue;
		int done = stopping && b == NULL;
		pthread_mutex_unlock(&mu);
		if (done)
			return NULL;
		for (; b; b = next) {
			next = b->next;
			send_events(b);
			pthread_mutex_lock(&mu);
			b->next = spare;
			spare = b;
			pthread_mutex_unlock(&mu);
		}
	}
}

static NOINST void
send_simple(uint32_t kind, const void *body, size_t len)
{
	char pk[sizeof(struct tr_pk) + sizeof(struct tr_hello)];
	struct thr t = { .tid = pid };

	fill_header((struct tr_pk *)pk, &t, kind, len ? 1 : 0);
	memcpy(pk + sizeof(struct tr_pk), body, len);
	send_all(pk, sizeof(struct tr_pk) + len);
}

/* At exit: every thread's events so far, then the queue, then BYE. */
static NOINST void
finish(void)
{
	struct thr *t;
	struct buf *b;

	if (!tr_recording || getpid() != pid)
		return;
	__atomic_store_n(&tr_recording, 0, __ATOMIC_RELAXED);
	pthread_mutex_lock(&mu);
	for (t = threads; t; t = t->next) {
		uint32_t n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

		if (t->dead || n == 0 || (b = malloc(sizeof *b)) == NULL)
			continue;
		memcpy(b->ev, t->buf->ev, n * sizeof *b->ev);
		fill_header(&b->hdr, t, TR_PK_EVENTS, n);
		enqueue(b);
	}
	stopping = 1;
	pthread_cond_signal(&wake);
	pthread_mutex_unlock(&mu);
	pthread_join(writer, NULL);

	uint64_t dropped = 0;

	for (t = threads; t; t = t->next)
		dropped += t->dropped;
	send_simple(TR_PK_BYE, &dropped, sizeof dropped);
}

/*
 * A fatal signal: send what every thread has made, unlocked and without
 * allocating (duplicates of packets the writer is sending are dropped by
 * trace-record), then die of the signal as the program would have.
 */
static struct sigaction old_act[NSIG];

static NOINST void
on_fatal(int sig)
{
	struct thr *t;
	struct buf *b;

	if (tr_recording && getpid() == pid) {
		tr_recording = 0;
		for (t = threads; t; t = t->next) {
			uint32_t n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

			if (t->dead || n == 0 || t->buf == NULL)
				continue;
			send_names(t->buf, n, t, 1);
			fill_header(&t->buf->hdr, t, TR_PK_EVENTS, n);
			send_all(&t->buf->hdr, sizeof t->buf->hdr + n * sizeof(struct tr_ev));
		}
		for (b = queue; b; b = b->next) {
			struct thr q = { .tid = (pid_t)b->hdr.tid };

			send_names(b, b->hdr.count, &q, 1);
			send_all(&b->hdr, sizeof b->hdr + b->hdr.count * sizeof(struct tr_ev));
		}
	}
	sigaction(sig, &old_act[sig], NULL);
	raise(sig);
}

static NOINST void
after_fork_child(void)
{
	tr_recording = 0;
	me = NULL;
}

/* "cpu:ticks,cpu:ticks...": the per-CPU offsets trace-record measured. */
static NOINST int
parse_offsets(const char *s)
{
	offsets = calloc(MAX_CPUS, sizeof *offsets);
	if (offsets == NULL)
		return -1;
	while (s && *s) {
		char *end;
		long cpu = strtol(s, &end, 10);

		if (*end != ':' || cpu < 0 || cpu >= MAX_CPUS)
			return -1;
		offsets[cpu] = strtoll(end + 1, &end, 10);
		if (*end != ',' && *end != '\0')
			return -1;
		s = *end ? end + 1 : end;
	}
	return 0;
}

__attribute__((constructor)) static NOINST void
tr_init(void)
{
	const char *fd = getenv("TRACE_RECORD_FD"), *clk = getenv("TRACE_RECORD_CLOCK");
	const char *nb = getenv("TRACE_RECORD_BUFFERS");
	struct tr_hello hello;
	int type = 0, sig;
	socklen_t len = sizeof type;
	char *end;
	sigset_t all, prev;

	if (fd == NULL || clk == NULL)
		return;
	sock = (int)strtol(fd, &end, 10);
	if (*end || getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &len) < 0 ||
	    type != SOCK_SEQPACKET)
		return;
	if (strcmp(clk, "mono") == 0)
		clockmode = TR_CLOCK_MONO;
#ifdef HAVE_TSC
	else if (strcmp(clk, "tsc") == 0)
		clockmode = TR_CLOCK_TSC;
	else if (strcmp(clk, "tscp") == 0 && parse_offsets(getenv("TRACE_RECORD_OFFSETS")) == 0)
		clockmode = TR_CLOCK_TSCP;
#endif
	else
		return;
	if (nb && strtoul(nb, &end, 10) > 0 && *end == '\0')
		maxbufs = (unsigned)strtoul(nb, NULL, 10);
	pid = getpid();
	if (pthread_key_create(&key, thread_gone) != 0)
		return;

	memset(&hello, 0, sizeof hello);
	hello.ppid = (uint32_t)getppid();
	hello.clock = (uint32_t)clockmode;
	ssize_t k = readlink("/proc/self/exe", hello.exe, sizeof hello.exe - 1);

	if (k < 0)
		hello.exe[0] = '\0';
	send_simple(TR_PK_HELLO, &hello, sizeof hello);

	/* The writer takes no signals: they are the program's. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &prev);
	int err = pthread_create(&writer, NULL, write_loop, NULL);

	pthread_sigmask(SIG_SETMASK, &prev, NULL);
	if (err != 0)
		return;
	pthread_atfork(NULL, NULL, after_fork_child);
	atexit(finish);
	/*
	 * Signals that kill by default: caught only where the program has
	 * not chosen otherwise (a handler set later replaces ours).
	 */
	int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS,
	    SIGTERM, SIGINT, SIGHUP, SIGQUIT };

	for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
		struct sigaction sa;

		sig = fatal[i];
		if (sigaction(sig, NULL, &old_act[sig]) != 0 ||
		    old_act[sig].sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_fatal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND;
		sigaction(sig, &sa, NULL);
	}
	__atomic_store_n(&tr_recording, 1, __ATOMIC_RELEASE);
}
