/*
 * sigsample.c: trace-record's half of the signal sampler (sampler.c).
 *
 * The sampler is a shared library built with trace-record and carried
 * inside it (sampler_so.h), so that the one binary works wherever it is
 * copied: it is written to a memory file, and the program is started
 * with LD_PRELOAD naming that file through /proc/PID/fd, which any
 * process of the program can open while trace-record runs.  The ring of
 * sring.h is a second memory file, opened the same way: not inherited,
 * so that a program that closes the descriptors it did not open
 * (Python's subprocess, before exec) has its children sampled too, and
 * the program has no descriptor it did not open.  Reading it is the one consumer's side of the
 * protocol: take published records from tail, zero them, move tail;
 * and skip a record that stays unpublished for STUCK_NS (its writer is
 * taken as dead), or at the end, when no writer is left.
 *
 * The sampler's path goes first in LD_PRELOAD, before the user's value
 * if there is one ("PATH" alone when there is none, "PATH:" when it is
 * empty), so that the sampler can take it out again once loaded and
 * leave the program the user's value exactly; it puts itself back for
 * the programs exec'd while trace-record reads (sampler.c).
 */
#include "sigsample.h"
#include "spawn.h"

#include <elf.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "../lib/err.h"
#include "../libtracerecord/proto.h"
#include "../libtrsample/sring.h"
#include "sampler_so.h"

#define RING_BYTES	(32u << 20)
/* A writer publishes within microseconds: one silent this long is taken
 * as dead (one stopped that long, with SIGSTOP, loses its record). */
#define STUCK_NS	1000000000

struct sigsample {
	int		 ringfd, sofd;
	struct sr_ring	*ring;
	unsigned char	*data;
	char		*preload, *env;
	const struct clockcal *cal;
	unsigned char	*rec;
	size_t		 reccap;
	uint64_t	 tail;		/* ours: the ring's copy is the program's to spoil */
	uint64_t	 period;	/* ns a period, as told to the sampler */
	uint64_t	 stuck;		/* tail unpublished since stuck_at */
	int64_t		 stuck_at;	/* 0: not stuck */
	uint64_t	 sampled_ns;	/* CPU time the samples stand for, and
					 * that of threads ended without one */
	const char	*why_not;	/* why the program cannot load the sampler */
	uint64_t	 unseen_ns;	/* --wall: threads' time neither on the
					 * CPU nor in a timed call */
};

struct sigsample *
sigsample_new(unsigned hz, int unwind, int wall, const struct clockcal *cal)
{
	static const char *modes[] = { "", "tsc", "tscp", "mono" };
	struct sigsample *s = xcalloc(1, sizeof *s);
	const char *old = getenv("LD_PRELOAD");
	const unsigned char *so = wall ? sampler_wall_so : sampler_so;
	size_t nso = wall ? sizeof sampler_wall_so : sizeof sampler_so;

	s->cal = cal;
	s->ringfd = memfd_create("trace-record-samples", MFD_CLOEXEC);
	s->sofd = memfd_create(SIGSAMPLE_SO, MFD_CLOEXEC);
	if (s->ringfd < 0 || s->sofd < 0 ||
	    ftruncate(s->ringfd, (off_t)(SR_HEAD + RING_BYTES)) < 0)
		die(EXIT_SELF, "memory file for samples:");
	for (size_t done = 0; done < nso;) {
		ssize_t w = write(s->sofd, so + done, nso - done);

		if (w <= 0)
			die(EXIT_SELF, "memory file for the sampler:");
		done += (size_t)w;
	}
	s->ring = mmap(NULL, SR_HEAD + RING_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
	    s->ringfd, 0);
	if (s->ring == MAP_FAILED)
		die(EXIT_SELF, "memory file for samples:");
	s->data = (unsigned char *)s->ring + SR_HEAD;
	s->ring->size = RING_BYTES;
	s->ring->period = s->period = 1000000000u / hz;
	s->ring->unwind = (uint64_t)unwind;
	s->ring->magic = SR_MAGIC;
	if (wall) {
		double raw = (double)s->period;

		if (cal->mode != TR_CLOCK_MONO)
			raw *= cal->ticks_per_ns;
		s->ring->wall_period = raw < 1 ? 1 : (uint64_t)raw;
	}
	char path[64], ring[64];
	size_t n = (size_t)snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)getpid(),
	    s->sofd);

	snprintf(ring, sizeof ring, "/proc/%d/fd/%d", (int)getpid(), s->ringfd);
	s->preload = xmalloc(n + (old ? strlen(old) + 2 : 1));
	sprintf(s->preload, "%s%s%s", path, old ? ":" : "", old ? old : "");
	s->env = xmalloc(n + strlen(ring) + 8);
	sprintf(s->env, "%s %s %s", ring, modes[cal->mode & 3], path);
	return s;
}

