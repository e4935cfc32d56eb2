/*
 * pingpong.c: two threads passing a byte back and forth through two
 * pipes, N round trips (2N context switches, each a read that blocks):
 * the cost of trace-record --wall per blocking call (tests/bench-wall.sh).
 *
 *	pingpong N
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int ab[2], ba[2];
static long n;

static void *
pong(void *a)
{
	char c;

	(void)a;
	for (long i = 0; i < n; i++)
		if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
			exit(2);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	char c = 'x';

	n = argc > 1 ? atol(argv[1]) : 100000;
	if (pipe(ab) != 0 || pipe(ba) != 0 || pthread_create(&t, NULL, pong, NULL) != 0)
		return 2;
	for (long i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return 2;
	pthread_join(t, NULL);
	return 0;
}
