/*
 * hooks-floor.c: the least a -finstrument-functions tracer can cost.
 * Linked into a program built with -finstrument-functions in place of
 * libtracerecord: with -DCLOCK=0 the hooks do nothing (the cost of the
 * calls the compiler put in); with -DCLOCK=1 they read the TSC and keep
 * nothing, as a tracer that times every call exactly must at least do
 * (tests/bench.sh, the enough rows).
 */
#include <stdint.h>
#if CLOCK
#include <x86intrin.h>
#endif

#define NOINST	__attribute__((no_instrument_function))

void __cyg_profile_func_enter(void *, void *) NOINST;
void __cyg_profile_func_exit(void *, void *) NOINST;

/* Summed into a global, which the compiler cannot leave unwritten. */
uint64_t hooks_sum;

void
__cyg_profile_func_enter(void *fn, void *site)
{
	(void)fn;
	(void)site;
#if CLOCK
	hooks_sum += __rdtsc();
#endif
}

void
__cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
#if CLOCK
	hooks_sum += __rdtsc();
#endif
}
