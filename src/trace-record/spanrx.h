/*
 * spanrx: trace-record --sample --spans, the spans half: the channel the
 * program's libtracerecord writes to (record.c's), read while the
 * sampler runs, and at the end a span profile (spans(5) revision 3): the
 * spans, then each sample as a "# sample" line with the span innermost
 * on its thread when it was taken (spanjoin.c).  One clock: the spans'
 * is the trace's, and the samples are put on it as in --sample alone.
 */
#ifndef TR_SPANRX_H
#define TR_SPANRX_H

#include <stdint.h>

#include "clock.h"
#include "recs.h"
#include "report.h"

struct spanrx;

struct spanrx	*spanrx_open(uint32_t nbufs);
/* In the child, before exec: the environment that names the channel. */
void		 spanrx_child(const struct spanrx *x, const struct clockcal *cal);
/* In the parent, once the child is started: its ends closed. */
void		 spanrx_started(struct spanrx *x);
/* The descriptor to poll, and what it has for us taken. */
int		 spanrx_fd(const struct spanrx *x);
void		 spanrx_take(struct spanrx *x);
/* After the program ended: what its processes still send, for a while. */
void		 spanrx_finish(struct spanrx *x);
/* The spans, then the samples of r (report_write with ro, st). */
void		 spanrx_write(struct spanrx *x, const struct clockcal *cal,
		    char **argv, int64_t elapsed, struct recs *r,
		    struct report_opts *ro, struct report_stats *st);
/* Said on stderr: malformed packets, spans dropped. */
void		 spanrx_free(struct spanrx *x);

#endif
