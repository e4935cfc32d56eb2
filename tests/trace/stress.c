/*
 * stress: THREADS threads each make SPANS spans, each with a child span,
 * ending with an explicit-parent span handed from the main thread; with
 * "migrate", the main thread meanwhile moves every worker from CPU to CPU.
 *	stress THREADS SPANS [migrate]
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_record.h"

static long spans;
static tr_span handed;
static volatile int done;

static void *
work(void *arg)
{
	(void)arg;
	tr_span adopted = tr_begin_child("adopted", handed);

	for (long i = 0; i < spans; i++) {
		TR_SCOPE("outer");
		tr_span in = tr_begin("inner");

		tr_end(in);
	}
	tr_end(adopted);
	return NULL;
}

int
main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[1]) : 8, migrate = argc > 3 && strcmp(argv[3], "migrate") == 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t *t = calloc((size_t)n, sizeof *t);

	spans = argc > 2 ? atol(argv[2]) : 1000;
	handed = tr_begin("main");
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, work, NULL);
	if (migrate)
		for (long k = 0; k < 2000; k++) {
			cpu_set_t one;

			CPU_ZERO(&one);
			CPU_SET(k % ncpu, &one);
			for (int i = 0; i < n; i++)
				pthread_setaffinity_np(t[i], sizeof one, &one);
			sched_yield();
		}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	tr_end(handed);
	free(t);
	return 0;
}