void
sigsample_alloc(struct sigsample *s, uint64_t interval, int frees)
{
	s->ring->period = s->period = 0;
	s->ring->alloc_interval = interval;
	s->ring->alloc_frees = (uint64_t)frees;
}

/*
 * What an interval of d ns, taken with probability 1 - exp(-d/T) (T the
 * period), stands for: d / (1 - exp(-d/T)), as pprof weighs Go's heap
 * samples.  Short ones are nearly T each, long ones their length.
 */
static uint64_t
offcpu_weight(double d, double t)
{
	double p = -expm1(-d / t), w = p > 0 ? d / p + 0.5 : t;

	/* d comes from the program's memory: a year at most, not an
	 * overflow of the conversion or of a stack's sum. */
	return w < 3.2e16 ? (uint64_t)w : (uint64_t)3.2e16;
}

void
sigsample_child(const struct sigsample *s)
{
	setenv("LD_PRELOAD", s->preload, 1);
	setenv(SR_ENV, s->env, 1);
}

static void
copy_out(const struct sigsample *s, uint64_t at, void *dst, size_t n)
{
	size_t o = (size_t)(at & (RING_BYTES - 1)), first = RING_BYTES - o;

	if (first >= n) {
		memcpy(dst, s->data + o, n);
		memset(s->data + o, 0, n);
	} else {
		memcpy(dst, s->data + o, first);
		memcpy((unsigned char *)dst + first, s->data, n - first);
		memset(s->data + o, 0, first);
		memset(s->data, 0, n - first);
	}
}

/* The trace clock's raw value as Unix-epoch ns, per-CPU offset removed. */
static int64_t
to_ns(const struct clockcal *c, uint64_t raw, uint32_t cpu)
{
	for (int i = 0; cpu != UINT32_MAX && i < c->ncpus; i++)
		if (c->cpu[i] == (int)cpu) {
			raw -= (uint64_t)c->offset[i];
			break;
		}
	return clock_to_ns(c, raw);
}

/* Zero [from, to) for the writers to come. */
static void
clear(struct sigsample *s, uint64_t from, uint64_t to)
{
	for (; from < to; from++)
		s->data[from & (RING_BYTES - 1)] = 0;
}

/*
 * The record at tail is unpublished: how far to skip it, or 0 to wait
 * for its writer.  dead: no writer is left.
 */
static uint64_t
skip_stuck(struct sigsample *s, uint64_t tail, uint64_t head, int dead)
{
	if (!dead) {
		int64_t now = clock_mono();

		if (s->stuck_at == 0 || s->stuck != tail) {
			s->stuck = tail;
			s->stuck_at = now;
			return 0;
		}
		if (now - s->stuck_at < STUCK_NS)
			return 0;
	}
	s->stuck_at = 0;
	uint32_t size = __atomic_load_n((uint32_t *)(void *)(s->data +
	    ((tail + offsetof(struct sr_rec, size)) & (RING_BYTES - 1))), __ATOMIC_RELAXED);

	if (size >= sizeof(struct sr_rec) && size <= RING_BYTES / 4 && !(size & 7) &&
	    size <= head - tail)
		return size;
	return head - tail;	/* not even the header: what follows is lost too */
}

