/*
 * filter: spans whose names, nesting and durations the record-time
 * filters are tested on.  "Long" spans spin for milliseconds, "short"
 * ones are empty (tens of nanoseconds), so a 1ms minimum has a wide
 * margin on both sides.  The tree (depth, then name):
 *	1 req (4+ ms)
 *	2   parse (short; property k=v)
 *	3     worker (3 ms, on another thread, parse its parent, begun
 *	      after parse ended)
 *	2   db (4+ ms)
 *	3     db-row x 10 (short)
 *	3     cache (2+ ms)
 *	4       cache-inner (1+ ms)
 *	2   noise (short)
 */
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include "trace_record.h"

static tr_span handed;
static sem_t go;

static void
spin_ms(long ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ms * 1000000L);
}

static void *
worker(void *arg)
{
	(void)arg;
	sem_wait(&go);
	tr_span w = tr_begin_child("worker", handed);

	spin_ms(3);
	tr_end(w);
	return NULL;
}

int
main(void)
{
	pthread_t t;

	sem_init(&go, 0, 0);
	pthread_create(&t, NULL, worker, NULL);
	tr_span req = tr_begin("req");

	handed = tr_begin("parse");
	tr_prop(handed, "k", "v");
	tr_end(handed);
	/* After parse ends: waking the worker inside it let the scheduler
	 * run the worker first on a busy machine, and parse lasted past
	 * 1 ms (make test failed so, twice, under load). */
	sem_post(&go);
	tr_span db = tr_begin("db");

	for (int i = 0; i < 10; i++)
		tr_end(tr_begin("db-row"));
	spin_ms(2);
	tr_span cache = tr_begin("cache");
	tr_span inner = tr_begin("cache-inner");

	spin_ms(1);
	tr_end(inner);
	spin_ms(1);
	tr_end(cache);
	tr_end(db);
	tr_end(tr_begin("noise"));
	pthread_join(t, NULL);
	tr_end(req);
	return 0;
}
