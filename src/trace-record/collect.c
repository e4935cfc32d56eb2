/*
 * collect.c: pair begin and end events into spans, and write them.
 *
 * Spans are kept in one array.  An id is a thread slot and a sequence
 * number that grows by one per begin, so each (process, slot) has dense
 * tables from sequence to span: an end finds its begin, and a span its
 * parent, with one array access and no hashing (a hash over millions of
 * spans spent its time waiting on cache misses).  The numbers a thread
 * skips (spans it dropped) start a new table, a run, from the next one
 * received, so memory follows the spans received, never the numbers: all
 * of it was written by the program, and one buffer of made-up numbers
 * once sized tables of a terabyte.  Processes, (process, slot) pairs and
 * threads are found through hashes of their keys (struct index), which
 * the program picks too.  Names are found by (process, address) in a
 * hash.  A begin whose sequence is not above the thread's highest (a
 * packet sent again by a crash handler while the writer was sending it)
 * is ignored, as is an end seen twice; an end whose begin never came
 * (its buffer was dropped) is counted.
 *
 * While the program runs, a buffer's events are only copied out of the
 * shared memory, so that the buffer goes back to the program at once and
 * trace-record takes as little CPU as it can from a program it shares
 * the machine with; they are paired when the program is done.  The copy
 * is packed: each field as a varint of its difference from the event
 * before (a span's begin and end take some 14 bytes instead of 64).
 * Fresh memory costs a page fault per 4 KiB, and at 64 bytes a span the
 * faults alone were slower than the program making the events.  Nothing is
 * written before the program ends: the output is sorted by start time,
 * ids are renumbered 1, 2, ... in that order, so ids are unique across
 * processes and the file is the same whatever order packets came in.
 *
 * Properties and events (notes) are kept apart with their span's id as
 * made, and written after their span's line once every begin is in: the
 * span of a property set from another thread may come later.
 *
 * The record-time filters (spanfilter.c's rules) are applied once every
 * span is paired, before ids are given: a dropped span takes no id, and
 * its children's parent becomes its nearest kept ancestor.  The spans
 * the program took back as they ended (never sent) are counted filtered
 * too, from the counts its packets carry (thread_counts).
 */
#include "collect.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../lib/err.h"
#include "../lib/num.h"
#include "../lib/out.h"
#include "../lib/sort.h"
#include "../lib/spans.h"
#include "../libtracerecord/proto.h"
#include "spanfilter.h"

/* A span as collected: clock ticks, ids as the program made them. */
struct cspan {
	uint64_t	id, parent, start, end, name;
	uint32_t	out;		/* output id */
	uint32_t	pid, tid;
	uint8_t		ended, kind;
	uint8_t		cut;		/* dropped by a filter */
};

/* A property or event (proto.h's notes), until the spans are written. */
struct cnote {
	uint64_t	id, key;	/* the span's id as made; key or name */
	uint64_t	val;		/* an event's clock value, an integer */
	size_t		off;		/* a string's bytes in collect.text */
	uint32_t	pid, type, len;
	uint32_t	out;		/* its span's output id; 0: none came */
	size_t		seq;		/* order of arrival */
};

struct name {
	uint64_t	key;
	uint32_t	pid;
	uint32_t	len;
	char		*text;		/* as the program sent it, NUL added */
	uint8_t		match;		/* NAME_MATCHED | spanfilter_name's */
};

#define NAME_MATCHED	0x80

struct proc {
	uint32_t	pid, ppid, clock;
	int		hello, bye, gone;
	uint64_t	dropped_bye, taken_bye, last;
	char		exe[256];
};

/* Sequence numbers base, base + 1, ... of one (process, slot). */
struct seqrun {
	uint64_t	base, begins;
	uint32_t	*span;		/* by seq - base: span index + 1, 0 none */
	size_t		len, cap;
};

struct seqtab {
	uint32_t	pid, slot;
	uint64_t	maxseq;
	struct seqrun	*runs;		/* by base, ascending */
	size_t		nruns, caprun;
};

/* A key's position in an array: open addressing, at most half full. */
struct index {
	uint64_t	*key;
	uint32_t	*pos;		/* position + 1; 0: empty */
	size_t		 n, cap;
};

/* A thread's counts, the highest its packets said (tr_pk's). */
struct thrdrop {
	uint32_t	pid, tid;
	uint64_t	dropped, taken;
};

/* One buffer's events, packed; blocks of RAW_BLOCK bytes hold them. */
struct raw {
	unsigned char	*data;
	uint32_t	 pid, tid, count;
	uint64_t	 dropped, taken;
	unsigned char	*block;		/* the block it is in */
};

#define RAW_BLOCK	(16u << 20)
/* A packed event: a tag byte, then up to four 10-byte varints. */
#define PACKED_MAX	41
enum { TAG_KIND = 3, TAG_ROOT = 4 };

