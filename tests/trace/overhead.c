/*
 * overhead: the cost of a span (tr_begin + tr_end), against two rdtsc
 * reads and two clock_gettime(CLOCK_MONOTONIC) reads measured in the same
 * run.  Run plain (recording off), under trace-record (on, TSC) and under
 * trace-record --clock mono (the library on clock_gettime).
 *	overhead THREADS SPANS
 * prints: rdtsc2 NS  gettime2 NS  span NS (per thread, mean)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "trace_record.h"

static long n;
static double span_ns[64];

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *
spans(void *arg)
{
	double t0 = now();

	for (long i = 0; i < n; i++) {
		tr_span s = tr_begin("span");

		tr_end(s);
	}
	span_ns[(intptr_t)arg] = (now() - t0) / n;
	return NULL;
}

int
main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 1;
	volatile uint64_t sink = 0;
	pthread_t t[64];
	double t0, rd = 0, gt, sum = 0;
	struct timespec a, b;

	n = argc > 2 ? atol(argv[2]) : 1000000;
	if (threads < 1 || threads > 64)
		return 2;
#if defined(__x86_64__) || defined(__i386__)
	t0 = now();
	for (long i = 0; i < n; i++) {
		uint64_t x = __rdtsc(), y = __rdtsc();

		sink += y - x;
	}
	rd = (now() - t0) / n;
#endif
	t0 = now();
	for (long i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		clock_gettime(CLOCK_MONOTONIC, &b);
		sink += (uint64_t)(b.tv_nsec - a.tv_nsec);
	}
	gt = (now() - t0) / n;
	for (intptr_t i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, spans, (void *)i);
	for (int i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		sum += span_ns[i];
	}
	printf("rdtsc2 %.2f gettime2 %.2f span %.2f\n", rd, gt, sum / threads);
	return 0;
}
