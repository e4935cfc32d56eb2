/*
 * takeback: built with -finstrument-functions, calls whose number is
 * known exactly, for --min-duration=1ms: the library takes the short
 * ones back, trace-record filters the rest, and # filtered counts both.
 * Each work() makes
 *	work (6+ ms: kept)
 *	  leaf x 1000 (empty: taken back in the library)
 *	  mixed x 5 (short, but a tr_begin span, inner, is recorded inside
 *	      it, so its begin is not the buffer's last event when it ends:
 *	      left to trace-record, which filters both)
 *	  nap x 3 (2 ms asleep: kept)
 * so 1010 spans filtered, 4 kept.
 *	takeback	main runs work(): 5 kept (main too), 1010 filtered
 *	takeback N	N threads run work(), and one more thread, leaves,
 *			only calls leaf 1000 times and is short itself: its
 *			buffer is empty when it ends, so its 1001 come only in
 *			the process's total.  1 + 4N kept, 1010N + 1001 filtered
 *	takeback abort	main runs work(), then aborts (main is open): the
 *			crash handler's packet carries the count, 5 kept,
 *			1010 filtered
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "trace_record.h"

static void
leaf(void)
{
}

/* The library's out-of-line calls, not the header's inline ones, which
 * -O0 would leave uninlined and instrumented: inner's span alone. */
static __attribute__((no_instrument_function)) void
inner(void)
{
	tr_span none = { 0, 0 };

	tr_end_slow(tr_begin_slow("inner", none));
}

static void
mixed(void)
{
	inner();
}

static void
nap(void)
{
	nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
}

static void *
work(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 1000; i++)
		leaf();
	for (i = 0; i < 5; i++)
		mixed();
	for (i = 0; i < 3; i++)
		nap();
	return NULL;
}

static void *
leaves(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++)
		leaf();
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t[9];
	int i, n;

	if (argc < 2) {
		work(NULL);
		return 0;
	}
	if (argv[1][0] == 'a') {
		work(NULL);
		abort();
	}
	n = atoi(argv[1]);
	if (n < 1 || n > 8)
		return 2;
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, work, NULL);
	pthread_create(&t[n], NULL, leaves, NULL);
	for (i = 0; i <= n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
