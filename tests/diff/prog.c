/*
 * The program of flamegraph-svg(1)'s differential example
 * (tests/record-diff.sh records it twice): it loads records, sorts them,
 * and checks them.  The change between the two builds moves the hot spot:
 * before (plain build), the sort is an insertion sort and a legacy_scan
 * pass runs; after (-DAFTER), the sort is a merge sort and legacy_scan is
 * replaced by validate, which runs longer.  So the after profile has a
 * smaller sort, a frame only it has (validate), and one it lost
 * (legacy_scan).  Built without optimisation, so that no call is inlined.
 */
#include <stdlib.h>
#include <string.h>

#define N 4000

static unsigned seed = 1;

static unsigned
next(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

static void
load(unsigned *a, int n)
{
	for (int i = 0; i < n; i++)
		a[i] = next();
}

#ifndef AFTER
static void
insertion_sort(unsigned *a, int n)
{
	for (int i = 1; i < n; i++) {
		unsigned v = a[i];
		int j = i;

		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static unsigned
legacy_scan(const unsigned *a, int n)
{
	unsigned h = 0;

	for (int k = 0; k < 300; k++)
		for (int i = 0; i < n; i++)
			h = h * 31 + a[i];
	return h;
}
#else
static void
merge_sort(unsigned *a, unsigned *t, int n)
{
	int h = n / 2;

	if (n < 2)
		return;
	merge_sort(a, t, h);
	merge_sort(a + h, t, n - h);
	for (int i = 0, j = h, k = 0; k < n; k++)
		t[k] = j >= n || (i < h && a[i] <= a[j]) ? a[i++] : a[j++];
	memcpy(a, t, (size_t)n * sizeof *a);
}

static unsigned
validate(const unsigned *a, int n)
{
	unsigned bad = 0;

	for (int k = 0; k < 500; k++)
		for (int i = 1; i < n; i++)
			bad += a[i - 1] > a[i];
	return bad;
}
#endif

static unsigned
run(unsigned *a, unsigned *t)
{
	load(a, N);
#ifndef AFTER
	(void)t;
	insertion_sort(a, N);
	return legacy_scan(a, N);
#else
	merge_sort(a, t, N);
	return validate(a, N);
#endif
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	unsigned *a = malloc(N * sizeof *a), *t = malloc(N * sizeof *t), s = 0;

	(void)argv;
	if (!a || !t)
		return 1;
	for (int r = 0; r < rounds; r++)
		s += run(a, t);
	free(a);
	free(t);
	return (int)(s & 1);
}
