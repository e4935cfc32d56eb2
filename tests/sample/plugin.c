/*
 * plugin.c: a library hostile.c loads, replaces and loads again.  Built
 * -O2 -fomit-frame-pointer, so that only the CFI finds the callers of
 * LEAF (its name, from -DLEAF): work;mid;LEAF.  -DPAD=N puts N bytes
 * of .rodata before the unwind tables, for a file longer than the other;
 * -DFRAME=N gives mid an N-byte frame, for tables that differ.
 */
#include <time.h>

#define NOINLINE __attribute__((noinline))

#ifndef FRAME
#define FRAME 16
#endif

#ifdef PAD
const unsigned char pad[PAD] = { 1 };
#endif

static volatile unsigned long sink;

NOINLINE void
LEAF(void)
{
	unsigned long x = sink;

	for (int i = 0; i < 100000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
}

static NOINLINE void
mid(void)
{
	volatile unsigned char frame[FRAME];

	frame[0] = 1;
	LEAF();
	sink += frame[0];
}

/* ms of this thread's CPU time. */
void
work(double ms)
{
	struct timespec ts;
	double end;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	end = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 + ms;
	do {
		mid();
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 < end);
}
