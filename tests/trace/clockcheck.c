/*
 * clockcheck: durations timed with the chosen clock against
 * CLOCK_MONOTONIC, over 100 ms and 1 s; prints one line per interval
 * and exits 1 if any differs by more than 0.1%.
 *	clockcheck [auto|tsc|tscp|mono]
 */
#include <stdio.h>
#include <time.h>

#include "trace-record/clock.h"

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
		int64_t m0 = clock_mono();
		uint64_t r0 = clock_raw(&c);

		nanosleep(&nap, NULL);
		uint64_t r1 = clock_raw(&c);
		int64_t m1 = clock_mono();
		double d = (double)(clock_to_ns(&c, r1) - clock_to_ns(&c, r0));
		double ref = (double)(m1 - m0), err = (d - ref) / ref;

		printf("%ld ms: clock %.0f ns, monotonic %.0f ns, %.4f%%\n", ms[i], d, ref, 100 * err);
		bad |= err > 0.001 || err < -0.001;
	}
	return bad;
}
