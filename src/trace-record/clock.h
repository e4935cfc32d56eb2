/*
 * clock.h: choosing and calibrating the clock spans are timed with.
 */
#ifndef TR_CLOCK_H
#define TR_CLOCK_H

#include <stdint.h>

#define CLOCK_MAX_CPUS 4096

struct clockcal {
	int		 mode;		/* TR_CLOCK_TSC, _TSCP or _MONO */
	char		 why[320];	/* why this mode, for the output */
	char		 source[64];	/* where ticks_per_ns came from */
	double		 ticks_per_ns;
	double		 ppm;		/* last two estimates' disagreement */
	int		 windows;	/* calibration windows measured */
	uint64_t	 tick0;		/* anchor: tick0 was at real0 ns */
	int64_t		 real0;
	int64_t		 mono_to_real;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	int		 ncpus;		/* CPUs with a measured offset */
	int		 cpu[CLOCK_MAX_CPUS];
	int64_t		 offset[CLOCK_MAX_CPUS];	/* ticks, against cpu[0] */
	int64_t		 bound;		/* offsets this small are noise */
};

/*
 * Choose the clock: force is NULL or "auto" (the TSC if the CPU and the
 * kernel vouch for it, plain rdtsc if the CPUs agree, rdtscp with
 * per-CPU offsets if not, else CLOCK_MONOTONIC), or "tsc", "tscp",
 * "mono".  Calibrates what it chose.  Returns 0, or -1 with why set when
 * a forced TSC mode is not available.
 */
int	clock_choose(struct clockcal *c, const char *force);

/* A raw value of the chosen clock as Unix-epoch nanoseconds. */
int64_t	clock_to_ns(const struct clockcal *c, uint64_t raw);

/* The current raw value, as the library reads it (on this CPU). */
uint64_t clock_raw(const struct clockcal *c);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t	clock_mono(void);

#endif
