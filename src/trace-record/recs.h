/*
 * recs.h: what a sampling run saw, whichever mechanism saw it: samples
 * and the process events needed to name their addresses (mappings,
 * names, forks), each stamped with its time in Unix-epoch nanoseconds.
 *
 * Two stores of them: the mechanisms append samples as taken (frames,
 * or a stack copy to unwind) to a pending one, and report.c's replay
 * settles them in time order into the run's: each sample's frames
 * resolved against the mappings of its time and kept once per distinct
 * chain (chains.h), the sample itself some 48 bytes (a header and its
 * period, kind and chain); the mapping records are applied and not
 * kept.  So the run's store grows with the samples by a few tens of
 * bytes each, and with the distinct stacks, not with the stack copies,
 * the frames or the mappings announced.
 */
#ifndef TR_RECS_H
#define TR_RECS_H

#include <stddef.h>
#include <stdint.h>

#include "chains.h"

enum {
	REC_SAMPLE,	/* as taken: struct rec_sample, then n uint64_t frames,
			 * leaf first, then ustack bytes: struct rec_ustack and
			 * the stack */
	REC_SETTLED,	/* as settled: struct rec_settled; a REC_ALLOC one
			 * then struct rec_block */
	REC_MMAP,	/* struct rec_mmap, then the path and a NUL */
	REC_COMM,	/* the thread's name and a NUL; flags REC_EXEC on exec */
	REC_FORK,	/* uint32_t parent process, parent thread */
	REC_MAPS,	/* /proc/PID/maps lines replacing the process's mappings */
	REC_TASKTIME,	/* uint64_t: ns of CPU time a thread ran, at its end
			 * (perf: one per CPU's event it ran under; they add) */
	REC_SWITCH,	/* no payload: the thread left (REC_OUT) or took the
			 * CPU; REC_PREEMPT: it left runnable */
	REC_FREE,	/* uint64_t: a sampled block's address, freed */
	REC_LIVE,	/* uint64_t start, end pairs: the process's executable
			 * mappings then; a mapping overlapping none is gone */
};

#define REC_EXEC	1u
#define REC_OUT		1u
#define REC_PREEMPT	2u

/* A sample's kind: on the CPU (cpu-clock), or taken as its thread left
 * the CPU, its period the time until it came back (offcpu-time), or not
 * to be written (it left preempted, still runnable, or an allocation
 * not live at the instant asked for), or an allocation (its period the
 * bytes or objects it stands for, set by heap.c). */
enum { REC_ONCPU, REC_OFFCPU, REC_NOSHOW, REC_ALLOC };
/*
 * An off-CPU sample's period until it is timed: perf's context-switch
 * event samples at period 1, and the replay times the sample by the
 * thread's switch back in (report.c's offcpu_taken).  The signal
 * mechanism's come timed (their weight, at least a sampling period).
 */
#define REC_OFFCPU_UNTIMED 1

struct rec {
	int64_t		time;
	size_t		off;		/* the payload in recs.buf; payloads lie in
					 * order of arrival, so this breaks ties */
	uint32_t	pid, tid;
	uint32_t	len;
	uint16_t	type, flags;
};

/* The most frames kept of a sample's kernel chain, and of its user chain. */
#define REC_MAX_CHAIN	512

struct rec_sample {
	uint64_t	period;		/* ns of CPU time it stands for */
	uint32_t	n, nkernel;	/* frames; the first nkernel are the kernel's */
	char		comm[16];	/* empty: the thread's last REC_COMM */
	uint32_t	ustack;		/* bytes of user stack after the frames */
	uint32_t	kind;		/* REC_ONCPU, ... */
	uint64_t	addr, size;	/* REC_ALLOC: the block */
};

/*
 * --call-graph=dwarf: the user registers at the sample (DWARF numbers,
 * as src/elf/cfi.h) and len bytes of the stack from regs[7] (rsp) up,
 * unwound when the sample settles, in the replay of its process's
 * mappings at its time.
 */
struct rec_ustack {
	uint64_t	regs[17];
	uint32_t	valid;		/* bit i: regs[i] was sampled */
	uint32_t	len;
};

/* A sample settled: its chain's id in recs.chains. */
struct rec_settled {
	uint64_t	period;		/* what it stands for (ns, bytes, ...) */
	uint32_t	chain;
	uint32_t	kind;		/* REC_ONCPU, ... */
};

/* A REC_ALLOC sample's block. */
struct rec_block {
	uint64_t	addr, size;
};

struct rec_mmap {
	uint64_t	start, len, pgoff;
};

struct recs {
	struct rec	*v;
	size_t		 n, cap;
	unsigned char	*buf;
	size_t		 used, bufcap;
	uint64_t	 samples, lost;
	struct chains	 chains;	/* REC_SETTLED samples' */
};

/* An empty store (recs_free frees it). */
void	recs_init(struct recs *r);

/* Append a record; payload is n bytes (copied). */
void	recs_add(struct recs *r, uint32_t type, int64_t time, uint32_t pid,
	    uint32_t tid, uint32_t flags, const void *payload, size_t n);

/* Append a sample whose frames follow as two parts (kernel, then user). */
void	recs_sample(struct recs *r, int64_t time, uint32_t pid, uint32_t tid,
	    const struct rec_sample *s, const uint64_t *kern, const uint64_t *user,
	    uint32_t nuser);

/* Append a sample with kernel frames and a user stack to unwind: u,
 * then u->len bytes at stack. */
void	recs_sample_stack(struct recs *r, int64_t time, uint32_t pid, uint32_t tid,
	    const struct rec_sample *s, const uint64_t *kern,
	    const struct rec_ustack *u, const void *stack);

/* Append a settled sample; b: a REC_ALLOC sample's block, else NULL. */
void	recs_settled(struct recs *r, int64_t time, uint32_t pid, uint32_t tid,
	    const struct rec_settled *s, const struct rec_block *b);

/* Sort by time, then arrival. */
void	recs_sort(struct recs *r);

/* Forget the first k records of r->v, and the room their payloads took;
 * the rest are left in arrival order. */
void	recs_drop(struct recs *r, size_t k);

void	recs_free(struct recs *r);

#endif
