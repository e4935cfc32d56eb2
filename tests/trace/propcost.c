/*
 * propcost: what a property and an event cost, against a bare span
 * (tr_begin + tr_end), in the same run under trace-record:
 *	trace-record --buffers 4000 -o /dev/null propcost N
 * prints, in ns per iteration (the fastest of ROUNDS rounds of each
 * loop, the loops interleaved, as overhead.c does):
 *	span NS  +prop NS  +prop_int NS  +event NS
 * each loop a span and, but for the first, one property or event on it;
 * the note's own cost is the difference to "span".  The string is 12
 * bytes, a user name's length.  tests/trace/run.sh builds it and runs it
 * once, small, for its output's shape only: its times are for reading.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "trace_record.h"

#define ROUNDS	10

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void
bare(long k)
{
	for (long i = 0; i < k; i++) {
		tr_span s = tr_begin("span");

		tr_end(s);
	}
}

static void
prop(long k)
{
	for (long i = 0; i < k; i++) {
		tr_span s = tr_begin("span");

		tr_prop(s, "user", "alice-123456");
		tr_end(s);
	}
}

static void
prop_int(long k)
{
	for (long i = 0; i < k; i++) {
		tr_span s = tr_begin("span");

		tr_prop_int(s, "rows", i);
		tr_end(s);
	}
}

static void
event(long k)
{
	for (long i = 0; i < k; i++) {
		tr_span s = tr_begin("span");

		tr_event("cache-miss");
		tr_end(s);
	}
}

int
main(int argc, char **argv)
{
	void (*loop[4])(long) = { bare, prop, prop_int, event };
	double best[4] = { 1e300, 1e300, 1e300, 1e300 };
	long n = argc > 1 ? atol(argv[1]) : 1000000, k = n / ROUNDS > 0 ? n / ROUNDS : 1;

	for (int r = 0; r < ROUNDS; r++)
		for (int j = 0; j < 4; j++) {
			double t0 = now();

			loop[j](k);
			t0 = (now() - t0) / (double)k;
			best[j] = t0 < best[j] ? t0 : best[j];
		}
	printf("span %.2f +prop %.2f +prop_int %.2f +event %.2f\n", best[0],
	    best[1], best[2], best[3]);
	return 0;
}
