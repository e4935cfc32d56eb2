/*
 * overhead: the cost of a span (tr_begin + tr_end), against two rdtsc
 * reads and two clock_gettime(CLOCK_MONOTONIC) reads measured in the same
 * run.  Run plain (recording off), under trace-record (on, TSC) and under
 * trace-record --clock mono (the library on clock_gettime).
 *	overhead THREADS SPANS
 * prints: rdtsc2 NS  gettime2 NS  span NS (per thread, mean)
 *
 * Every thread times the three loops in turn, in rounds of SPANS/ROUNDS,
 * and keeps each loop's fastest round: on a shared virtual machine a
 * round that lost the CPU says nothing about either cost, and
 * interleaving puts the references and the spans under the same
 * conditions.
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

#define ROUNDS	20

static long n;
static double best[64][3];
static volatile uint64_t sink;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void
rdtsc2(long k)
{
#if defined(__x86_64__) || defined(__i386__)
	for (long i = 0; i < k; i++) {
		uint64_t x = __rdtsc(), y = __rdtsc();

		sink += y - x;
	}
#else
	(void)k;
#endif
}

static void
gettime2(long k)
{
	struct timespec a, b;

	for (long i = 0; i < k; i++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		clock_gettime(CLOCK_MONOTONIC, &b);
		sink += (uint64_t)(b.tv_nsec - a.tv_nsec);
	}
}

static void
spans(long k)
{
	for (long i = 0; i < k; i++) {
		tr_span s = tr_begin("span");

		tr_end(s);
	}
}

static void *
run(void *arg)
{
	double *b = best[(intptr_t)arg];
	void (*loop[3])(long) = { rdtsc2, gettime2, spans };
	long k = n / ROUNDS > 0 ? n / ROUNDS : 1;

	for (int j = 0; j < 3; j++)
		b[j] = 1e300;
	for (int r = 0; r < ROUNDS; r++)
		for (int j = 0; j < 3; j++) {
			double t0 = now();

			loop[j](k);
			t0 = (now() - t0) / k;
			b[j] = t0 < b[j] ? t0 : b[j];
		}
	return NULL;
}

int
main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 1;
	pthread_t t[64];
	double sum[3] = { 0, 0, 0 };

	n = argc > 2 ? atol(argv[2]) : 1000000;
	if (threads < 1 || threads > 64)
		return 2;
	for (intptr_t i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (int i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		for (int j = 0; j < 3; j++)
			sum[j] += best[i][j];
	}
	printf("rdtsc2 %.2f gettime2 %.2f span %.2f\n", sum[0] / threads,
	    sum[1] / threads, sum[2] / threads);
	return 0;
}
