/*
 * dlloop.c: a program that loads and unloads a library in a loop, as
 * plug-in hosts do: each dlopen maps the library's code again, and the
 * kernel announces each mapping to a profiler.
 *
 *	dlloop LIBRARY N	dlopen, call its plt_add (pltlib.c), dlclose,
 *				N times
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1000;
	int sum = 0;

	for (long i = 0; i < n; i++) {
		void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		int (*f)(int);

		if (h == NULL) {
			fprintf(stderr, "dlloop: %s\n", dlerror());
			return 1;
		}
		*(void **)&f = dlsym(h, "plt_add");
		if (f)
			sum = f(sum);
		dlclose(h);
	}
	return sum != n;
}