/* Move the published records into r; dead: skip what is unpublished. */
static void
read_ring(struct sigsample *s, struct recs *r, int dead)
{
	uint64_t tail = s->tail;
	uint64_t head = __atomic_load_n(&s->ring->head, __ATOMIC_ACQUIRE);

	/*
	 * head is in the program's memory: one further than the ring holds
	 * (or behind tail) is a stray write, and clearing up to it would
	 * take for ever.  The ring's bytes are dropped once, counted lost.
	 */
	if (head - tail > RING_BYTES) {
		r->lost++;
		memset(s->data, 0, RING_BYTES);
		tail = head;
	}

	while (tail < head) {
		uint32_t len = __atomic_load_n((uint32_t *)(void *)(s->data +
		    (tail & (RING_BYTES - 1))), __ATOMIC_ACQUIRE);
		struct sr_rec h;

		if (len == 0) {
			uint64_t skip = skip_stuck(s, tail, head, dead);

			if (skip == 0)
				break;		/* reserved, not yet written */
			r->lost++;
			clear(s, tail, tail + skip);
			tail += skip;
			continue;
		}
		if (len < sizeof h || len > RING_BYTES / 4 || (len & 7)) {
			/* Not ours to trust: drop everything up to head. */
			r->lost++;
			clear(s, tail, head);
			tail = head;
			break;
		}
		s->rec = xgrow(s->rec, &s->reccap, len, 1);
		copy_out(s, tail, s->rec, len);
		memcpy(&h, s->rec, sizeof h);
		const unsigned char *body = s->rec + sizeof h;
		size_t room = len - sizeof h;
		int64_t t = to_ns(s->cal, h.time, h.cpu);

		if (h.type == SR_SAMPLE && (size_t)h.n * 8 <= room && h.n > 0) {
			struct rec_sample rs = { .period = s->period * h.periods };

			s->sampled_ns += rs.period;
			memcpy(rs.comm, h.comm, sizeof rs.comm);
			rs.comm[15] = '\0';
			recs_sample(r, t, h.pid, h.tid, &rs, NULL,
			    (const uint64_t *)(const void *)body, h.n);
		} else if (h.type == SR_MAPS && h.n <= room) {
			recs_add(r, REC_MAPS, t, h.pid, h.tid, 0, body, h.n);
		} else if (h.type == SR_TASKTIME && h.n == 1 && room >= 8) {
			uint64_t ns;

			memcpy(&ns, body, 8);
			s->sampled_ns += ns;
			recs_add(r, REC_TASKTIME, t, h.pid, h.tid, 0, body, 8);
		} else if (h.type == SR_ALLOC && h.n > 0 &&
		    sizeof(struct sr_alloc) + (size_t)h.n * 8 <= room) {
			struct rec_sample rs = { .kind = REC_ALLOC };
			struct sr_alloc a;

			memcpy(&a, body, sizeof a);
			rs.addr = a.addr;
			rs.size = a.size;
			memcpy(rs.comm, h.comm, sizeof rs.comm);
			rs.comm[15] = '\0';
			recs_sample(r, t, h.pid, h.tid, &rs, NULL,
			    (const uint64_t *)(const void *)(body + sizeof a), h.n);
		} else if (h.type == SR_OFFCPU && h.n > 0 &&
		    sizeof(struct sr_offcpu) + (size_t)h.n * 8 <= room) {
			struct rec_sample rs = { .kind = REC_OFFCPU };
			struct sr_offcpu o;
			double d;

			memcpy(&o, body, sizeof o);
			d = (double)o.blocked;
			if (s->cal->mode != TR_CLOCK_MONO)
				d /= s->cal->ticks_per_ns;
			if (d > 0) {
				rs.period = offcpu_weight(d, (double)s->period);
				memcpy(rs.comm, h.comm, sizeof rs.comm);
				rs.comm[15] = '\0';
				recs_sample(r, t, h.pid, h.tid, &rs, NULL,
				    (const uint64_t *)(const void *)(body + sizeof o), h.n);
			}
		} else if (h.type == SR_WALLTIME && room >= sizeof(struct sr_walltime)) {
			struct sr_walltime w;
			double blocked, life, unseen;

			memcpy(&w, body, sizeof w);
			blocked = (double)w.blocked;
			if (s->cal->mode != TR_CLOCK_MONO)
				blocked /= s->cal->ticks_per_ns;
			/* In doubles: the program's memory, maybe garbage, is
			 * not to overflow; a thread's account is a year at most. */
			life = (double)to_ns(s->cal, w.end, w.endcpu) - (double)t;
			unseen = life - (double)w.cpu_ns - blocked;
			if (unseen > 0)
				s->unseen_ns += unseen < 3.2e16 ? (uint64_t)unseen : (uint64_t)3.2e16;
		} else if (h.type == SR_FREE && h.n == 1 && room >= 8) {
			recs_add(r, REC_FREE, t, h.pid, h.tid, 0, body, 8);
		} else if (h.type == SR_FORK) {
			uint32_t par[2] = { h.tid, h.tid };

			recs_add(r, REC_FORK, t, h.pid, h.pid, 0, par, sizeof par);
		}
		tail += len;
	}
	s->tail = tail;
	__atomic_store_n(&s->ring->tail, tail, __ATOMIC_RELEASE);
}

/* The file execvp would run for prog, or NULL. */
static char *
find_program(const char *prog)
{
	const char *path = getenv("PATH");
	size_t n = strlen(prog);

	if (strchr(prog, '/')) {
		if (access(prog, X_OK) != 0)
			return NULL;
		return strcpy(xmalloc(n + 1), prog);
	}
	if (path == NULL)
		path = "/bin:/usr/bin";
	for (;;) {
		size_t d = strcspn(path, ":");
		char *f = xmalloc(d + n + 3);

		sprintf(f, "%.*s/%s", (int)d, d ? path : ".", prog);
		if (access(f, X_OK) == 0)
			return f;
		free(f);
		if (path[d] == '\0')
			return NULL;
		path += d + 1;
	}
}