struct collect {
	struct cspan	*spans;
	size_t		 nspans, capspans;
	struct seqtab	*tabs;
	size_t		 ntabs, captabs, lasttab;
	struct index	 procidx, tabidx, dropidx;
	struct name	*names;
	size_t		 nnames, capnames;
	struct proc	*procs;
	size_t		 nprocs, capprocs;
	struct thrdrop	*drops;
	size_t		 ndrops, capdrops;
	struct tr_shm	*shm;		/* the buffers events are read from */
	uint32_t	 nbufs;
	struct raw	*raws;
	size_t		 nraws, capraws;
	unsigned char	*block;		/* the block being filled */
	size_t		 blockused;
	struct cnote	*notes;
	size_t		 nnotes, capnotes;
	char		*text;		/* string values */
	size_t		 ntext, captext;
	uint64_t	 dup, orphan_ends, open, dropped, clamped, wild;
	uint64_t	 lost_notes;
	int		 samples;	/* samples follow the spans: revision 3 */
	uint64_t	 max_spans;	/* --max-spans, 0: no bound */
	uint64_t	 over;		/* begins past it */
	const struct spanfilter *filter;	/* NULL: every span written */
	uint64_t	 filtered, cut_notes;
	size_t		 nout;		/* spans written */
};

static uint64_t
mix(uint64_t a, uint64_t b)
{
	uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;

	return h ^ (h >> 29);
}

struct collect *
collect_new(struct tr_shm *shm, uint32_t nbufs, uint64_t max_spans)
{
	struct collect *c = xcalloc(1, sizeof(struct collect));

	c->shm = shm;
	c->nbufs = nbufs;
	c->max_spans = max_spans;
	return c;
}

/* xgrow, from one element rather than sixteen: most threads have one
 * run, and a table per (process, slot) is what made-up slots multiply. */
static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (*cap == 0) {
		p = xmalloc(size);
		*cap = 1;
	}
	return xgrow(p, cap, need, size);
}

#define NONE	SIZE_MAX

/*
 * key's position in x's array.  If it has none, NONE; or, when add is
 * not NONE, it is given add (the caller puts it there).
 */
static size_t
index_get(struct index *x, uint64_t key, size_t add)
{
	size_t j;

	if (add != NONE && (x->n + 1) * 2 > x->cap) {
		size_t ncap = x->cap ? x->cap * 2 : 64;
		uint64_t *k = xcalloc(ncap, sizeof *k);
		uint32_t *p = xcalloc(ncap, sizeof *p);

		for (size_t i = 0; i < x->cap; i++)
			if (x->pos[i]) {
				for (j = mix(x->key[i], 0) & (ncap - 1); p[j]; j = (j + 1) & (ncap - 1))
					;
				k[j] = x->key[i];
				p[j] = x->pos[i];
			}
		free(x->key);
		free(x->pos);
		x->key = k;
		x->pos = p;
		x->cap = ncap;
	}
	if (x->cap == 0)
		return NONE;
	for (j = mix(key, 0) & (x->cap - 1); x->pos[j]; j = (j + 1) & (x->cap - 1))
		if (x->key[j] == key)
			return x->pos[j] - 1;
	if (add == NONE)
		return NONE;
	x->key[j] = key;
	x->pos[j] = (uint32_t)add + 1;
	x->n++;
	return add;
}

static void
index_free(struct index *x)
{
	free(x->key);
	free(x->pos);
}

static struct proc *
proc_get(struct collect *c, uint32_t pid)
{
	size_t i = index_get(&c->procidx, pid, c->nprocs);

	if (i == c->nprocs) {
		c->procs = xgrow(c->procs, &c->capprocs, c->nprocs + 1, sizeof *c->procs);
		memset(&c->procs[c->nprocs], 0, sizeof *c->procs);
		c->procs[c->nprocs++].pid = pid;
	}
	return &c->procs[i];
}

#define SEQ_MASK	((UINT64_C(1) << 40) - 1)

/* The sequence table of (pid, the slot in id); NULL if never seen. */
static struct seqtab *
tab_find(struct collect *c, uint32_t pid, uint64_t id, int create)
{
	uint32_t slot = (uint32_t)(id >> 40);
	struct seqtab *t;

	if (c->lasttab < c->ntabs && c->tabs[c->lasttab].pid == pid &&
	    c->tabs[c->lasttab].slot == slot)
		return &c->tabs[c->lasttab];
	size_t i = index_get(&c->tabidx, (uint64_t)pid << 32 | slot,
	    create ? c->ntabs : NONE);

	if (i == NONE)
		return NULL;
	c->lasttab = i;
	if (i < c->ntabs)
		return &c->tabs[i];
	c->tabs = xgrow(c->tabs, &c->captabs, c->ntabs + 1, sizeof *c->tabs);
	t = &c->tabs[c->ntabs++];
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->slot = slot;
	return t;
}

