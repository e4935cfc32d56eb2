/*
 * dlloop.c: a program that loads and unloads a library in a loop, as
 * plug-in hosts do: each dlopen maps the library's code again, and the
 * kernel announces each mapping to a profiler.
 *
 *	dlloop LIBRARY N [move]	dlopen, call its plt_add (pltlib.c) or
 *				its work for 1 ms of CPU time (plugin.c),
 *				dlclose, N times
 *
 * move: the library is loaded at a new address each time, as in a
 * program whose other mappings come and go: the span it took is mapped
 * again, without access, right after dlclose, so that the next dlopen
 * finds it taken and maps the library below it.  The spans so kept lie
 * next to each other, one mapping (one line in /proc/PID/maps) for all.
 *
 * First it reads /dev/zero for 100 ms of its CPU time, nearly all of it
 * in the kernel: the profiler then names kernel frames in any run, and
 * the memory that takes (kallsyms) is not what tells runs apart.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define CPU_MS_CLOCK CLOCK_PROCESS_CPUTIME_ID
#include "cpums.h"

static void
kernel_time(double ms)
{
	static char buf[1 << 20];
	int fd = open("/dev/zero", O_RDONLY);
	double end = cpu_ms() + ms;

	while (fd >= 0 && cpu_ms() < end)
		if (read(fd, buf, sizeof buf) < 0)
			break;
	if (fd >= 0)
		close(fd);
}

#include "dlmove.h"

int
main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1000;
	int move = argc > 3 && strcmp(argv[3], "move") == 0;
	int sum = 0;

	kernel_time(100);
	for (long i = 0; i < n; i++) {
		void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		int (*f)(int);
		void (*w)(double);

		if (h == NULL) {
			fprintf(stderr, "dlloop: %s\n", dlerror());
			return 1;
		}
		*(void **)&f = dlsym(h, "plt_add");
		*(void **)&w = dlsym(h, "work");
		if (f)
			sum = f(sum);
		else if (w) {
			w(1.0);
			sum++;
		}
		if (dlclose_moving(h, move) == -2) {
			perror("dlloop: mmap");
			return 1;
		}
	}
	return sum != n;
}
