/*
 * sample.h: trace-record --sample: run or attach to a program and write
 * its sampled stacks.
 */
#ifndef TR_SAMPLE_H
#define TR_SAMPLE_H

#include <stdint.h>
#include <sys/types.h>

#include "heap.h"

struct sample_opts {
	unsigned	 hz;
	int		 callchain;	/* CG_* of perfev.h: -g, --call-graph */
	unsigned	 stack;		/* --stack-size: bytes of stack per sample */
	int		 folded;	/* --folded */
	int		 wall;		/* --wall: off-CPU time too */
	int		 spans;		/* --spans: a span profile */
	uint32_t	 nbufs;		/* --buffers, for --spans */
	const char	*mechanism;	/* "auto", "perf" or "signal" */
	const char	*clock;		/* --clock */
	const char	*output;	/* -o, or NULL */
	pid_t		 attach;	/* -p, or 0 */
	int		 alloc;		/* --alloc: allocations, not CPU time */
	struct heap_opts heap;		/* --alloc=TYPE, --alloc-interval */
};

/* Returns trace-record's exit status. */
int	sample_run(const struct sample_opts *o, char **argv);

#endif