/* Where (pid, id)'s span index + 1 is kept, or NULL. */
static uint32_t *
seq_slot(struct collect *c, uint32_t pid, uint64_t id)
{
	struct seqtab *t = tab_find(c, pid, id, 0);
	uint64_t seq = id & SEQ_MASK;
	size_t lo = 0, hi;

	if (t == NULL || t->nruns == 0)
		return NULL;
	hi = t->nruns;
	/* Mostly the last run; else the last whose base is not above seq. */
	if (seq < t->runs[hi - 1].base)
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (t->runs[mid].base <= seq)
				lo = mid;
			else
				hi = mid;
		}
	else
		lo = hi - 1;
	const struct seqrun *r = &t->runs[lo];

	if (seq < r->base || seq - r->base >= r->len)
		return NULL;
	return &r->span[seq - r->base];
}

/*
 * A run's numbers are at least half received, but for RUN_SLACK: a
 * begin further on starts a run.
 */
#define RUN_SLACK	64

/* Where the span of a begin numbered seq, above t's highest, is to be kept. */
static uint32_t *
seq_add(struct seqtab *t, uint64_t seq)
{
	struct seqrun *r = t->nruns ? &t->runs[t->nruns - 1] : NULL;

	if (r == NULL || seq - r->base >= 2 * r->begins + RUN_SLACK) {
		t->runs = grow(t->runs, &t->caprun, t->nruns + 1, sizeof *t->runs);
		r = &t->runs[t->nruns++];
		memset(r, 0, sizeof *r);
		r->base = seq;
	}
	size_t at = (size_t)(seq - r->base), old = r->cap;

	if (at >= r->cap) {
		r->span = grow(r->span, &r->cap, at + 1, sizeof *r->span);
		memset(r->span + old, 0, (r->cap - old) * sizeof *r->span);
	}
	r->len = at + 1;
	r->begins++;
	return &r->span[at];
}

static const struct name *
name_get(const struct collect *c, uint32_t pid, uint64_t key)
{
	if (c->capnames == 0)
		return NULL;
	for (size_t j = mix(pid, key) & (c->capnames - 1); c->names[j].text;
	    j = (j + 1) & (c->capnames - 1))
		if (c->names[j].pid == pid && c->names[j].key == key)
			return &c->names[j];
	return NULL;
}

static void
name_put(struct collect *c, uint32_t pid, uint64_t key, const char *s, size_t len)
{
	if ((c->nnames + 1) * 2 > c->capnames) {
		size_t ncap = c->capnames ? c->capnames * 2 : 1024;
		struct name *n = xcalloc(ncap, sizeof *n);

		for (size_t i = 0; i < c->capnames; i++)
			if (c->names[i].text) {
				size_t j = mix(c->names[i].pid, c->names[i].key) & (ncap - 1);

				while (n[j].text)
					j = (j + 1) & (ncap - 1);
				n[j] = c->names[i];
			}
		free(c->names);
		c->names = n;
		c->capnames = ncap;
	}
	size_t j = mix(pid, key) & (c->capnames - 1);

	for (; c->names[j].text; j = (j + 1) & (c->capnames - 1))
		if (c->names[j].pid == pid && c->names[j].key == key)
			return;
	c->names[j].pid = pid;
	c->names[j].key = key;
	c->names[j].text = xmalloc(len + 1);
	memcpy(c->names[j].text, s, len);
	c->names[j].text[len] = '\0';
	c->names[j].len = (uint32_t)len;
	c->nnames++;
}

static void
drop_note(struct collect *c, uint32_t pid, uint32_t tid, uint64_t dropped,
    uint64_t taken)
{
	size_t i = index_get(&c->dropidx, (uint64_t)pid << 32 | tid, c->ndrops);

	if (i < c->ndrops) {
		if (dropped > c->drops[i].dropped)
			c->drops[i].dropped = dropped;
		if (taken > c->drops[i].taken)
			c->drops[i].taken = taken;
		return;
	}
	c->drops = xgrow(c->drops, &c->capdrops, c->ndrops + 1, sizeof *c->drops);
	c->drops[c->ndrops++] = (struct thrdrop){ pid, tid, dropped, taken };
}

static void
event(struct collect *c, struct proc *pr, uint32_t tid, const struct tr_ev *e,
    uint64_t dropped)
{
	uint64_t id = TR_ID(e->id);
	unsigned kind = TR_KIND(e->id);
	uint32_t *slot;

	if (e->ts > pr->last)
		pr->last = e->ts;
	if (kind == TR_END) {
		slot = seq_slot(c, pr->pid, id);
		if (slot == NULL || *slot == 0)
			c->orphan_ends += c->over == 0;	/* past the bound: expected */
		else if (c->spans[*slot - 1].ended)
			c->dup++;
		else {
			c->spans[*slot - 1].end = e->ts;
			c->spans[*slot - 1].ended = 1;
		}
		return;
	}
	struct seqtab *t = tab_find(c, pr->pid, id, 1);
	uint64_t seq = id & SEQ_MASK;

	if (seq <= t->maxseq) {
		c->dup++;
		return;
	}
	/* Past the buffer's events and the begins the thread says it
	 * dropped: memory the program scribbled on. */
	if (seq - t->maxseq > TR_BUF_EVENTS && seq - t->maxseq - TR_BUF_EVENTS > dropped) {
		c->wild++;
		return;
	}
	t->maxseq = seq;
	if (c->max_spans && c->nspans >= c->max_spans) {
		c->over++;
		return;
	}
	slot = seq_add(t, seq);
	c->spans = xgrow(c->spans, &c->capspans, c->nspans + 1, sizeof *c->spans);
	struct cspan *s = &c->spans[c->nspans];

	memset(s, 0, sizeof *s);
	s->id = id;
	s->parent = e->parent;
	s->start = e->ts;
	s->name = e->name;
	s->pid = pr->pid;
	s->tid = tid;
	s->kind = (uint8_t)kind;
	*slot = (uint32_t)++c->nspans;
}

