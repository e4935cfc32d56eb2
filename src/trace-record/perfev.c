/*
 * perfev.c: stack samples from perf_event_open(2), without libperf.
 *
 * One software cpu-clock event per CPU for the target (the kernel does
 * not let an inherited per-task event be mapped, so perf record does
 * the same), with inherit set so that the target's new threads and
 * children are followed.  Each fires every 1/hz s of CPU time the task
 * uses and writes a sample record (TID, TIME, CPU, PERIOD and the
 * frame-pointer call chain) into a ring mapped from the first event on
 * its CPU; the other events of that CPU are pointed at the same ring.
 * With --call-graph=dwarf the kernel walks only its own part of the
 * stack; for the program's part each sample carries the user registers
 * CFI rules read (the general ones and rip) and a copy of the stack's
 * top, of which only the part in use (the kernel's dyn_size) is kept.
 * mmap, comm and task records come along so that addresses can be named
 * later: MMAP for each executable mapping, COMM on exec and on renames,
 * FORK for each new thread and process, which count the threads too
 * short to be sampled (a new thread's first sample comes after a whole
 * period of its own CPU time).  Not inherit_stat, whose READ records
 * would give each one's CPU time: with it, one CPU's event stopped
 * writing partway through a run of 400 short threads here, in one run
 * of four (a quarter of its FORK, EXIT and READ records gone, with no
 * LOST record), and its samples with them.  With --wall a second event per CPU, the
 * context-switches one at period 1, samples the stack of each thread as
 * it leaves the CPU, and with context_switch the kernel writes a SWITCH
 * record at each switch out (saying whether the thread was preempted,
 * so still runnable) and in: report.c times each blocked interval from
 * them.  Its samples are told from cpu-clock's by their period, 1 (a
 * cpu-clock period is at least 10 us: -F is at most 100000).  Times are
 * CLOCK_MONOTONIC
 * (use_clockid), shifted onto the trace's clock by to_real.  LOST
 * records, written when a ring is full, are summed into the count of
 * lost samples.
 */
#include "perfev.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../lib/err.h"

#define RING_PAGES	128		/* data pages per CPU: 512 KiB */
/* With dwarf stacks a sample is up to 8 KiB, 64 of them fill 512 KiB:
 * 4 MiB where the locked-memory limit allows (root, or a raised
 * perf_event_mlock_kb), else the 512 KiB every user may have. */
#define RING_PAGES_DWARF 1024

/* perf's x86-64 register numbers (asm/perf_regs.h) sampled for CFI, in
 * the order the kernel writes them, and each one's DWARF number. */
#define REGS_MASK	0xff01ffull	/* ax bx cx dx si di bp sp ip, r8-r15 */
static const unsigned char dwarf_reg[17] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 8, 9, 10, 11, 12, 13, 14, 15,
};

struct ring {
	int		 fd, cpu;
	unsigned char	*base;		/* the control page, then data */
	unsigned char	*data;
	size_t		 size;		/* data bytes */
};

struct perfev {
	struct ring	*rings;
	int		 nrings;
	int		*fds;
	size_t		 nfds, fdcap;
	int		 callchain;
	int64_t		 to_real;
	size_t		 page, pages;	/* page size; data pages per ring */
	unsigned char	*rec;		/* one record, unwrapped */
	size_t		 reccap;
	size_t		 ntasks, missed;	/* tasks asked for, and not (wholly) had */
	int		 misserr;
	int		 wall;		/* --wall: context-switch samples too */
};

static int
open_event(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Attach fd to this CPU's ring, mapping the ring if it is the first. */
static int
ring_join(struct perfev *pe, int fd, int cpu)
{
	for (int i = 0; i < pe->nrings; i++)
		if (pe->rings[i].cpu == cpu)
			return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, pe->rings[i].fd);
	size_t len = (pe->pages + 1) * pe->page;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (m == MAP_FAILED && pe->pages > RING_PAGES && pe->nrings == 0) {
		pe->pages = RING_PAGES;
		len = (pe->pages + 1) * pe->page;
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	}
	if (m == MAP_FAILED)
		return -1;
	pe->rings = xrealloc(pe->rings, (size_t)(pe->nrings + 1) * sizeof *pe->rings);
	pe->rings[pe->nrings++] = (struct ring){ fd, cpu, m,
	    (unsigned char *)m + pe->page, pe->pages * pe->page };
	return 0;
}

