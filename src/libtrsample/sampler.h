/*
 * sampler.h: what the two halves of the preloaded library share:
 * sampler.c (timer ticks, threads, forks, execs) owns the ring and the
 * per-thread state; alloc.c (allocation wrappers) writes its records
 * through these.  Internal to libtrsample.so (hidden visibility).
 */
#ifndef TR_SAMPLER_H
#define TR_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "sring.h"

/*
 * A record's header for the calling thread: type, pid, tid, thread name
 * and time, the rest zero.  Not from a signal handler (it may read the
 * thread's name again with prctl).
 */
void	sampler_header(struct sr_rec *h, uint32_t type);

/* Publish h with n bytes of body; no room: counted in the ring's lost. */
void	sampler_emit(struct sr_rec *h, const void *body, size_t n);

/* The calling thread's stack [*lo, *hi), or 0 when not known yet (a
 * thread before its start routine). */
int	sampler_stack(uintptr_t *lo, uintptr_t *hi);

/* Start allocation sampling as the ring's header says (alloc_interval 0:
 * not at all); called once, by the constructor, the ring mapped. */
void	alloc_init(const struct sr_ring *r);

#endif
