/*
 * plt.c: frames perf names from more than a function's symbol, for
 * tests/sample/run.sh to compare with perf script.  Linked with
 * pltlib.c's library and built -O2 -fomit-frame-pointer, it spends its
 * time in
 *
 *	main;plt_add@plt	a stub of .plt (a lazily bound call)
 *	main;plt_got@plt	a stub of .plt.got: plt_got's address is
 *				also taken, so its GOT slot is bound at load
 *	main;clock_gettime@@GLIBC_2.17;__vdso_clock_gettime
 *				libc's default version of a symbol among
 *				its aliases, and the vDSO's function
 *
 * under __libc_start_main@@GLIBC_2.34 (glibc 2.34 and later), and a
 * little in pltlib's functions.
 *
 *	plt MS	rounds until MS ms of its CPU time: a fixed count of them
 *		gave a fast machine too few samples to find each stub
 */
#include <stdlib.h>
#include <time.h>

int plt_add(int x);
int plt_got(int x);

int (*volatile keep)(int);

int
main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 1000;
	struct timespec ts;
	int s = 0;

	keep = plt_got;
	for (long i = 0;; i++) {
		s = plt_add(s);
		s = plt_got(s);
		if ((i & 255) == 0 && clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
			s += (int)(ts.tv_nsec & 1);
		if ((i & 0xfffff) == 0 && clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0 &&
		    ts.tv_sec * 1000 + ts.tv_nsec / 1000000 >= ms)
			break;
	}
	return s == 42;
}