static unsigned char *
put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

/* The difference b - a, zigzag-encoded so that small negatives stay small. */
static uint64_t
zigzag(uint64_t a, uint64_t b)
{
	uint64_t d = b - a;

	return (d << 1) ^ (uint64_t)-(int64_t)(d >> 63);
}

static const unsigned char *
get_varint(const unsigned char *p, uint64_t *v)
{
	uint64_t x = 0;

	for (int sh = 0; sh < 64; sh += 7) {
		x |= (uint64_t)(*p & 0x7f) << sh;
		if (!(*p++ & 0x80))
			break;
	}
	*v = x;
	return p;
}

static uint64_t
unzigzag(uint64_t a, uint64_t z)
{
	return a + ((z >> 1) ^ (uint64_t)-(int64_t)(z & 1));
}

/* A packed copy of one buffer's events, paired when the program is done. */
static void
keep(struct collect *c, const struct tr_pk *h, const struct tr_ev *ev)
{
	size_t most = (size_t)h->count * PACKED_MAX;
	uint64_t ts = 0, id = 0, name = 0;

	if (h->count == 0)
		return;
	if (c->block == NULL || c->blockused + most > RAW_BLOCK) {
		c->block = mmap(NULL, RAW_BLOCK, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (c->block == MAP_FAILED)
			die(EXIT_INPUT, "out of memory");
		c->blockused = 0;
	}
	unsigned char *start = c->block + c->blockused, *p = start;
	uint32_t packed = 0;

	for (uint32_t i = 0; i < h->count; packed++) {
		/* Read once: the program may be writing there (it owns the buffer). */
		struct tr_ev e;
		unsigned kind;

		memcpy(&e, &ev[i], sizeof e);
		kind = TR_KIND(e.id);
		e.id = TR_ID(e.id);
		if (kind == TR_NOTE) {
			uint32_t k = tr_ev_slots(e.id | (uint64_t)kind << 62, e.parent);
			uint64_t len = k > 1 ? TR_NOTE_LEN(e.parent) : 0;

			if (k > h->count - i) {
				c->wild++;	/* a string past the buffer's events */
				break;
			}
			if (len > TR_VALUE_MAX)
				len = TR_VALUE_MAX;
			*p++ = (unsigned char)kind;
			p = put_varint(p, zigzag(ts, e.ts));
			if (TR_NOTE_TYPE(e.parent) == TR_NOTE_EVENT)
				ts = e.ts;
			p = put_varint(p, zigzag(id, e.id));
			id = e.id;
			p = put_varint(p, zigzag(name, e.name));
			name = e.name;
			p = put_varint(p, TR_NOTE_TYPE(e.parent) | len << 8);
			memcpy(p, &ev[i + 1], (size_t)len);
			p += len;
			i += k;
			continue;
		}
		i++;
		*p++ = (unsigned char)(kind | (kind != TR_END && e.parent == 0 ? TAG_ROOT : 0));
		p = put_varint(p, zigzag(ts, e.ts));
		p = put_varint(p, zigzag(id, e.id));
		ts = e.ts;
		if (kind != TR_END) {
			p = put_varint(p, zigzag(name, e.name));
			name = e.name;
			if (e.parent)
				p = put_varint(p, zigzag(e.parent, e.id));
		}
		id = e.id;
	}
	c->raws = xgrow(c->raws, &c->capraws, c->nraws + 1, sizeof *c->raws);
	c->raws[c->nraws++] = (struct raw){ start, h->pid, h->tid, packed,
	    h->dropped, h->taken, c->block };
	c->blockused += (size_t)(p - start);
}

/* A note, kept to be written after its span; bytes: a string's. */
static void
note(struct collect *c, uint32_t pid, uint64_t id, uint64_t key, uint64_t val,
    uint64_t type, const unsigned char *bytes)
{
	struct cnote *n;
	size_t len = (size_t)TR_NOTE_LEN(type);

	c->notes = xgrow(c->notes, &c->capnotes, c->nnotes + 1, sizeof *c->notes);
	n = &c->notes[c->nnotes];
	memset(n, 0, sizeof *n);
	n->id = id;
	n->key = key;
	n->val = val;
	n->pid = pid;
	n->type = TR_NOTE_TYPE(type);
	n->seq = c->nnotes++;
	if (n->type == TR_NOTE_STR) {
		c->text = xgrow(c->text, &c->captext, c->ntext + len + 1, 1);
		memcpy(c->text + c->ntext, bytes, len);
		n->off = c->ntext;
		n->len = (uint32_t)len;
		c->ntext += len;
	}
}

/* Unpack and pair the events kept, in the order they came, freeing as we go. */
static void
pair_all(struct collect *c)
{
	for (size_t i = 0; i < c->nraws; i++) {
		struct raw *r = &c->raws[i];
		struct proc *pr = proc_get(c, r->pid);
		const unsigned char *p = r->data;
		uint64_t ts = 0, id = 0, name = 0, z;

		drop_note(c, r->pid, r->tid, r->dropped, r->taken);
		for (uint32_t k = 0; k < r->count; k++) {
			struct tr_ev e = { 0, 0, 0, 0 };
			unsigned tag = *p++, kind = tag & TAG_KIND;

			p = get_varint(p, &z);
			e.ts = unzigzag(ts, z);
			p = get_varint(p, &z);
			id = unzigzag(id, z);
			if (kind == TR_NOTE) {
				p = get_varint(p, &z);
				name = unzigzag(name, z);
				p = get_varint(p, &z);
				if (TR_NOTE_TYPE(z) == TR_NOTE_EVENT)
					ts = e.ts;
				note(c, r->pid, id, name, e.ts, z, p);
				p += TR_NOTE_LEN(z);
				continue;
			}
			ts = e.ts;
			if (kind != TR_END) {
				p = get_varint(p, &z);
				name = e.name = unzigzag(name, z);
				if (!(tag & TAG_ROOT)) {
					p = get_varint(p, &z);
					e.parent = id - unzigzag(0, z);
				}
			}
			e.id = id | (uint64_t)kind << 62;
			event(c, pr, r->tid, &e, r->dropped);
		}
		if (i + 1 == c->nraws || c->raws[i + 1].block != r->block)
			munmap(r->block, RAW_BLOCK);
	}
	c->nraws = 0;
	c->block = NULL;
}

const char *
collect_packet(struct collect *c, const unsigned char *p, size_t n)
{
	struct tr_pk h;
	struct proc *pr;

	if (n < sizeof h)
		return "packet shorter than its header";
	memcpy(&h, p, sizeof h);
	p += sizeof h;
	n -= sizeof h;
	if (h.magic != TR_MAGIC)
		return "packet with a bad magic number";
	pr = proc_get(c, h.pid);
	switch (h.kind) {
	case TR_PK_HELLO: {
		struct tr_hello hello;

		if (n != sizeof hello)
			return "hello packet of the wrong size";
		memcpy(&hello, p, sizeof hello);
		/* A pid seen gone may be a new process's. */
		pr->hello = 1;
		pr->gone = 0;
		pr->ppid = hello.ppid;
		pr->clock = hello.clock;
		memcpy(pr->exe, hello.exe, sizeof pr->exe);
		pr->exe[sizeof pr->exe - 1] = '\0';
		return NULL;
	}
	case TR_PK_NAMES:
		for (uint32_t i = 0; i < h.count; i++) {
			struct tr_name nm;
			size_t pad;

			if (n < sizeof nm)
				return "names packet cut short";
			memcpy(&nm, p, sizeof nm);
			pad = ((size_t)nm.len + 7) & ~(size_t)7;
			if (nm.len > 4096 || n - sizeof nm < pad)
				return "names packet cut short";
			name_put(c, h.pid, nm.key, (const char *)p + sizeof nm, nm.len);
			p += sizeof nm + pad;
			n -= sizeof nm + pad;
		}
		return NULL;
	case TR_PK_EVENTS: {
		struct tr_ref ref;

		if (n != sizeof ref)
			return "events packet of the wrong size";
		memcpy(&ref, p, sizeof ref);
		if (ref.buf >= c->nbufs || h.count > TR_BUF_EVENTS)
			return "events packet naming no buffer";
		keep(c, &h, TR_BUF_EV(TR_BUF(c->shm, ref.buf)));
		if (!ref.keep)
			tr_free_push(c->shm, ref.buf);
		return NULL;
	}
	case TR_PK_BYE: {
		struct tr_bye bye;

		if (n == sizeof bye) {
			memcpy(&bye, p, sizeof bye);
			pr->dropped_bye = bye.dropped;
			pr->taken_bye = bye.taken;
		}
		pr->bye = 1;
		return NULL;
	}
	default:
		return "packet of an unknown kind";
	}
}

int
collect_recording(struct collect *c)
{
	for (size_t i = 0; i < c->nprocs; i++) {
		struct proc *pr = &c->procs[i];

		if (!pr->hello || pr->bye || pr->gone)
			continue;
		/* Its pid is its word: no process group, no -1. */
		if (pr->pid > 1 && pr->pid <= INT_MAX &&
		    (kill((pid_t)pr->pid, 0) == 0 || errno == EPERM))
			return 1;
		pr->gone = 1;
	}
	return 0;
}

static int
by_start(const void *a, const void *b, const void *ctx)
{
	const struct cspan *spans = ctx;
	const struct cspan *x = &spans[*(const uint32_t *)a],
	    *y = &spans[*(const uint32_t *)b];

	/* Raw values of one clock (offsets already applied) compare as times. */
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int
by_out(const void *a, const void *b)
{
	const struct cnote *x = a, *y = b;

	if (x->out != y->out)
		return x->out < y->out ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Each note's span, by its output id, and the notes sorted by it (in the
 * order made within a span); a note whose span never came (dropped) is
 * counted and not written.  Resolved only now: a property set on another
 * thread's span may come before the span's begin.
 */
static void
notes_resolve(struct collect *c)
{
	for (size_t i = 0; i < c->nnotes; i++) {
		struct cnote *n = &c->notes[i];
		uint32_t *slot = seq_slot(c, n->pid, n->id);

		n->out = slot && *slot ? c->spans[*slot - 1].out : 0;
		if (slot && *slot && c->spans[*slot - 1].cut)
			c->cut_notes++;		/* gone with its span */
		else if (n->out == 0 || n->type > TR_NOTE_STR)
			c->lost_notes++;
	}
	if (c->nnotes > 1)
		qsort(c->notes, c->nnotes, sizeof *c->notes, by_out);
}

/* The note n of span s as a line. */
static void
note_put(const struct collect *c, const struct cnote *n, const struct cspan *s,
    const struct clockcal *cal)
{
	static const enum spans_note_kind kinds[] = { [TR_NOTE_EVENT] = SPANS_EVENT,
	    [TR_NOTE_INT] = SPANS_PROP_INT, [TR_NOTE_STR] = SPANS_PROP };
	struct spans_note sn = { .kind = kinds[n->type], .id = n->out };
	const struct name *nm = name_get(c, s->pid, n->key);

	sn.key = nm ? nm->text : "?";
	sn.nkey = nm ? nm->len : 1;
	if (n->type == TR_NOTE_EVENT)
		sn.num = clock_to_ns(cal, n->val);
	else if (n->type == TR_NOTE_INT)
		sn.num = (int64_t)n->val;
	else {
		sn.val = c->text + n->off;
		sn.nval = n->len;
	}
	spans_put_note(&sn);
}

/* A span's parent as written (its output id), or 0. */
static uint64_t
parent_out(struct collect *c, const struct cspan *s)
{
	uint32_t *slot = s->parent ? seq_slot(c, s->pid, s->parent) : NULL;

	return slot && *slot ? c->spans[*slot - 1].out : 0;
}

/* A span's start and end on the trace's clock (an open one's end: the
 * last its process recorded). */
static void
span_times(struct collect *c, const struct clockcal *cal, const struct cspan *s,
    int64_t *start, int64_t *end)
{
	*start = clock_to_ns(cal, s->start);
	*end = clock_to_ns(cal, s->ended ? s->end : proc_get(c, s->pid)->last);
}

/* The span index of s's parent as received, or NONE. */
static size_t
parent_index(struct collect *c, const struct cspan *s)
{
	uint32_t *slot = s->parent ? seq_slot(c, s->pid, s->parent) : NULL;

	return slot && *slot ? *slot - 1 : NONE;
}

/* What s's name matches, matched once per name. */
static unsigned
name_match(struct collect *c, const struct cspan *s)
{
	struct name *nm = (struct name *)name_get(c, s->pid, s->name);
	char addr[3 + 16 + 1];

	if (nm == NULL) {
		snprintf(addr, sizeof addr, "0x%" PRIx64, s->name);
		return spanfilter_name(c->filter, addr);
	}
	if (!nm->match)
		nm->match = (uint8_t)(NAME_MATCHED | spanfilter_name(c->filter, nm->text));
	return nm->match & ~NAME_MATCHED;
}

/*
 * Mark every span kept or cut, and make each span's parent its nearest
 * kept ancestor.  A parent is marked before its children: from each span
 * not yet marked, up its chain of unmarked ancestors, then down it.  A
 * chain that comes back on itself (ids the program scribbled on) is cut
 * there: that span is a root.
 */
static void
filter_spans(struct collect *c, const struct clockcal *cal)
{
	enum { UNMARKED, ON_CHAIN, MARKED };
	size_t n = c->nspans ? c->nspans : 1;
	struct spanfilter_mark *mark = xcalloc(n, sizeof *mark);
	uint8_t *state = xcalloc(n, 1);
	uint32_t *chain = xcalloc(n, sizeof *chain);

	for (size_t i = 0; i < c->nspans; i++) {
		size_t top = 0, j = i;

		while (j != NONE && state[j] == UNMARKED) {
			state[j] = ON_CHAIN;
			chain[top++] = (uint32_t)j;
			j = parent_index(c, &c->spans[j]);
		}
		while (top > 0) {
			size_t k = chain[--top], p = parent_index(c, &c->spans[k]);
			struct cspan *s = &c->spans[k];
			const struct spanfilter_mark *pm = NULL;
			int64_t start, end;

			if (p != NONE && state[p] == MARKED) {
				pm = &mark[p];
				if (!(pm->bits & SPANFILTER_KEPT))
					s->parent = c->spans[p].parent;
			} else if (p != NONE) {
				s->parent = 0;
			}
			span_times(c, cal, s, &start, &end);
			s->cut = !spanfilter_mark(c->filter, pm, name_match(c, s),
			    end > start ? (uint64_t)(end - start) : 0, s->ended, &mark[k]);
			c->filtered += s->cut;
			state[k] = MARKED;
		}
	}
	free(mark);
	free(state);
	free(chain);
}

/* a + b, or UINT64_MAX past it. */
static uint64_t
add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/*
 * The program's own counts into dropped and filtered: each thread's
 * last (its packets' counts only grow), and what a process's totals in
 * its bye packet add to its threads' (a thread whose buffer was empty at
 * the end sent its last counts nowhere else).  A process with no bye
 * (killed) counts to its threads' last packets.  The counts are the
 * program's: sums saturate, where made-up ones would wrap round to a
 * small number, and each thread is summed once.
 */
static void
thread_counts(struct collect *c)
{
	struct { uint64_t dropped, taken; } *sum = xcalloc(c->nprocs ? c->nprocs : 1,
	    sizeof *sum);
	uint64_t taken = 0;

	for (size_t i = 0; i < c->ndrops; i++) {
		const struct thrdrop *d = &c->drops[i];
		size_t p = index_get(&c->procidx, d->pid, NONE);

		c->dropped = add_sat(c->dropped, d->dropped);
		taken = add_sat(taken, d->taken);
		if (p != NONE) {
			sum[p].dropped = add_sat(sum[p].dropped, d->dropped);
			sum[p].taken = add_sat(sum[p].taken, d->taken);
		}
	}
	for (size_t i = 0; i < c->nprocs; i++) {
		const struct proc *pr = &c->procs[i];

		if (!pr->bye)
			continue;
		if (pr->dropped_bye > sum[i].dropped)
			c->dropped = add_sat(c->dropped, pr->dropped_bye - sum[i].dropped);
		if (pr->taken_bye > sum[i].taken)
			taken = add_sat(taken, pr->taken_bye - sum[i].taken);
	}
	c->dropped = add_sat(c->dropped, c->over);
	c->filtered = add_sat(c->filtered, taken);
	free(sum);
}

void
collect_filter(struct collect *c, const struct spanfilter *f)
{
	c->filter = spanfilter_active(f) ? f : NULL;
}

void
collect_with_samples(struct collect *c)
{
	c->samples = 1;
}

size_t
collect_spans(struct collect *c, const struct clockcal *cal,
    struct collect_span **v)
{
	struct collect_span *w = xcalloc(c->nspans ? c->nspans : 1, sizeof *w);

	/* by output id: w[id - 1] */
	for (size_t i = 0; i < c->nspans; i++) {
		const struct cspan *s = &c->spans[i];
		struct collect_span *x = &w[s->out - 1];

		if (s->cut)
			continue;

		x->id = s->out;
		x->parent = parent_out(c, s);
		x->tid = s->tid;
		span_times(c, cal, s, &x->start, &x->end);
	}
	*v = w;
	return c->nout;
}

void
collect_write(struct collect *c, const struct clockcal *cal, char **argv,
    uint64_t bad_packets, int64_t elapsed)
{
	size_t i;
	static const char *modes[] = { "", "tsc", "tscp", "mono" };

	pair_all(c);
	if (c->filter)
		filter_spans(c, cal);
	/* Sort indexes, not the spans; output ids are ranks. */
	uint32_t *order = xcalloc(c->nspans ? c->nspans : 1, sizeof *order);

	c->nout = 0;
	for (i = 0; i < c->nspans; i++)
		if (!c->spans[i].cut) {
			order[c->nout++] = (uint32_t)i;
			c->open += !c->spans[i].ended;
		}
	/* One thread's spans come in start order: often no sort at all. */
	for (i = 1; i < c->nout; i++)
		if (by_start(&order[i - 1], &order[i], c->spans) > 0)
			break;
	if (i < c->nout)
		sort_ctx(order, c->nout, sizeof *order, by_start, c->spans);
	for (i = 0; i < c->nout; i++)
		c->spans[order[i]].out = i + 1;
	notes_resolve(c);
	thread_counts(c);

	out_str(c->samples ? "# spans v1\n" SPANS_REVISION3_LINE "\n# command:" :
	    c->nnotes ? "# spans v1\n" SPANS_REVISION_LINE "\n# command:" :
	    "# spans v1\n# command:");
	for (; argv && *argv; argv++) {
		out_char(' ');
		spans_put_escaped(*argv, strlen(*argv));
	}
	out_fmt("\n# clock: %s (", modes[cal->mode]);
	spans_put_escaped(cal->why, strlen(cal->why));
	out_str(")\n");
	if (cal->mode != TR_CLOCK_MONO) {
		out_fmt("# tsc-ticks-per-ns: %.9f (", cal->ticks_per_ns);
		spans_put_escaped(cal->source, strlen(cal->source));
		out_str(")\n");
		out_str("# cpu-offsets:");
		for (int k = 0; k < cal->ncpus; k++)
			out_fmt(" %d:%lld", cal->cpu[k], (long long)cal->offset[k]);
		out_char('\n');
	}
	for (i = 0; i < c->nprocs; i++) {
		const struct proc *pr = &c->procs[i];

		/* The program's path is its own: escaped, or a newline in it
		 * would start a span line. */
		out_fmt("# process: %" PRIu32 " parent %" PRIu32 " ", pr->pid, pr->ppid);
		if (pr->exe[0])
			spans_put_escaped(pr->exe, strlen(pr->exe));
		else
			out_char('?');
		out_str(pr->bye ? "\n" : " (ended without flushing: crashed or killed)\n");
	}
	if (elapsed >= 0)
		out_fmt("# elapsed-ns: %lld\n", (long long)elapsed);
	out_fmt("# spans: %zu\n# open: %" PRIu64 "\n# dropped: %" PRIu64 "\n",
	    c->nout, c->open, c->dropped);
	if (c->filter) {
		out_str("# filters: ");
		spans_put_escaped(c->filter->given, strlen(c->filter->given));
		out_fmt("\n# filtered: %" PRIu64 "\n", c->filtered);
	}
	if (c->orphan_ends)
		out_fmt("# ends-without-begin: %" PRIu64 "\n", c->orphan_ends);
	if (bad_packets)
		out_fmt("# bad-packets: %" PRIu64 "\n", bad_packets);
	if (c->wild)
		out_fmt("# bad-events: %" PRIu64 "\n", c->wild);
	if (c->lost_notes)
		out_fmt("# notes-without-span: %" PRIu64 "\n", c->lost_notes);
	out_str("# ID\tPARENT\tSTART_NS\tDURATION_NS\tTRACK\tNAME\n");
	const struct name *nm = NULL;
	size_t ni = 0;

	/* Notes of no span sort first. */
	while (ni < c->nnotes && c->notes[ni].out == 0)
		ni++;
	for (i = 0; i < c->nout; i++) {
		const struct cspan *s = &c->spans[order[i]];
		struct spans_rec rec = { .id = s->out, .open = !s->ended };
		char track[5 + NUM_U64_MAX], addr[3 + 16];

		if (nm == NULL || nm->pid != s->pid || nm->key != s->name)
			nm = name_get(c, s->pid, s->name);
		int64_t start, end;

		rec.parent = parent_out(c, s);
		span_times(c, cal, s, &start, &end);
		rec.start = start;
		/* Unsigned: times the program made up may be far apart. */
		rec.dur = (uint64_t)end - (uint64_t)start;
		if (end < start) {
			/* Two CPUs' clocks within the noise bound, a short
			 * span, a migration: never a negative duration. */
			rec.dur = 0;
			c->clamped++;
		}
		memcpy(track, "tid:", 4);
		rec.track = track;
		rec.ntrack = 4 + num_fmt_u64(track + 4, s->tid);
		if (nm) {
			rec.name = nm->text;
			rec.nname = nm->len;
		} else {
			/* No name came (the process died first): the address. */
			rec.name = addr;
			rec.nname = (size_t)snprintf(addr, sizeof addr, "0x%" PRIx64,
			    s->name);
		}
		spans_put(&rec, 0);
		for (; ni < c->nnotes && c->notes[ni].out == s->out; ni++)
			if (c->notes[ni].type <= TR_NOTE_STR)
				note_put(c, &c->notes[ni], s, cal);
	}
	free(order);
	/* Known only now: at the end, where the spans' readers skip it. */
	if (c->clamped)
		out_fmt("# clamped-to-zero: %" PRIu64 "\n", c->clamped);
}

void
collect_free(struct collect *c)
{
	for (size_t i = 0; i < c->capnames; i++)
		free(c->names[i].text);
	free(c->names);
	free(c->spans);
	for (size_t i = 0; i < c->ntabs; i++) {
		for (size_t j = 0; j < c->tabs[i].nruns; j++)
			free(c->tabs[i].runs[j].span);
		free(c->tabs[i].runs);
	}
	free(c->tabs);
	index_free(&c->procidx);
	index_free(&c->tabidx);
	index_free(&c->dropidx);
	free(c->procs);
	free(c->drops);
	free(c->raws);
	free(c->notes);
	free(c->text);
	free(c);
}

uint64_t
collect_dropped(const struct collect *c)
{
	return c->dropped;
}
