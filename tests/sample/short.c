/*
 * short.c: threads too short to be sampled.  Starts N threads, two at a
 * time, each running MS milliseconds of its own CPU time (its
 * CPU-time clock, so a loaded machine makes it longer, not shorter),
 * while the main thread waits in pthread_join, asleep.  Below a
 * sampling period, no thread of them is sampled.
 *
 *	short N MS
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static long ms;
static volatile unsigned long sink;

#include "cpums.h"

static void *
spin(void *arg)
{
	double end = cpu_ms() + (double)ms;
	unsigned long x = 1;

	(void)arg;
	while (cpu_ms() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
	return NULL;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 400;
	pthread_t t[2];

	ms = argc > 2 ? atol(argv[2]) : 5;
	for (long i = 0; i < n; i += 2) {
		int k = n - i < 2 ? 1 : 2;

		for (int j = 0; j < k; j++)
			if (pthread_create(&t[j], NULL, spin, NULL) != 0)
				return 1;
		for (int j = 0; j < k; j++)
			pthread_join(t[j], NULL);
	}
	return 0;
}
