/*
 * report.h: a sampling run's records out as perf script text or folded
 * stacks.
 */
#ifndef TR_REPORT_H
#define TR_REPORT_H

#include "recs.h"

struct report_opts {
	int		 folded;	/* folded stacks instead of perf script */
	const char	*event;		/* the event name perf script shows */
};

/* Sort r and write it to standard output (out.h). */
void	report_write(struct recs *r, const struct report_opts *o);

#endif
