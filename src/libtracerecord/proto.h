/*
 * proto.h: what libtracerecord sends to trace-record.
 *
 * trace-record passes the traced program two file descriptors: a
 * SOCK_SEQPACKET socket ($TRACE_RECORD_FD) and a shared memory file
 * ($TRACE_RECORD_SHM, a memfd).  Events are written into buffers in the
 * shared memory and never copied on their way: a thread fills a buffer,
 * a packet on the socket says which buffer holds how many events,
 * trace-record reads them in place and puts the buffer back on the
 * shared free list, from which any recording process takes its next one.
 * Every process that links the library and inherits the variables
 * (children, exec'd programs) sends its own stream of packets on the
 * socket; a packet is one message, so packets of several processes never
 * interleave, and each names its process and thread.
 *
 * A packet is a struct tr_pk header and then `count` records:
 *   TR_PK_HELLO   one struct tr_hello (a process starts recording);
 *   TR_PK_NAMES   names: struct tr_name, then len bytes, padded to 8;
 *   TR_PK_EVENTS  one struct tr_ref: `count` events of one thread, in the
 *                 order made, are in that shared buffer;
 *   TR_PK_BYE     one struct tr_bye: the process ended recording cleanly.
 * A process sends the names its events use before the events.  Events
 * hold raw clock values (see clock modes); trace-record converts them.
 *
 * The shared memory is a struct tr_shm page, then `nbufs` buffers of
 * TR_BUF_SIZE.  Buffers never handed out are taken by advancing `cursor`;
 * used ones are on a lock-free stack (`head`: a tag in the high 32 bits
 * against ABA, buffer index + 1 in the low, 0 for empty; each buffer's
 * `next` links the stack).  Everything in it is written by the traced
 * program, so trace-record checks every index and count it reads.
 *
 * An event is a span's begin or end, or a note on a span.  The top two
 * bits of id say which; a begin's name is the address of a static string
 * (TR_BEGIN_STR) or of a function (TR_BEGIN_FN, from
 * -finstrument-functions).  Ids are unique within a process: the
 * thread's slot in bits 40-61, then a sequence.
 *
 * A note (TR_NOTE: tr_prop, tr_prop_int, tr_event) names its span in id
 * and its key or event name (a static string) in name; parent holds its
 * type in the low 8 bits and, for a string, its length above them.  ts
 * is an event's time or an integer's value.  A string's bytes follow in
 * the next slots, 32 bytes a slot, in the same buffer: copied into the
 * buffer, not into memory of their own, because a value must outlive the
 * call and the thread must not allocate or lock to record one.
 */
#ifndef TR_PROTO_H
#define TR_PROTO_H

#include <stdint.h>

#define TR_MAGIC	0x33525254u	/* "TRR3" */
#define TR_PACKET_MAX	(64 * 1024)
#define TR_BUF_SIZE	(64 * 1024)
#define TR_SHM_HEAD	4096		/* struct tr_shm's page */
#define TR_BUF_EVENTS	((TR_BUF_SIZE - sizeof(struct tr_bufhdr)) / sizeof(struct tr_ev))

enum { TR_PK_HELLO = 1, TR_PK_NAMES, TR_PK_EVENTS, TR_PK_BYE };
enum { TR_END = 0, TR_BEGIN_STR = 1, TR_BEGIN_FN = 2, TR_NOTE = 3 };
enum { TR_NOTE_EVENT = 0, TR_NOTE_INT = 1, TR_NOTE_STR = 2 };
/* The longest string value kept; longer ones are cut there. */
#define TR_VALUE_MAX	1024
enum { TR_CLOCK_TSC = 1, TR_CLOCK_TSCP, TR_CLOCK_MONO };

#define TR_KIND(id)	((unsigned)((id) >> 62))
#define TR_ID(id)	((id) & ((UINT64_C(1) << 62) - 1))

struct tr_pk {
	uint32_t	magic;
	uint32_t	kind;
	uint32_t	pid;
	uint32_t	tid;
	uint64_t	dropped;	/* spans this thread dropped so far */
	uint64_t	taken;		/* spans it took back so far (tr_shm) */
	uint32_t	count;
	uint32_t	pad;
};

struct tr_hello {
	uint32_t	ppid;
	uint32_t	clock;		/* TR_CLOCK_* the process reads */
	char		exe[256];	/* its program, NUL-terminated */
};

/* TR_PK_BYE's body: the totals of tr_pk's counts over every thread. */
struct tr_bye {
	uint64_t	dropped;
	uint64_t	taken;
};

