/*
 * sigsample.h: sampling with the preloaded signal sampler, for when
 * perf_event_open is not allowed.
 */
#ifndef TR_SIGSAMPLE_H
#define TR_SIGSAMPLE_H

#include "clock.h"
#include "recs.h"

struct sigsample;

/* The ring and the sampler library, ready to hand to a program; unwind:
 * the sampler walks with DWARF CFI instead of frame pointers. */
struct sigsample *sigsample_new(unsigned hz, int unwind, const struct clockcal *cal);

/* In the child, before exec: the environment that loads the sampler. */
void		 sigsample_child(const struct sigsample *s);

/* Move the published samples into r; one left unpublished for a
 * second (its writer killed while writing) is skipped, counted as lost. */
void		 sigsample_read(struct sigsample *s, struct recs *r);

/* After the program's end: what is left, and the samples lost (ring
 * full, or a writer killed while writing), into r. */
void		 sigsample_close(struct sigsample *s, struct recs *r);

#endif
