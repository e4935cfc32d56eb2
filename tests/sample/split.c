/*
 * split.c: a program whose profile is known, for unwinders that do not
 * need frame pointers.  Built -O2 -fomit-frame-pointer (tests/sample/
 * run.sh), so that a frame-pointer walk loses the callers and only the
 * binary's CFI finds them.  Of the CPU time:
 *
 *	50%  main;work;path_a;mid_a;leaf_a
 *	30%  main;work;path_b;leaf_b
 *	20%  main;work;path_c;leaf_c     (path_c calls through a pointer)
 *
 * the same loop in each leaf, 5, 3 and 2 units a round.  The callers
 * are not inlined and do work after their call (no tail calls), and keep
 * things on their stacks, so that their CFA rules differ from a leaf's.
 *
 *	split MS	MS milliseconds of CPU time
 */
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

/* In each leaf, so that the leaves are the functions sampled. */
static inline __attribute__((always_inline)) unsigned long
spin(unsigned long x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

/* Three leaves with the same loop, each its own code. */
static NOINLINE unsigned long leaf_a(unsigned long x, long n) { return spin(x, n) ^ 1; }
static NOINLINE unsigned long leaf_b(unsigned long x, long n) { return spin(x, n) ^ 2; }
static NOINLINE unsigned long leaf_c(unsigned long x, long n) { return spin(x, n) ^ 3; }

/* A frame with locals: its CFA is rsp plus a frame's size. */
static NOINLINE unsigned long
mid_a(unsigned long x, long n)
{
	volatile unsigned long keep[8];

	for (int i = 0; i < 8; i++)
		keep[i] = x + (unsigned long)i;
	x = leaf_a(keep[3], n);
	return x + keep[5];
}

static NOINLINE unsigned long
path_a(unsigned long x, long n)
{
	x = mid_a(x, 5 * n);
	sink = x;
	return x + 1;
}

static NOINLINE unsigned long
path_b(unsigned long x, long n)
{
	x = leaf_b(x, 3 * n);
	sink = x;
	return x + 2;
}

static unsigned long (*volatile leaf_c_ptr)(unsigned long, long) = leaf_c;

static NOINLINE unsigned long
path_c(unsigned long x, long n)
{
	x = leaf_c_ptr(x, 2 * n);
	sink = x;
	return x + 3;
}

#define CPU_MS_CLOCK CLOCK_PROCESS_CPUTIME_ID
#include "cpums.h"

/*
 * Rounds until ms of CPU time are used.  Their lengths vary, so that the
 * loop cannot lock to a sampling clock's period and its samples fall on
 * one phase of it (tests/sample/hot.c says why).
 */
static NOINLINE unsigned long
work(double ms)
{
	double end = cpu_ms() + ms;
	unsigned long x = 1, r = 7;

	do {
		for (int i = 0; i < 20; i++) {
			long n;

			r = r * 6364136223846793005ul + 1442695040888963407ul;
			n = 2000 + (long)(r >> 33) % 4000;
			x = path_a(x, n);
			x = path_b(x, n);
			x = path_c(x, n);
		}
	} while (cpu_ms() < end);
	return x;
}

int
main(int argc, char **argv)
{
	sink = work(argc > 1 ? atof(argv[1]) : 1000);
	return 0;
}
