/*
 * report.h: a sampling run's records out as perf script text or folded
 * stacks.
 */
#ifndef TR_REPORT_H
#define TR_REPORT_H

#include "recs.h"

struct spanjoin;

struct report_opts {
	int		 folded;	/* folded stacks instead of perf script */
	const char	*event;		/* the event name perf script shows */
	/* --spans: each sample as a spans(5) "# sample" line, with the
	 * span innermost on its thread */
	const struct spanjoin *join;
};

/* What the replay saw besides the samples. */
struct report_stats {
	uint64_t	 unsampled;	/* threads that ended without a sample */
	uint64_t	 unsampled_ns;	/* the CPU time they ran (REC_TASKTIME) */
	uint64_t	 untimed;	/* of them, those whose time never came */
	uint64_t	 sampled_ns;	/* what the on-CPU samples stand for */
};

/* Sort r, the records replay_settle settled, and write it to standard
 * output (out.h). */
void	report_write(struct recs *r, const struct report_opts *o,
	    struct report_stats *st);

/*
 * The process events of a run replayed as they arrive, so that a
 * --call-graph=dwarf sample is unwound with the mappings of its time and
 * its stack copy (kilobytes) freed, within a drain or two of its taking.
 */
struct replay;

struct replay	*replay_new(void);
void		 replay_free(struct replay *p);

/*
 * Move pend's records older than horizon into r in time order, through
 * p: a sample settled (a dwarf one unwound into user frames first), its
 * frames put with their mappings as a chain of r->chains; a mapping
 * applied to p and dropped; the rest copied.  pend keeps the newer ones,
 * whose order with records still to come is not known yet.
 */
void		 replay_settle(struct replay *p, struct recs *pend, struct recs *r,
		    int64_t horizon);

/*
 * A process whose map in p has doubled since it was last asked for (or
 * started), perf announcing no unmapping: a library loaded at a new
 * address each time leaves a mapping each time.  The caller adds a
 * REC_LIVE record of what is mapped to pend, at a time before it looks,
 * and the replay drops the mappings gone.  0: none.
 */
uint32_t	 replay_crowded(struct replay *p);

/*
 * --wall: the replay times each off-CPU sample it settles into r by the
 * thread's next switch back in (and drops it when the thread left
 * preempted, still runnable); a thread still out at the end, at end,
 * gets its period here.  Returns the ns threads spent preempted, which
 * no sample shows.
 */
uint64_t	 replay_finish(struct replay *p, struct recs *r, int64_t end);

#endif