struct tr_name {
	uint64_t	key;		/* the address the events carry */
	uint32_t	len;
	uint32_t	pad;
};

struct tr_ev {
	uint64_t	ts;
	uint64_t	name;		/* begin: name's address; end: unused */
	uint64_t	id;		/* kind in the top two bits */
	uint64_t	parent;		/* begin: parent id or 0; end: unused */
};

#define TR_NOTE_TYPE(p)	((unsigned)((p) & 0xff))
#define TR_NOTE_LEN(p)	((p) >> 8)

/*
 * The slots the event at e takes: 1, and a string's bytes.  Read from
 * memory the program writes: a length past TR_VALUE_MAX counts as the
 * most a string may take, and the caller checks against its count.
 */
static inline __attribute__((no_instrument_function)) uint32_t
tr_ev_slots(uint64_t id, uint64_t parent)
{
	uint64_t len = TR_NOTE_LEN(parent);

	if (TR_KIND(id) != TR_NOTE || TR_NOTE_TYPE(parent) != TR_NOTE_STR)
		return 1;
	return 1 + (uint32_t)(((len > TR_VALUE_MAX ? TR_VALUE_MAX : len) + 31) / 32);
}

/* TR_PK_EVENTS's body. */
struct tr_ref {
	uint32_t	buf;		/* index of the shared buffer */
	uint32_t	keep;		/* 1: trace-record must not reuse it */
};

struct tr_shm {
	uint32_t	magic;
	uint32_t	nbufs;
	uint64_t	cursor;		/* buffers handed out so far (atomic) */
	uint64_t	head;		/* free stack (atomic) */
	uint32_t	flags;		/* TR_SHM_*, set before the program starts */
	uint32_t	pad;
	/* Set before the program starts: a function's span shorter than
	 * this many clock ticks, with nothing recorded inside it, is taken
	 * back from the buffer as it ends (--min-duration); 0: never. */
	uint64_t	min_ticks;
};

/* With no buffer free, drop the thread's events rather than wait. */
#define TR_SHM_DROP	1u

/* A shared buffer: this, then TR_BUF_EVENTS events. */
struct tr_bufhdr {
	uint32_t	next;		/* free stack or local queue: index + 1 */
	uint32_t	pad;
	struct tr_pk	pk;		/* the packet that will name it */
};

/* The address of buffer i. */
#define TR_BUF(base, i) \
	((struct tr_bufhdr *)((char *)(base) + TR_SHM_HEAD + (size_t)(i) * TR_BUF_SIZE))
#define TR_BUF_EV(b)	((struct tr_ev *)((b) + 1))

/* Put buffer i on the shared free stack. */
static inline __attribute__((no_instrument_function)) void
tr_free_push(struct tr_shm *shm, uint32_t i)
{
	uint64_t old = __atomic_load_n(&shm->head, __ATOMIC_ACQUIRE), new;

	do {
		__atomic_store_n(&TR_BUF(shm, i)->next, (uint32_t)old, __ATOMIC_RELAXED);
		new = ((old >> 32) + 1) << 32 | (i + 1);
	} while (!__atomic_compare_exchange_n(&shm->head, &old, new, 1,
	    __ATOMIC_RELEASE, __ATOMIC_ACQUIRE));
}

/*
 * A buffer from the free stack, else one never used; -1 when all are in
 * use.  A `next` read from a buffer another process took meanwhile is
 * harmless: the tag has moved, so the exchange fails and we read again.
 */
static inline __attribute__((no_instrument_function)) int64_t
tr_free_pop(struct tr_shm *shm)
{
	uint64_t old = __atomic_load_n(&shm->head, __ATOMIC_ACQUIRE), new;

	while ((uint32_t)old != 0) {
		uint32_t i = (uint32_t)old - 1;

		if (i >= shm->nbufs)
			return -1;	/* a corrupt stack: take no buffer */
		new = ((old >> 32) + 1) << 32 |
		    __atomic_load_n(&TR_BUF(shm, i)->next, __ATOMIC_RELAXED);
		if (__atomic_compare_exchange_n(&shm->head, &old, new, 1,
		    __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
			return i;
	}
	if (__atomic_load_n(&shm->cursor, __ATOMIC_RELAXED) >= shm->nbufs)
		return -1;
	uint64_t c = __atomic_fetch_add(&shm->cursor, 1, __ATOMIC_RELAXED);

	return c < shm->nbufs ? (int64_t)c : -1;
}

#endif
