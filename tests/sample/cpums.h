/*
 * cpums.h: the CPU time used so far, in milliseconds, for the sampler's
 * test programs, which run for an amount of CPU time rather than a
 * number of iterations: a faster or busier machine then changes their
 * wall time, not what the sampler sees of them.  The thread's clock,
 * or the whole process's where the program defines CPU_MS_CLOCK as
 * CLOCK_PROCESS_CPUTIME_ID before it includes this.  Needs <time.h>.
 */
#ifndef CPU_MS_CLOCK
#define CPU_MS_CLOCK CLOCK_THREAD_CPUTIME_ID
#endif

static double
cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CPU_MS_CLOCK, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
