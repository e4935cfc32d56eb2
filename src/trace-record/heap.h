/*
 * heap.h: trace-record --alloc: the allocation samples weighed, and
 * those not asked for hidden.
 */
#ifndef TR_HEAP_H
#define TR_HEAP_H

#include "recs.h"

/* What the samples are to show (--alloc=TYPE). */
enum { HEAP_ALLOC, HEAP_INUSE, HEAP_PEAK };

struct heap_opts {
	int		 when;		/* HEAP_* */
	int		 objects;	/* weigh objects, not bytes */
	uint64_t	 interval;	/* mean bytes between samples */
};

struct heap_stats {
	uint64_t	 samples;	/* allocations sampled */
	double		 bytes;		/* what the samples shown stand for */
	int64_t		 peak_time;	/* HEAP_PEAK: the instant, Unix-epoch ns */
};

/* The name of TYPE ("alloc_space", ...) into o, or -1 if unknown. */
int	heap_type(const char *type, struct heap_opts *o);

/* The event perf script text names the samples by: TYPE. */
const char *heap_event(const struct heap_opts *o);

/*
 * Sort r, and give each allocation sample its period (the bytes or
 * objects it stands for) or hide it (REC_NOSHOW): for HEAP_INUSE those
 * freed before their process ended, for HEAP_PEAK those not live at
 * the instant the sampled heap was largest.
 */
void	heap_weigh(struct recs *r, const struct heap_opts *o, struct heap_stats *st);

#endif
