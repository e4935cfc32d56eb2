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
 * Buffers live in memory shared with trace-record (proto.h), so events
 * are written once and never copied: a full buffer goes, under one mutex,
 * to a queue that a writer thread announces to trace-record, one small
 * packet per buffer, and the thread takes an empty one from the shared
 * free stack, where trace-record puts buffers back once read.  Their
 * number is bounded (trace-record --buffers): when none is free the
 * thread waits for trace-record to put one back, so that nothing is
 * dropped (a 4-thread program making 10M spans on 2 cores lost 55% of
 * them to full buffers when it did not wait); a program outrunning
 * trace-record runs at its pace.  With trace-record --max-spans
 * (TR_SHM_DROP) it empties its own instead and counts the begins it
 * threw away: spans lost, counted, never a slower program.  A thread
 * waits at most WAIT_MAX without any buffer changing hands (trace-record
 * stopped, or every buffer is some thread's own), then drops.  Properties and
 * events (tr_prop, tr_event) are notes in the same buffers, naming their
 * span by id, so they cost what a begin does and need no lookup; a
 * string value is copied into the slots after its note.  The writer alone
 * does I/O, and it resolves names (strings, or function symbols through
 * selfsym.c) before the events that use them.
 *
 * Recording is on only when $TRACE_RECORD_FD is a SOCK_SEQPACKET socket
 * and $TRACE_RECORD_SHM the shared memory (trace-record's); otherwise
 * tr_begin and tr_end test one flag.  A forked child stops recording; an
 * exec'd program starts its own stream.  At exit, and on a fatal signal,
 * the events every thread has made so far are announced, in buffers
 * trace-record keeps (a thread still running may write on in them); a
 * recording thread the program gave no signal stack gets one, so that
 * even a stack overflow is announced.
 */
#include "trace_record.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#include "selfsym.h"
#include "proto.h"

#define NOINST		__attribute__((no_instrument_function))
#define EV_PER_BUF	TR_BUF_EVENTS
#define MAX_CPUS	4096
#define FN_DEPTH	1024

struct thr {
	struct tr_ev	*ev;		/* buf's events */
	uint32_t	 n;		/* events in buf, stored with release */
	uint32_t	 fast_n;	/* n below this: room, and plain rdtsc */
	uint32_t	 depth;		/* -finstrument-functions stack */
	uint64_t	 min_ticks;	/* tr_shm's: shorter spans taken back */
	uint64_t	 cur;		/* innermost open span */
	uint64_t	 base;		/* slot << 40 */
	uint64_t	 seq;
	uint64_t	 taken;		/* spans taken back; stored relaxed */
	uint64_t	 dropped;
	struct tr_bufhdr *buf;
	pid_t		 tid;
	int		 dead;
	void		*alt;		/* our signal stack, if we gave it one */
	struct thr	*next;
	uint64_t	 stack[FN_DEPTH][2];	/* id, outer */
};

int tr_recording;		/* read relaxed by the inline tr_begin */

static int clockmode;
static int drop_when_full;	/* trace-record --max-spans: never wait */
static uint64_t min_ticks;	/* trace-record --min-duration, in ticks */
#ifdef HAVE_TSC
static int64_t *offsets;	/* TR_CLOCK_TSCP: per CPU, in ticks */
#endif
static int sock = -1;
static pid_t pid;
static struct tr_shm *shm;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;		/* on CLOCK_MONOTONIC */
static struct tr_bufhdr *queue, *qlast;	/* linked by index + 1 */
/* The writer's batch from the first buffer not yet announced, for a
 * fatal signal's handler to send if the process dies first.  The writer
 * sets it before it empties the queue, and the handler reads them in the
 * other order (see on_fatal). */
static struct tr_bufhdr *sending;
static struct thr *threads;
static uint32_t nslots;
static int stopping;
static pthread_t writer;
static pthread_key_t key;

static __thread struct thr *me __attribute__((tls_model("initial-exec")));

/*
 * tests/trace builds the library once more with TR_TEST_RACE, to make
 * the race on_fatal is written against happen every time: the writer
 * takes the queue only once a fatal signal's handler is between its two
 * reads (waiting there for it), and then never sends the batch, as a
 * writer the scheduler left behind until the process died.
 */
#ifdef TR_TEST_RACE
static int test_crashing;
static void test_between_reads(void);
#define TEST_HOLD()	(!__atomic_load_n(&test_crashing, __ATOMIC_ACQUIRE) && !stopping)
#define TEST_BETWEEN_READS()	test_between_reads()
#define TEST_NEVER_SEND(b)	do { if (b) for (;;) pause(); } while (0)
#else
#define TEST_HOLD()	0
#define TEST_BETWEEN_READS()	((void)0)
#define TEST_NEVER_SEND(b)	((void)0)
#endif

/* The clock when it is not plain rdtsc: out of line, so that the fast
 * path's callers keep their registers. */
static __attribute__((noinline)) NOINST uint64_t
now_slow(void)
{
#ifdef HAVE_TSC
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

static inline __attribute__((always_inline)) NOINST uint64_t
now(void)
{
#ifdef HAVE_TSC
	if (__builtin_expect(clockmode == TR_CLOCK_TSC, 1))
		return __rdtsc();
#endif
	return now_slow();
}

/*
 * The fast paths' clock.  They are taken only in TSC mode (fast_n is 0
 * otherwise), so elsewhere (no TSC: aarch64) they never run, but they
 * must still build.
 */
#ifdef HAVE_TSC
#define fast_now() __rdtsc()
#else
#define fast_now() now()
#endif

static NOINST uint32_t
buf_index(const struct tr_bufhdr *b)
{
	return (uint32_t)(((const char *)b - (const char *)shm - TR_SHM_HEAD) / TR_BUF_SIZE);
}

/* A free shared buffer, or NULL when all are in use. */
static NOINST struct tr_bufhdr *
buf_get(void)
{
	int64_t i = tr_free_pop(shm);

	return i < 0 ? NULL : TR_BUF(shm, i);
}

/* For the writer to announce; keep: trace-record must not reuse it. mu held. */
static NOINST void
enqueue(struct tr_bufhdr *b, uint32_t keep)
{
	b->next = 0;
	b->pad = keep;
	if (qlast)
		qlast->next = buf_index(b) + 1;
	else
		__atomic_store_n(&queue, b, __ATOMIC_RELEASE);	/* for on_fatal */
	qlast = b;
}

/* A packet from thread tid, which has dropped and taken back that many
 * spans so far. */
static NOINST void
fill_header(struct tr_pk *h, uint32_t tid, uint64_t dropped, uint64_t taken,
    uint32_t kind, uint32_t count)
{
	memset(h, 0, sizeof *h);
	h->magic = TR_MAGIC;
	h->kind = kind;
	h->pid = (uint32_t)pid;
	h->tid = tid;
	h->dropped = dropped;
	h->taken = taken;
	h->count = count;
}

static NOINST uint32_t
begins(const struct tr_ev *ev, uint32_t n)
{
	uint32_t i, k = 0;

	for (i = 0; i < n; i += tr_ev_slots(ev[i].id, ev[i].parent))
		k += TR_KIND(ev[i].id) == TR_BEGIN_STR || TR_KIND(ev[i].id) == TR_BEGIN_FN;
	return k;
}

static NOINST void
take(struct thr *t, struct tr_bufhdr *b)
{
	t->buf = b;
	t->ev = TR_BUF_EV(b);
}

#define WAIT_NS		20000		/* between looks for a free buffer */
#define WAIT_MAX	1000000000	/* ns with no buffer freed: give up */

static NOINST int64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * No buffer free: whether to wait for one.  Any change of the free
 * stack's head (its tag moves on every push and pop) is trace-record
 * making progress, and restarts the WAIT_MAX limit.
 */
static NOINST int
may_wait(uint64_t *head, int64_t *since)
{
	uint64_t h = __atomic_load_n(&shm->head, __ATOMIC_ACQUIRE);
	int64_t now_ns = mono_ns();

	if (drop_when_full || !__atomic_load_n(&tr_recording, __ATOMIC_RELAXED))
		return 0;
	if (*since == 0 || h != *head) {
		*head = h;
		*since = now_ns;
	}
	return now_ns - *since < WAIT_MAX;
}

/*
 * The thread's buffer is full (or it wants it sent): queue it and take
 * another, waiting for one if none is free (see the top); or empty it
 * and count what was lost.  It keeps its full buffer while it waits, for
 * a fatal signal's handler to send, and wakes the writer, so that the
 * buffers queued go to trace-record now rather than within a millisecond.
 */
static NOINST void
handoff(struct thr *t)
{
	struct tr_bufhdr *b = NULL;
	uint64_t head = 0;
	int64_t since = 0;

	pthread_mutex_lock(&mu);
	while (t->n > 0 && !stopping && (b = buf_get()) == NULL &&
	    may_wait(&head, &since)) {
		pthread_cond_signal(&wake);
		pthread_mutex_unlock(&mu);
		nanosleep(&(struct timespec){ 0, WAIT_NS }, NULL);
		pthread_mutex_lock(&mu);
	}
	if (b != NULL) {
		fill_header(&t->buf->pk, (uint32_t)t->tid, t->dropped, t->taken,
		    TR_PK_EVENTS, t->n);
		enqueue(t->buf, 0);
		take(t, b);
	} else {
		t->dropped += begins(t->ev, t->n);
	}
	__atomic_store_n(&t->n, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&mu);
}

/*
 * A stack for the fatal-signal handler, for a thread the program gave
 * none: after a stack overflow there is no room for the handler on the
 * thread's own.  One the program sets later replaces it.
 */
#define ALT_SIZE	(64 * 1024)

static NOINST void *
altstack_on(void)
{
	stack_t cur, ss = { .ss_size = ALT_SIZE };

	if (sigaltstack(NULL, &cur) != 0 || !(cur.ss_flags & SS_DISABLE))
		return NULL;
	ss.ss_sp = mmap(NULL, ALT_SIZE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ss.ss_sp == MAP_FAILED)
		return NULL;
	if (sigaltstack(&ss, NULL) != 0) {
		munmap(ss.ss_sp, ALT_SIZE);
		return NULL;
	}
	return ss.ss_sp;
}

static NOINST void
altstack_off(void *sp)
{
	stack_t cur, off = { .ss_flags = SS_DISABLE };

	if (sp == NULL)
		return;
	if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == sp)
		sigaltstack(&off, NULL);
	munmap(sp, ALT_SIZE);
}

static NOINST void
thread_gone(void *arg)
{
	struct thr *t = arg;

	if (t->n > 0)
		handoff(t);
	pthread_mutex_lock(&mu);
	t->dead = 1;
	if (t->buf && !stopping) {
		tr_free_push(shm, buf_index(t->buf));
		t->buf = NULL;
		t->ev = NULL;
	}
	pthread_mutex_unlock(&mu);
	altstack_off(t->alt);
	t->alt = NULL;
	me = NULL;
}

static NOINST struct thr *
thread_new(void)
{
	struct thr *t = calloc(1, sizeof *t);

	if (t == NULL)
		return NULL;
	struct tr_bufhdr *b = buf_get();

	if (b == NULL) {
		free(t);
		return NULL;
	}
	take(t, b);
	t->alt = altstack_on();
	t->fast_n = clockmode == TR_CLOCK_TSC ? EV_PER_BUF : 0;
	t->min_ticks = min_ticks;
	pthread_mutex_lock(&mu);
	t->base = (uint64_t)++nslots << 40;
	t->tid = (pid_t)syscall(SYS_gettid);
	t->next = threads;
	threads = t;
	pthread_mutex_unlock(&mu);
	pthread_setspecific(key, t);
	me = t;
	return t;
}

/*
 * The hot path.  An event goes straight in when the thread is set up,
 * its buffer has room and the clock is plain rdtsc (fast()); otherwise a
 * function out of line gets things ready first.  Keeping every call off
 * the fast path spares it saving registers.  Fields are read into locals
 * before the event is written: stores through the event pointer might
 * alias the thread's fields as far as the compiler knows.
 */
static inline NOINST int
fast(const struct thr *t)
{
	return __builtin_expect(t != NULL && t->n < t->fast_n, 1);
}

/* This thread, with room for k slots; NULL when not recording. */
static __attribute__((noinline)) NOINST struct thr *
ready_for(uint32_t k)
{
	struct thr *t = me;

	if (t == NULL && (!__atomic_load_n(&tr_recording, __ATOMIC_RELAXED) ||
	    (t = thread_new()) == NULL))
		return NULL;
	if (t->n + k > EV_PER_BUF)
		handoff(t);
	return t;
}

static NOINST struct thr *
ready(void)
{
	return ready_for(1);
}

static inline NOINST uint64_t
put_begin(struct thr *t, uint64_t ts, uint64_t name, unsigned kind, uint64_t parent)
{
	uint32_t n = t->n;
	struct tr_ev *e = &t->ev[n];
	uint64_t seq = t->seq + 1, id = t->base | seq;

	t->seq = seq;
	e->ts = ts;
	e->name = name;
	e->id = id | (uint64_t)kind << 62;
	e->parent = parent;
	__atomic_store_n(&t->n, n + 1, __ATOMIC_RELEASE);
	return id;
}

static inline NOINST void
put_end(struct thr *t, uint64_t ts, uint64_t id)
{
	uint32_t n = t->n;
	struct tr_ev *e = &t->ev[n];

	/* An end's name and parent are not read: left as they were. */
	e->ts = ts;
	e->id = id;
	__atomic_store_n(&t->n, n + 1, __ATOMIC_RELEASE);
}

static inline NOINST tr_span
begin_at(struct thr *t, uint64_t ts, const char *name, tr_span parent)
{
	tr_span s;

	s.outer = t->cur;
	s.id = put_begin(t, ts, (uintptr_t)(name ? name : "?"), TR_BEGIN_STR,
	    parent.id ? parent.id : s.outer);
	t->cur = s.id;
	return s;
}

static inline NOINST void
end_at(struct thr *t, uint64_t ts, tr_span s)
{
	put_end(t, ts, s.id);
	if (t->cur == s.id)
		t->cur = s.outer;
}

static inline NOINST void
enter_at(struct thr *t, uint64_t ts, void *fn)
{
	uint32_t d = t->depth;

	t->depth = d + 1;
	if (__builtin_expect(d < FN_DEPTH, 1)) {
		uint64_t cur = t->cur, id = put_begin(t, ts, (uintptr_t)fn, TR_BEGIN_FN, cur);

		t->stack[d][0] = id;
		t->stack[d][1] = cur;
		t->cur = id;
	}
}

/*
 * A function's span shorter than min_ticks whose begin is still the
 * buffer's last event (nothing recorded inside it, no buffer handed off
 * since) is taken back rather than ended, as uftrace's time filter does:
 * a short function then costs no buffer space and no work in
 * trace-record, which drops every other short span itself.  It is
 * counted (taken, sent in every packet's header and the process's total
 * in BYE), and trace-record adds the count to the spans it filtered.
 * Its number is reused: no event can name it, since a function's span
 * id never leaves the library and its children would come after it.
 * Spans of tr_begin are never taken back here: their id may be another
 * thread's parent, and that child would lose its place in the tree.
 */
static inline NOINST void
exit_at(struct thr *t, uint64_t ts)
{
	uint32_t d = --t->depth;

	if (__builtin_expect(d < FN_DEPTH, 1)) {
		uint64_t id = t->stack[d][0], outer = t->stack[d][1];
		uint32_t n = t->n;

		t->cur = outer;
		if (n > 0 && ts - t->ev[n - 1].ts < t->min_ticks &&
		    t->ev[n - 1].id == (id | (uint64_t)TR_BEGIN_FN << 62)) {
			t->seq = (id & ((UINT64_C(1) << 40) - 1)) - 1;
			/* Relaxed: finish and on_fatal read it from other threads. */
			__atomic_store_n(&t->taken, t->taken + 1, __ATOMIC_RELAXED);
			__atomic_store_n(&t->n, n - 1, __ATOMIC_RELEASE);
			return;
		}
		put_end(t, ts, id);
	}
}

static __attribute__((noinline)) NOINST tr_span
begin_slow(const char *name, tr_span parent)
{
	tr_span none = { 0, 0 };
	struct thr *t = ready();

	return t ? begin_at(t, now(), name, parent) : none;
}

static __attribute__((noinline)) NOINST void
end_slow(tr_span s)
{
	struct thr *t = ready();

	if (t)
		end_at(t, now(), s);
}

static __attribute__((noinline)) NOINST void
enter_slow(void *fn)
{
	struct thr *t = ready();

	if (t)
		enter_at(t, now(), fn);
}

static __attribute__((noinline)) NOINST void
exit_slow(void)
{
	struct thr *t = ready();

	if (t)
		exit_at(t, now());
}

NOINST tr_span
tr_begin_slow(const char *name, tr_span parent)
{
	struct thr *t = me;

	if (!fast(t))
		return begin_slow(name, parent);
	return begin_at(t, fast_now(), name, parent);
}

NOINST void
tr_end_slow(tr_span s)
{
	struct thr *t = me;

	if (!fast(t))
		end_slow(s);
	else
		end_at(t, fast_now(), s);
}

/*
 * Notes.  A property needs no clock, so it takes the fast path whenever
 * the buffer has room, whatever the clock; the value is copied into the
 * slots after the note (proto.h), and n is stored once all are written,
 * so that a crash handler never sends a note without its bytes.
 */
static inline NOINST void
put_note(struct thr *t, uint32_t k, uint64_t ts, const char *name, uint64_t id,
    uint64_t type)
{
	uint32_t n = t->n;
	struct tr_ev *e = &t->ev[n];

	e->ts = ts;
	e->name = (uintptr_t)(name ? name : "?");
	e->id = id | (uint64_t)TR_NOTE << 62;
	e->parent = type;
	__atomic_store_n(&t->n, n + k, __ATOMIC_RELEASE);
}

NOINST void
tr_prop_slow(tr_span s, const char *pkey, const char *value)
{
	size_t len = value ? strnlen(value, TR_VALUE_MAX) : 0;
	uint32_t k = 1 + (uint32_t)((len + 31) / 32);
	struct thr *t = me;

	if ((t == NULL || t->n + k > EV_PER_BUF) && (t = ready_for(k)) == NULL)
		return;
	if (len)
		memcpy(&t->ev[t->n + 1], value, len);
	put_note(t, k, 0, pkey, s.id, TR_NOTE_STR | (uint64_t)len << 8);
}

NOINST void
tr_prop_int_slow(tr_span s, const char *pkey, int64_t value)
{
	struct thr *t = me;

	if ((t == NULL || t->n + 1 > EV_PER_BUF) && (t = ready()) == NULL)
		return;
	put_note(t, 1, (uint64_t)value, pkey, s.id, TR_NOTE_INT);
}

static __attribute__((noinline)) NOINST void
event_slow(const char *name)
{
	struct thr *t = ready();

	if (t && t->cur)
		put_note(t, 1, now(), name, t->cur, TR_NOTE_EVENT);
}

NOINST void
tr_event_slow(const char *name)
{
	struct thr *t = me;

	if (!fast(t))
		event_slow(name);
	else if (t->cur)
		put_note(t, 1, fast_now(), name, t->cur, TR_NOTE_EVENT);
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
	struct thr *t = me;

	(void)site;
	if (!fast(t)) {
		if (t || __atomic_load_n(&tr_recording, __ATOMIC_RELAXED))
			enter_slow(fn);
	} else
		enter_at(t, fast_now(), fn);
}

void
__cyg_profile_func_exit(void *fn, void *site)
{
	struct thr *t = me;

	(void)fn;
	(void)site;
	if (t == NULL || t->depth == 0)
		return;
	if (!fast(t))
		exit_slow();
	else
		exit_at(t, fast_now());
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

/* The names ev's events use: from's count of events, in packets with
 * from's thread and counts. */
static NOINST void
send_names(const struct tr_ev *ev, const struct tr_pk *from, int in_signal)
{
	/* The handler has its own: it may interrupt the writer mid-packet. */
	static char wbuf[TR_PACKET_MAX], sbuf[TR_PACKET_MAX];
	char *pk = in_signal ? sbuf : wbuf;
	struct tr_pk *h = (struct tr_pk *)pk;
	size_t used = sizeof *h;
	uint32_t count = 0, i, n = from->count;
	uint64_t last = 0;
	char tmp[64];

	for (i = 0; i < n; i += tr_ev_slots(ev[i].id, ev[i].parent)) {
		const struct tr_ev *e = &ev[i];
		unsigned kind = TR_KIND(e->id);
		const char *s;
		size_t len, need;

		if (kind == TR_END || e->name == last || (!in_signal && name_seen(e->name)))
			continue;
		last = e->name;
		if (kind != TR_BEGIN_FN) {
			s = (const char *)(uintptr_t)e->name;
		} else if (in_signal || (s = selfsym_lookup((uintptr_t)e->name)) == NULL) {
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
			*h = *from;
			h->kind = TR_PK_NAMES;
			h->count = count;
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
		*h = *from;
		h->kind = TR_PK_NAMES;
		h->count = count;
		send_all(pk, used);
	}
}

/*
 * The names buffer b's events use, then the packet that points at it,
 * whose header is h (TR_PK_EVENTS, its count of events), read once.
 */
static NOINST int
announce(struct tr_bufhdr *b, const struct tr_pk *h, uint32_t keep, int in_signal)
{
	char pk[sizeof(struct tr_pk) + sizeof(struct tr_ref)];
	struct tr_ref ref = { buf_index(b), keep };
	struct tr_pk head = *h;

	send_names(TR_BUF_EV(b), &head, in_signal);
	memcpy(pk, &head, sizeof head);
	memcpy(pk + sizeof head, &ref, sizeof ref);
	return send_all(pk, sizeof pk);
}

/*
 * The writer looks at the queue every millisecond, or sooner when told to
 * stop, rather than being woken for each buffer: a thread waking it would
 * pay for a futex call, and the scheduler tends to run the woken writer
 * on the waker's CPU, in the traced program's way.  Idle, it looks less
 * often, up to every 8 ms.
 */
static NOINST void *
write_loop(void *arg)
{
	long idle_ns = 1000000;

	(void)arg;
	for (;;) {
		struct tr_bufhdr *b, *next;
		struct timespec until;

		pthread_mutex_lock(&mu);
		if ((queue == NULL || TEST_HOLD()) && !stopping) {
			clock_gettime(CLOCK_MONOTONIC, &until);
			until.tv_nsec += idle_ns;
			if (until.tv_nsec >= 1000000000) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&wake, &mu, &until);
		}
		if (TEST_HOLD()) {
			pthread_mutex_unlock(&mu);
			continue;
		}
		idle_ns = queue ? 1000000 : idle_ns < 8000000 ? idle_ns * 2 : idle_ns;
		b = queue;
		/* In this order: a handler that finds the queue empty finds
		 * the batch here. */
		__atomic_store_n(&sending, b, __ATOMIC_RELEASE);
		__atomic_store_n(&queue, NULL, __ATOMIC_RELEASE);
		qlast = NULL;
		int done = stopping && b == NULL;
		pthread_mutex_unlock(&mu);
		if (done)
			return NULL;
		TEST_NEVER_SEND(b);
		for (; b; b = next) {
			next = b->next ? TR_BUF(shm, b->next - 1) : NULL;
			if (announce(b, &b->pk, b->pad, 0) < 0)
				__atomic_store_n(&tr_recording, 0, __ATOMIC_RELAXED);	/* reader gone */
			__atomic_store_n(&sending, next, __ATOMIC_RELEASE);
		}
	}
}

static NOINST void
send_simple(uint32_t kind, const void *body, size_t len)
{
	char pk[sizeof(struct tr_pk) + sizeof(struct tr_hello)];
	fill_header((struct tr_pk *)pk, (uint32_t)pid, 0, 0, kind, len ? 1 : 0);
	memcpy(pk + sizeof(struct tr_pk), body, len);
	send_all(pk, sizeof(struct tr_pk) + len);
}

/*
 * At exit: the queue, then every thread's events so far (in buffers
 * trace-record keeps: a thread still running may write on), then BYE
 * with the process's totals: a thread that ended with its buffer empty
 * sent its last counts nowhere else.
 */
static NOINST void
finish(void)
{
	struct thr *t;

	if (!tr_recording || getpid() != pid)
		return;
	__atomic_store_n(&tr_recording, 0, __ATOMIC_RELAXED);
	pthread_mutex_lock(&mu);
	for (t = threads; t; t = t->next) {
		uint32_t n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

		if (t->dead || n == 0 || t->buf == NULL)
			continue;
		fill_header(&t->buf->pk, (uint32_t)t->tid, t->dropped,
		    __atomic_load_n(&t->taken, __ATOMIC_RELAXED), TR_PK_EVENTS, n);
		enqueue(t->buf, 1);
	}
	stopping = 1;
	pthread_cond_signal(&wake);
	pthread_mutex_unlock(&mu);
	pthread_join(writer, NULL);

	struct tr_bye bye = { 0, 0 };

	for (t = threads; t; t = t->next) {
		bye.dropped += t->dropped;
		bye.taken += __atomic_load_n(&t->taken, __ATOMIC_RELAXED);
	}
	send_simple(TR_PK_BYE, &bye, sizeof bye);
}

/*
 * A fatal signal: send what every thread has made, unlocked and without
 * allocating (duplicates of packets the writer is sending are dropped by
 * trace-record), then die of the signal as the program would have.
 *
 * The queue is read before the writer's batch, which the writer takes
 * from it under the mutex, setting `sending` first: read the other way
 * round, a writer taking the queue between the two reads left both
 * empty, and a batch it had not sent when the process died was lost
 * (the 'crash' test's spans, under load).  The batch goes first: its
 * buffers are older, and trace-record ignores a begin numbered below
 * one it has.
 *
 * The writer's batch not yet announced and the queue are walked while
 * the writer may be announcing them, and a buffer trace-record has been
 * told of goes back on the shared free stack, whose links are the same
 * `next`: a walk may wander off its list.  So it takes at most as many
 * steps as there are buffers, stops at a buffer another process filled
 * (or one not whole), and asks trace-record to keep what it names: freed
 * a second time, a buffer would link to itself, which once held this
 * handler in a loop (and left the free stack corrupt for the program's
 * other processes).
 */
static struct sigaction old_act[NSIG];

static NOINST void
announce_list(struct tr_bufhdr *b)
{
	uint32_t steps = 0;

	for (; b && steps++ < shm->nbufs && b->pk.magic == TR_MAGIC &&
	    b->pk.pid == (uint32_t)pid && b->pk.count <= TR_BUF_EVENTS;
	    b = b->next && b->next <= shm->nbufs ? TR_BUF(shm, b->next - 1) : NULL) {
		announce(b, &b->pk, 1, 1);
	}
}

#ifdef TR_TEST_RACE
static NOINST void
test_between_reads(void)
{
	struct timespec ms = { 0, 1000000 };

	__atomic_store_n(&test_crashing, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 5000 && __atomic_load_n(&queue, __ATOMIC_ACQUIRE); i++)
		nanosleep(&ms, NULL);
}
#endif

static NOINST void
on_fatal(int sig)
{
	struct thr *t;

	if (tr_recording && getpid() == pid) {
		tr_recording = 0;
		struct tr_bufhdr *q = __atomic_load_n(&queue, __ATOMIC_ACQUIRE);

		TEST_BETWEEN_READS();
		announce_list(__atomic_load_n(&sending, __ATOMIC_ACQUIRE));
		announce_list(q);
		for (t = threads; t; t = t->next) {
			uint32_t n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

			if (!t->dead && n > 0 && t->buf != NULL) {
				struct tr_pk h;

				fill_header(&h, (uint32_t)t->tid, t->dropped,
				    __atomic_load_n(&t->taken, __ATOMIC_RELAXED), TR_PK_EVENTS, n);
				announce(t->buf, &h, 1, 1);
			}
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

#ifdef HAVE_TSC
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
#endif

__attribute__((constructor)) static NOINST void
tr_init(void)
{
	const char *fd = getenv("TRACE_RECORD_FD"), *clk = getenv("TRACE_RECORD_CLOCK");
	const char *sh = getenv("TRACE_RECORD_SHM");
	struct tr_hello hello;
	struct stat st;
	int type = 0, sig;
	socklen_t len = sizeof type;
	char *end;
	sigset_t all, prev;

	if (fd == NULL || clk == NULL || sh == NULL)
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
	int mfd = (int)strtol(sh, &end, 10);

	if (*end || fstat(mfd, &st) < 0 || st.st_size < TR_SHM_HEAD)
		return;
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);

	if (m == MAP_FAILED)
		return;
	shm = m;
	if (shm->magic != TR_MAGIC ||
	    TR_SHM_HEAD + (uint64_t)shm->nbufs * TR_BUF_SIZE > (uint64_t)st.st_size) {
		munmap(m, (size_t)st.st_size);
		return;
	}
	drop_when_full = (shm->flags & TR_SHM_DROP) != 0;
	min_ticks = shm->min_ticks;
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

	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&wake, &ca);
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
		sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
		sigaction(sig, &sa, NULL);
	}
	__atomic_store_n(&tr_recording, 1, __ATOMIC_RELEASE);
}