/* Whether the ELF file at fd has no PT_INTERP: static, or not ELF64. */
static int
is_static(int fd)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof ph)
		return 0;
	for (unsigned i = 0; i < eh.e_phnum; i++)
		if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + i * sizeof ph)) !=
		    (ssize_t)sizeof ph || ph.p_type == PT_INTERP)
			return 0;
	return 1;
}

const char *
sigsample_check(struct sigsample *s, const char *prog)
{
	char *f = find_program(prog);
	struct stat st;
	struct statvfs vfs;
	int fd;

	if (f == NULL)
		return NULL;
	if ((fd = open(f, O_RDONLY | O_CLOEXEC)) >= 0 && fstat(fd, &st) == 0) {
		int nosuid = fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_NOSUID);

		if (is_static(fd))
			s->why_not = "it is statically linked, and LD_PRELOAD needs the "
			    "dynamic loader";
		else if (!nosuid && (((st.st_mode & S_ISUID) && st.st_uid != getuid()) ||
		    ((st.st_mode & S_ISGID) && st.st_gid != getgid()) ||
		    (getuid() != 0 && fgetxattr(fd, "security.capability", NULL, 0) > 0)))
			s->why_not = "it is set-user-ID, set-group-ID or has file "
			    "capabilities, and the dynamic loader then ignores LD_PRELOAD";
	}
	if (fd >= 0)
		close(fd);
	free(f);
	return s->why_not;
}

void
sigsample_read(struct sigsample *s, struct recs *r)
{
	read_ring(s, r, 0);
}

/* The last of the ring into r, and s freed; the CPU time the samples
 * stand for, and the threads that ended without one used; the time
 * unseen into *unseen unless NULL. */
static uint64_t
finish(struct sigsample *s, struct recs *r, uint64_t *unseen)
{
	uint64_t sampled;

	__atomic_store_n(&s->ring->closed, 1, __ATOMIC_RELEASE);
	/* The program is gone: what is still unpublished never will be. */
	read_ring(s, r, 1);
	r->lost += __atomic_load_n(&s->ring->lost, __ATOMIC_RELAXED);
	sampled = s->sampled_ns;
	if (unseen)
		*unseen = s->unseen_ns;
	munmap(s->ring, SR_HEAD + RING_BYTES);
	close(s->ringfd);
	close(s->sofd);
	free(s->preload);
	free(s->env);
	free(s->rec);
	free(s);
	return sampled;
}

void
sigsample_close(struct sigsample *s, struct recs *r)
{
	finish(s, r, NULL);
}

int
sigsample_end(struct sigsample *s, struct recs *r, int64_t cpu_ns,
    uint64_t *unseen)
{
	uint64_t started = __atomic_load_n(&s->ring->started, __ATOMIC_RELAXED);
	uint64_t blocked = __atomic_load_n(&s->ring->blocked, __ATOMIC_RELAXED);
	uint64_t period = s->period;
	const char *why_not = s->why_not;
	int why = 0;

	uint64_t sampled_ns = finish(s, r, unseen);

	if (blocked) {
		warn_msg("%llu thread%s of the program blocked SIGRTMAX, the sampler's "
		    "signal, and %s not sampled while %s did", (unsigned long long)blocked,
		    blocked > 1 ? "s" : "", blocked > 1 ? "were" : "was",
		    blocked > 1 ? "they" : "it");
		why = 1;
	}
	if (started == 0) {
		warn_msg("the sampler was loaded into no process of the program: %s",
		    why_not ? why_not : "LD_PRELOAD was not honoured (a static or "
		    "set-user-ID program?), or the environment was replaced");
		why = 1;
	} else if (period && cpu_ns >= 20 * (int64_t)period &&
	    (uint64_t)cpu_ns > 2 * sampled_ns) {
		/*
		 * What the sampler could not see: a signal blocked with the
		 * system call, programs run by system or popen, ...  The
		 * program's CPU time counts its children that were waited for.
		 */
		warn_msg("the program used %.2f s of CPU, its samples stand for %.2f s: "
		    "threads or processes were not sampled (see BUGS in trace-record(1))",
		    cpu_ns / 1e9, sampled_ns / 1e9);
		why = 1;
	}
	return why && r->samples == 0;
}