/* The tasks to open: pid alone, or each of its threads when attaching. */
static pid_t *
tasks(pid_t pid, int attach, size_t *n)
{
	pid_t *v = xmalloc(sizeof *v);
	char path[64];
	DIR *d;
	struct dirent *e;
	size_t cap = 1;

	*n = 0;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if (!attach || (d = opendir(path)) == NULL) {
		v[(*n)++] = pid;
		return v;
	}
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9') {
			v = xgrow(v, &cap, *n + 1, sizeof *v);
			v[(*n)++] = (pid_t)atoi(e->d_name);
		}
	closedir(d);
	return v;
}

/* Each task on each CPU; a task refused on some CPU is counted missed. */
static int
open_all(struct perfev *pe, struct perf_event_attr *a, const pid_t *t, size_t nt)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int opened = 0, err = 0;

	pe->ntasks = nt;
	for (size_t i = 0; i < nt; i++) {
		int refused = 0;

		for (int cpu = 0; cpu < ncpu; cpu++) {
			int fd = open_event(a, t[i], cpu);

			if (fd < 0) {
				/* An offline CPU, or a thread gone meanwhile. */
				if (errno != ENODEV && errno != ESRCH)
					refused = err = errno;
				continue;
			}
			if (ring_join(pe, fd, cpu) != 0) {
				refused = err = errno;
				close(fd);
				continue;
			}
			pe->fds = xgrow(pe->fds, &pe->fdcap, pe->nfds + 1, sizeof *pe->fds);
			pe->fds[pe->nfds++] = fd;
			opened++;
		}
		if (refused) {
			pe->missed++;
			pe->misserr = refused;
		}
	}
	if (err && opened == 0) {
		errno = err;
		return -1;
	}
	return opened ? 0 : (errno = ESRCH, -1);
}

static void
close_all(struct perfev *pe)
{
	for (int i = 0; i < pe->nrings; i++)
		munmap(pe->rings[i].base, pe->rings[i].size + pe->page);
	for (size_t i = 0; i < pe->nfds; i++)
		close(pe->fds[i]);
	free(pe->rings);
	pe->rings = NULL;
	pe->nrings = 0;
	pe->nfds = 0;
}

/* What perfev_open made, freed, errno kept: NULL. */
static struct perfev *
open_failed(struct perfev *pe, pid_t *t)
{
	int e = errno;

	close_all(pe);
	free(t);
	free(pe->fds);
	free(pe);
	errno = e;
	return NULL;
}

/* --wall: the context-switch event beside a's cpu-clock one, into the
 * same rings; the side-band records come once, from a's. */
static int
open_switches(struct perfev *pe, const struct perf_event_attr *a, const pid_t *t,
    size_t nt)
{
	struct perf_event_attr b = *a;

	b.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	b.sample_period = 1;
	b.mmap = b.comm = b.comm_exec = b.task = 0;
	b.context_switch = 1;
	return open_all(pe, &b, t, nt);
}

