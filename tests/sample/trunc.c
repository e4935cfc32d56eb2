/*
 * trunc.c: a program whose library is truncated while it runs, as when
 * a package upgrade rewrites it in place.  It calls through LIBRARY
 * (trunclib.c) into code of its own, which spins for MS milliseconds of
 * CPU time, truncates LIBRARY to nothing, spins MS more and exits
 * without returning through the library's lost pages.  Every sample has
 * a frame in the library, so a profiler that unwinds with its tables
 * reads them both before and after the truncation.
 *
 *	trunc LIBRARY MS
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

void through(void (*f)(const char *), const char *arg);

static long ms;
static volatile unsigned long sink;

#define CPU_MS_CLOCK CLOCK_PROCESS_CPUTIME_ID
#include "cpums.h"

static void
spin(void)
{
	double end = cpu_ms() + (double)ms;
	unsigned long x = 1;

	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
}

static void
called_back(const char *lib)
{
	spin();
	if (truncate(lib, 0) != 0)
		_exit(2);
	spin();
	_exit(0);
}

int
main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	ms = atol(argv[2]);
	through(called_back, argv[1]);
	return 1;
}
