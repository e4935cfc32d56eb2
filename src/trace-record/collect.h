/*
 * collect.h: packets from libtracerecord in, spans(5) out.
 */
#ifndef TR_COLLECT_H
#define TR_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"

struct collect;

struct tr_shm;

/*
 * A new, empty collection, reading events from nbufs buffers at shm; it
 * keeps the first max_spans begins paired (0: all), counts the others
 * dropped.
 */
struct collect	*collect_new(struct tr_shm *shm, uint32_t nbufs, uint64_t max_spans);

/*
 * Take one packet.  Returns NULL, or what is wrong with it (the packet
 * is then ignored; the caller counts and reports).
 */
const char	*collect_packet(struct collect *c, const unsigned char *p, size_t n);

/*
 * Write the spans in spans(5) format to standard output (out.h), sorted
 * by start, with the clock's calibration and the counts of dropped and
 * open spans as comments.  argv is the command that was run, elapsed
 * how long it ran in nanoseconds (-1: no program).
 */
void		 collect_write(struct collect *c, const struct clockcal *cal,
		    char **argv, uint64_t bad_packets, int64_t elapsed);

/*
 * Whether a process that started recording has neither ended recording
 * nor exited, and so may still send spans.
 */
int		 collect_recording(struct collect *c);

void		 collect_free(struct collect *c);

/* Spans dropped, after collect_write. */
uint64_t	 collect_dropped(const struct collect *c);

struct spanfilter;

/*
 * Write only the spans f keeps (spanfilter.c), re-parented; f must
 * outlive c.  Its spans-dropped-by-filter count goes in the header.
 */
void		 collect_filter(struct collect *c, const struct spanfilter *f);

/* Samples will follow the spans collect_write writes: revision 3. */
void		 collect_with_samples(struct collect *c);

/* A span as written, for the samples taken in it. */
struct collect_span {
	uint64_t	 id, parent;	/* output ids; parent 0: none */
	uint32_t	 tid;
	int64_t		 start, end;	/* ns on the trace's clock */
};

/* After collect_write: every span written, in *v by id, v[id - 1] (to
 * free). */
size_t		 collect_spans(struct collect *c, const struct clockcal *cal,
		    struct collect_span **v);

#endif
