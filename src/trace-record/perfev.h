/*
 * perfev.h: sampling stacks with the perf_event_open system call.
 */
#ifndef TR_PERFEV_H
#define TR_PERFEV_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "recs.h"

struct perfev;

/* Call chains: none, the kernel's frame-pointer walk, or the user
 * registers and a copy of the stack's top to unwind with DWARF CFI. */
enum { CG_NONE, CG_FP, CG_DWARF };

/*
 * Sample pid at hz on every CPU, with call chains of kind callchain
 * (CG_DWARF: stack bytes of user stack per sample, a multiple of 8),
 * and its future threads and children.  attach: pid is running; sample
 * each of its threads now.  Otherwise pid has not exec'd yet and
 * sampling starts at its exec.  Kernel frames are asked for first, and
 * given up when not permitted (*kernel says which).  to_real turns
 * CLOCK_MONOTONIC into the trace's Unix-epoch time.  wall: also a
 * sample at each context switch, and the switch records that time the
 * blocked intervals (--wall).  Returns NULL with errno set (EACCES,
 * EPERM, ENOSYS, ENOENT: perf is not available here).
 */
struct perfev	*perfev_open(pid_t pid, int attach, unsigned hz, int callchain,
		    unsigned stack, int64_t to_real, int wall, int *kernel);

/*
 * The tasks perfev_open was asked for (the threads of an attached
 * process, else 1) in *ntasks, and how many of them some event was
 * refused for (EMFILE, ...), with the last such errno in *err: those
 * are not sampled, or not on every CPU.
 */
size_t		 perfev_missed(const struct perfev *pe, size_t *ntasks, int *err);

/* Up to max poll entries for the rings; the count. */
int		 perfev_pollfds(const struct perfev *pe, struct pollfd *p, int max);

/* Move what the rings hold into r. */
void		 perfev_read(struct perfev *pe, struct recs *r);

void		 perfev_close(struct perfev *pe);

/* Records as the kernel writes them, n bytes at p, into r (what
 * perfev_read does with a ring's contents; the fuzz target's entry). */
void		 perfev_parse(struct recs *r, const unsigned char *p, size_t n,
		    int callchain, int64_t to_real);

#endif
