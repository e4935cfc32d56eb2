/*
 * sring.h: the ring the preloaded sampler (sampler.c) writes stack
 * samples into and trace-record --sample --mechanism=signal reads.
 *
 * One shared memory file, a header and then SR_DATA bytes of records,
 * for every process and thread of the program (each opens it by its
 * path in trace-record's /proc/PID/fd).  A writer is a signal handler, so nothing may block: it
 * reserves a record by moving head with a compare-and-swap, fills it,
 * then publishes it by storing its length in the first word last; with
 * no room it counts the sample in lost and returns.  The reader takes
 * published records from tail in order, zeroes them and moves tail.
 * A writer that dies between reserving and publishing (its process
 * killed in the handler) would stop the reader at its record for good:
 * the header, with the record's size, is written first, and a record
 * unpublished for a while is skipped by that size and counted as lost
 * (or, with no header written either, everything reserved up to then).
 * Records are 8-byte multiples, so a header never straddles the end of
 * the ring; a body may, and is copied in two parts.
 */
#ifndef TR_SRING_H
#define TR_SRING_H

#include <stdint.h>

#define SR_MAGIC	0x31474e4952525453ull	/* "STRRING1" */
#define SR_HEAD		4096			/* header page */
#define SR_MAXFRAMES	256
#define SR_ENV		"TRACE_RECORD_SAMPLE"	/* "RING CLOCK SAMPLER": paths in
						 * trace-record's /proc/PID/fd */

enum { SR_SAMPLE = 1, SR_MAPS = 2, SR_FORK = 3, SR_TASKTIME = 4, SR_ALLOC = 5,
    SR_FREE = 6, SR_OFFCPU = 7, SR_WALLTIME = 8 };

struct sr_ring {
	uint64_t	magic;
	uint64_t	size;		/* data bytes, a power of two */
	uint64_t	head;		/* next byte to reserve (grows for ever) */
	uint64_t	tail;		/* next byte to read */
	uint64_t	lost;		/* samples with no room */
	uint64_t	period;		/* ns of CPU time between samples */
	uint64_t	closed;		/* the reader is done: exec no more with
					 * the sampler preloaded */
	uint64_t	unwind;		/* 1: walk with DWARF CFI, not frame
					 * pointers (--call-graph=dwarf) */
	uint64_t	started;	/* processes the sampler started in */
	uint64_t	blocked;	/* threads seen blocking its signal */
	uint64_t	alloc_interval;	/* --alloc: mean bytes between samples;
					 * 0: no allocation sampling (and
					 * period 0: no timer either) */
	uint64_t	alloc_frees;	/* 1: say when a sampled block is freed */
	uint64_t	wall_period;	/* --wall: the timer's period in the
					 * trace clock's raw units, the mean
					 * blocked time between sampled
					 * intervals; 0: blocking calls not
					 * timed */
};

/*
 * A record.  SR_SAMPLE: time (the trace clock's raw value), cpu (rdtscp's
 * CPU, for per-CPU offsets, or ~0), comm and n frames, the interrupted
 * instruction first, and the number of timer periods it stands for: a
 * CPU-time timer is checked at the scheduler's tick, so above the tick
 * rate one signal covers several periods.  SR_MAPS: the text of /proc/self/maps's executable
 * file mappings after it, n bytes, replacing the process's.  SR_FORK:
 * tid is the parent process.  SR_TASKTIME: a thread ending without a
 * sample, its CPU time after it (n 1: a uint64_t of ns).  SR_ALLOC: a
 * sampled allocation, struct sr_alloc and then n frames, the caller of
 * malloc first.  SR_FREE: a sampled block freed, its address after it
 * (n 1: a uint64_t), written before the block is handed back, so that
 * its address reused later comes after it in time.  SR_OFFCPU: a
 * sampled interval blocked in a call from time on, struct sr_offcpu,
 * and n frames: the function called first (libc's), then its caller's
 * return address and up.  SR_WALLTIME (--wall): a followed thread's
 * account, at its end or the process's: struct sr_walltime, from time,
 * its start.
 */
struct sr_rec {
	uint32_t	len;		/* bytes; 0 until published */
	uint32_t	type;
	uint32_t	pid, tid;
	uint64_t	time;
	uint32_t	cpu, n;
	uint32_t	periods;	/* timer periods it stands for (overruns + 1) */
	uint32_t	size;		/* len to be, written with the header */
	char		comm[16];
};

struct sr_offcpu {
	uint64_t	blocked;	/* raw clock units, the CPU time in the
					 * call taken out */
};

struct sr_walltime {
	uint64_t	end;		/* trace clock, raw */
	uint32_t	endcpu;
	uint32_t	pad;
	uint64_t	cpu_ns;		/* its CPU time */
	uint64_t	blocked;	/* raw clock units in the calls timed */
};

struct sr_alloc {
	uint64_t	addr;		/* the block */
	uint64_t	size;		/* bytes asked for */
};

#endif
