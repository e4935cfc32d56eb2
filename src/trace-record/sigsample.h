/*
 * sigsample.h: sampling with the preloaded signal sampler, for when
 * perf_event_open is not allowed.
 */
#ifndef TR_SIGSAMPLE_H
#define TR_SIGSAMPLE_H

#include "clock.h"
#include "recs.h"

struct sigsample;

/* The sampler's memory file: its mapping is "/memfd:" this " (deleted)". */
#define SIGSAMPLE_SO	"libtrsample.so"

/*
 * The ring and the sampler library, ready to hand to a program; unwind:
 * the sampler walks with DWARF CFI instead of frame pointers.  wall
 * (--wall): time the program's blocking calls too, with the library
 * that wraps stdio's as well, and write the sampled intervals as
 * off-CPU samples (REC_OFFCPU, their period the blocked nanoseconds
 * they stand for).
 */
struct sigsample *sigsample_new(unsigned hz, int unwind, int wall,
		    const struct clockcal *cal);

/*
 * Sample allocations instead of CPU time: every interval bytes on
 * average; frees: the frees of sampled blocks too (inuse, peak).
 */
void		 sigsample_alloc(struct sigsample *s, uint64_t interval, int frees);

/* In the child, before exec: the environment that loads the sampler. */
void		 sigsample_child(const struct sigsample *s);

/* Move the published samples into r; one left unpublished for a
 * second (its writer killed while writing) is skipped, counted as lost. */
void		 sigsample_read(struct sigsample *s, struct recs *r);

/* What is left, and the samples lost (ring full, or a writer killed
 * while writing), into r; s freed (also when the program never ran). */
void		 sigsample_close(struct sigsample *s, struct recs *r);

/*
 * Before the program runs: why the sampler cannot be loaded into prog
 * (execvp's search), a static or set-user-ID program, or NULL.
 */
const char	*sigsample_check(struct sigsample *s, const char *prog);

/*
 * After the program's end, sigsample_close, then what was not sampled
 * said on stderr: threads that blocked the signal, no process that
 * loaded the sampler (and why, where sigsample_check knew), or samples
 * that stand for less than half the cpu_ns of CPU time the program (and
 * its children waited for) used.  1 when that leaves no sample at all.
 * *unseen: for --wall, the nanoseconds the program's threads spent
 * neither on the CPU nor in a blocking call the sampler timed
 * (preempted, or blocked past libc's functions), the last accounts
 * included.
 */
int		 sigsample_end(struct sigsample *s, struct recs *r, int64_t cpu_ns,
		    uint64_t *unseen);

#endif
