/*
 * spanjoin: the span innermost on a thread at an instant, for the
 * samples of trace-record --sample --spans.
 *
 * A thread's spans nest (each ends before its parent does), so of the
 * spans that began on a thread by an instant, the innermost one open
 * then is the last begun or one of its ancestors: a binary search for
 * the last begun, then a walk up its parents, as deep as the nesting.
 * No clock is read twice: spans and samples are on the trace's clock.
 */
#ifndef TR_SPANJOIN_H
#define TR_SPANJOIN_H

#include <stddef.h>
#include <stdint.h>

#include "collect.h"

struct spanjoin {
	const struct collect_span *v;	/* by id: v[id - 1] */
	uint32_t *order;		/* indexes by thread, then start */
	size_t n;
};

/* Over v[0..n), whose ids are 1..n (collect_spans'). */
void		 spanjoin_init(struct spanjoin *j, const struct collect_span *v,
		    size_t n);

/* The id of the span innermost on thread tid at time t, or 0. */
uint64_t	 spanjoin_find(const struct spanjoin *j, uint32_t tid, int64_t t);

void		 spanjoin_free(struct spanjoin *j);

#endif
