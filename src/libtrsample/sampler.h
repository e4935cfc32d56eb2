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

/* The trace clock's raw value now (sring.h's time), *cpu its CPU or ~0. */
uint64_t sampler_now(uint32_t *cpu);

/* A draw of the exponential distribution of mean (> 0), at least 1:
 * the distance to the next sample of a Poisson process. */
int64_t	sampler_exp(double mean);

/*
 * The caller chain of a call, into fr (at most max), its return address
 * ret first: the caller's stack pointer sp (the callee's CFA) and frame
 * pointer bp at the call, the stack's top hi (0: unknown, ret alone).
 * Frame pointers, or DWARF CFI where the run walks so; reads stay in
 * [sp, hi).  Any thread's, if that one is stopped in the call.
 */
uint32_t sampler_walk(uintptr_t ret, uintptr_t sp, uintptr_t bp, uintptr_t hi,
	    uint64_t *fr, uint32_t max);

/*
 * fn(arg) on the thread's own stack, the handler's (every signal held
 * off meanwhile), where walks with DWARF CFI take 8 to 16 KiB that the
 * program's stack may not have to spare; else on the stack it is on.
 */
void	sampler_aside(void (*fn)(void *), void *arg);

/* Timer periods of CPU time the calling thread was sampled for. */
extern __thread uint64_t sampler_periods __attribute__((tls_model("initial-exec")));

/* Whether the calling thread entered seccomp: it makes no system call
 * but read, write and exit from then on. */
int	sampler_sealed(void);

/* Start allocation sampling as the ring's header says (alloc_interval 0:
 * not at all); called once, by the constructor, the ring mapped. */
void	alloc_init(const struct sr_ring *r);

/* A call in progress, for wall_enter and wall_leave. */
struct wcall {
	uint64_t	t0, periods0;
	uint32_t	cpu0;
	uintptr_t	fn, ret, sp, bp;
};

/*
 * Around a blocking call to fn (libc's) from a function whose frame
 * address is fa (__builtin_frame_address(0), frame pointers kept):
 * wall_enter is 1 when the call is timed, and wall_leave is then called
 * after it; errno is the call's.
 */
int	wall_enter(struct wcall *c, void *fn, const uintptr_t *fa);
void	wall_leave(const struct wcall *c);

/*
 * wall.c's blocking-call wrappers (--wall): started once by the
 * constructor, the ring mapped, before its thread is; a thread followed
 * from its start (tid, its name's buffer, its stack's top) to its end;
 * after a fork, the child's only thread again.
 */
void	wall_init(const struct sr_ring *r);

/*
 * The program's sigaction of sig, when wall.c keeps its disposition
 * (SIGTERM, SIGHUP, SIGINT under --wall): 1, and *r is what sigaction
 * returns; else 0, and sig is not wall.c's.
 */
struct sigaction;
int	wall_sigaction(int sig, const struct sigaction *act, struct sigaction *old, int *r);
void	wall_thread_start(uint32_t tid, const char *comm, uintptr_t hi);
void	wall_thread_end(void);
void	wall_after_fork(void);

#endif
