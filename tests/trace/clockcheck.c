/*
 * clockcheck: durations timed with the chosen clock against
 * CLOCK_MONOTONIC, over 100 ms and 1 s; prints one line per interval
 * and exits 1 if any differs by more than 0.1%.
 *	clockcheck [auto|tsc|tscp|mono]
 *
 * Each end reads the clock between two monotonic reads and keeps the
 * tightest of many tries: on a busy virtual machine a plain read-then-read
 * can be preempted for hundreds of microseconds, which is the test's own
 * error, not the clock's.
 */
#include <stdio.h>
#include <time.h>

#include "trace-record/clock.h"

#define TRIES 64

/* One (clock, monotonic) pair from the tightest bracket. */
static void
pair(const struct clockcal *c, int64_t *clk, int64_t *mono)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < TRIES; i++) {
		int64_t a = clock_mono();
		uint64_t r = clock_raw(c);
		int64_t b = clock_mono();

		if (b - a < best) {
			best = b - a;
			*clk = clock_to_ns(c, r);
			*mono = a + (b - a) / 2;
		}
	}
}

int
main(int argc, char **argv)
{
	struct clockcal c;
	long ms[] = { 100, 1000 };
	int bad = 0;

	if (clock_choose(&c, argc > 1 ? argv[1] : "auto") != 0) {
		printf("unavailable: %s\n", c.why);
		return 2;
	}
	for (int i = 0; i < 2; i++) {
		struct timespec nap = { ms[i] / 1000, ms[i] % 1000 * 1000000 };
		int64_t c0, c1, m0, m1;

		pair(&c, &c0, &m0);
		nanosleep(&nap, NULL);
		pair(&c, &c1, &m1);
		double d = (double)(c1 - c0);
		double ref = (double)(m1 - m0), err = (d - ref) / ref;

		printf("%ld ms: clock %.0f ns, monotonic %.0f ns, %.4f%%\n", ms[i], d, ref, 100 * err);
		bad |= err > 0.001 || err < -0.001;
	}
	return bad;
}