struct perfev *
perfev_open(pid_t pid, int attach, unsigned hz, int callchain, unsigned stack,
    int64_t to_real, int wall, int *kernel)
{
	struct perf_event_attr a;
	struct perfev *pe = xcalloc(1, sizeof *pe);
	size_t nt;
	pid_t *t = tasks(pid, attach, &nt);
	int e;

	pe->callchain = callchain;
	pe->to_real = to_real;
	pe->wall = wall;
	pe->page = (size_t)sysconf(_SC_PAGESIZE);
	pe->pages = callchain == CG_DWARF ? RING_PAGES_DWARF : RING_PAGES;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000000000u / hz;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
	    (callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	if (callchain == CG_DWARF) {
		a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a.sample_regs_user = REGS_MASK;
		a.sample_stack_user = stack;
		a.exclude_callchain_user = 1;
	}
	a.disabled = !attach;
	a.enable_on_exec = !attach;
	a.inherit = 1;
	a.mmap = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.task = 1;
	a.sample_id_all = 1;
	a.exclude_hv = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.watermark = 1;
	/* A quarter of the smaller ring: woken in time with either. */
	a.wakeup_watermark = (uint32_t)(RING_PAGES * pe->page / 4);
	*kernel = 1;
	if (open_all(pe, &a, t, nt) != 0) {
		e = errno;
		close_all(pe);
		if (e != EACCES && e != EPERM) {
			free(t);
			free(pe);
			errno = e;
			return NULL;
		}
		/* perf_event_paranoid forbids kernel samples: the program's own. */
		a.exclude_kernel = 1;
		a.exclude_callchain_kernel = 1;
		*kernel = 0;
		if (open_all(pe, &a, t, nt) != 0)
			return open_failed(pe, t);
	}
	if (wall && open_switches(pe, &a, t, nt) != 0)
		return open_failed(pe, t);
	free(t);
	return pe;
}

int
perfev_pollfds(const struct perfev *pe, struct pollfd *p, int max)
{
	int n = 0;

	for (int i = 0; i < pe->nrings && n < max; i++, n++) {
		p[n].fd = pe->rings[i].fd;
		p[n].events = POLLIN;
		p[n].revents = 0;
	}
	return n;
}

static void
copy_out(const struct ring *rg, uint64_t at, void *dst, size_t n)
{
	size_t o = (size_t)(at & (rg->size - 1)), first = rg->size - o;

	if (first >= n) {
		memcpy(dst, rg->data + o, n);
	} else {
		memcpy(dst, rg->data + o, first);
		memcpy((unsigned char *)dst + first, rg->data, n - first);
	}
}

static int64_t
trailer_time(const unsigned char *p, size_t len)
{
	uint64_t t;

	/* sample_id_all: pid, tid; time; cpu, res */
	if (len < sizeof(struct perf_event_header) + 24)
		return 0;
	memcpy(&t, p + len - 16, 8);
	return (int64_t)t;
}

/*
 * The rest of a --call-graph=dwarf sample at q: the user registers, then
 * the stack copy (its size, the bytes, the part in use).  A sample of a
 * kernel thread has neither (abi 0, size 0) and keeps its kernel frames.
 */
static void
dwarf_sample(struct recs *r, int64_t t, const uint32_t *ids, struct rec_sample *s,
    const uint64_t *kern, const unsigned char *q, const unsigned char *end)
{
	struct rec_ustack u;
	uint64_t abi, size, dyn, v;

	memset(&u, 0, sizeof u);
	if (q + 8 > end)
		return;
	memcpy(&abi, q, 8);
	q += 8;
	if (abi != 0) {
		if ((size_t)(end - q) < 8 * sizeof dwarf_reg)
			return;
		for (size_t i = 0; i < sizeof dwarf_reg; i++, q += 8) {
			memcpy(&v, q, 8);
			u.regs[dwarf_reg[i]] = v;
		}
		u.valid = (1u << 17) - 1;
	}
	if (q + 8 > end)
		return;
	memcpy(&size, q, 8);
	q += 8;
	if (size > (uint64_t)(end - q) || (size && (uint64_t)(end - q) - size < 8))
		return;
	dyn = 0;
	if (size)
		memcpy(&dyn, q + size, 8);
	u.len = (uint32_t)(dyn < size ? dyn : size);
	if (abi == 0)
		u.valid = u.len = 0;
	recs_sample_stack(r, t, ids[0], ids[1], s, kern, &u, q);
}

static void
one_record(struct perfev *pe, struct recs *r, const unsigned char *p, size_t len)
{
	struct perf_event_header h;
	const unsigned char *q = p + sizeof h, *end = p + len;
	uint32_t ids[4];
	uint64_t u[4];

	memcpy(&h, p, sizeof h);
	switch (h.type) {
	case PERF_RECORD_SAMPLE: {
		static uint64_t kern[REC_MAX_CHAIN], user[REC_MAX_CHAIN];
		struct rec_sample s;
		uint64_t ip, t, nr;
		uint32_t nk = 0, nu = 0;

		if (len < sizeof h + 40)
			return;
		memcpy(&ip, q, 8);
		memcpy(ids, q + 8, 8);
		memcpy(&t, q + 16, 8);
		memcpy(&s.period, q + 32, 8);
		q += 40;
		memset(s.comm, 0, sizeof s.comm);
		if (!pe->callchain) {
			if ((h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
				kern[nk++] = ip;
			else
				user[nu++] = ip;
		} else {
			int mode = 0;	/* 1 kernel, 2 user, 0 neither */

			if (q + 8 > end)
				return;
			memcpy(&nr, q, 8);
			q += 8;
			for (uint64_t i = 0; i < nr && q + 8 <= end; i++, q += 8) {
				uint64_t a;

				memcpy(&a, q, 8);
				if (a >= (uint64_t)PERF_CONTEXT_MAX) {
					mode = a == (uint64_t)PERF_CONTEXT_KERNEL ? 1 :
					    a == (uint64_t)PERF_CONTEXT_USER ? 2 : 0;
					continue;
				}
				if (mode == 1 && nk < REC_MAX_CHAIN)
					kern[nk++] = a;
				else if (mode == 2 && nu < REC_MAX_CHAIN)
					user[nu++] = a;
			}
		}
		s.nkernel = nk;
		s.kind = pe->wall && s.period == REC_OFFCPU_UNTIMED ? REC_OFFCPU : REC_ONCPU;
		if (pe->callchain == CG_DWARF)
			dwarf_sample(r, (int64_t)t + pe->to_real, ids, &s, kern, q, end);
		else
			recs_sample(r, (int64_t)t + pe->to_real, ids[0], ids[1], &s, kern,
			    user, nu);
		break;
	}
	case PERF_RECORD_MMAP: {
		struct rec_mmap m;

		if (len < sizeof h + 32 + 24)
			return;
		memcpy(ids, q, 8);
		memcpy(&m, q + 8, sizeof m);
		const char *path = (const char *)(q + 32);
		size_t pl = strnlen(path, (size_t)(end - 24 - (q + 32)));
		unsigned char buf[sizeof m + 4097];

		if (pl > 4096)
			return;
		memcpy(buf, &m, sizeof m);
		memcpy(buf + sizeof m, path, pl);
		buf[sizeof m + pl] = '\0';
		recs_add(r, REC_MMAP, trailer_time(p, len) + pe->to_real, ids[0], ids[1],
		    0, buf, sizeof m + pl + 1);
		break;
	}
	case PERF_RECORD_COMM: {
		char c[16];

		if (len < sizeof h + 8 + 24)
			return;
		memcpy(ids, q, 8);
		size_t cl = strnlen((const char *)(q + 8), (size_t)(end - 24 - (q + 8)));

		if (cl > 15)
			cl = 15;
		memcpy(c, q + 8, cl);
		c[cl] = '\0';
		recs_add(r, REC_COMM, trailer_time(p, len) + pe->to_real, ids[0], ids[1],
		    (h.misc & PERF_RECORD_MISC_COMM_EXEC) ? REC_EXEC : 0, c, cl + 1);
		break;
	}
	case PERF_RECORD_FORK: {
		uint32_t par[2];

		if (len < sizeof h + 24)
			return;
		memcpy(ids, q, 16);	/* pid, ppid, tid, ptid */
		memcpy(&u[0], q + 16, 8);
		par[0] = ids[1];
		par[1] = ids[3];
		recs_add(r, REC_FORK, (int64_t)u[0] + pe->to_real, ids[0], ids[2], 0,
		    par, sizeof par);
		break;
	}
	case PERF_RECORD_SWITCH: {
		/* sample_id_all alone: pid, tid; time; cpu, res */
		uint32_t f = (h.misc & PERF_RECORD_MISC_SWITCH_OUT) ? REC_OUT : 0;

		if (len < sizeof h + 24)
			return;
		if (h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			f |= REC_PREEMPT;
		memcpy(ids, end - 24, 8);
		recs_add(r, REC_SWITCH, trailer_time(p, len) + pe->to_real, ids[0], ids[1],
		    f, NULL, 0);
		break;
	}
	case PERF_RECORD_LOST:
		if (len >= sizeof h + 16) {
			memcpy(u, q, 16);
			r->lost += u[1];
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (len >= sizeof h + 8) {
			memcpy(u, q, 8);
			r->lost += u[0];
		}
		break;
	}
}

void
perfev_read(struct perfev *pe, struct recs *r)
{
	for (int i = 0; i < pe->nrings; i++) {
		struct ring *rg = &pe->rings[i];
		struct perf_event_mmap_page *mp = (struct perf_event_mmap_page *)(void *)rg->base;
		uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
		uint64_t tail = mp->data_tail;

		while (tail + sizeof(struct perf_event_header) <= head) {
			struct perf_event_header h;

			copy_out(rg, tail, &h, sizeof h);
			if (h.size < sizeof h || tail + h.size > head)
				break;
			pe->rec = xgrow(pe->rec, &pe->reccap, h.size, 1);
			copy_out(rg, tail, pe->rec, h.size);
			one_record(pe, r, pe->rec, h.size);
			tail += h.size;
		}
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	}
}

void
perfev_parse(struct recs *r, const unsigned char *p, size_t n, int callchain,
    int64_t to_real)
{
	struct perfev pe = { .callchain = callchain, .to_real = to_real };
	struct perf_event_header h;

	while (n >= sizeof h) {
		memcpy(&h, p, sizeof h);
		if (h.size < sizeof h || h.size > n)
			break;
		one_record(&pe, r, p, h.size);
		p += h.size;
		n -= h.size;
	}
}

size_t
perfev_missed(const struct perfev *pe, size_t *ntasks, int *err)
{
	*ntasks = pe->ntasks;
	*err = pe->misserr;
	return pe->missed;
}

void
perfev_close(struct perfev *pe)
{
	if (pe == NULL)
		return;
	close_all(pe);
	free(pe->fds);
	free(pe->rec);
	free(pe);
}
