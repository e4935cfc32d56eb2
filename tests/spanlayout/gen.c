/*
 * gen: a synthetic trace for spanlayout's benchmark, in spans(5).
 *	gen SPANS [SEED]
 * Four threads, each a call tree: a span calls 0-4 children one after
 * another (depth up to 24, names from a pool of 500), as an instrumented
 * program does; 5% of children outlive their parent and 5% start before
 * their previous sibling ends (work handed to other threads and async
 * tasks), which is what makes a layout more than depth = nesting.
 * Deterministic for a seed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t seed = 1;
static long left, nextid = 1;

static uint64_t
rnd(uint64_t m)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (seed >> 33) % m;
}

/* A span starting at t under parent; returns when its subtree ends. */
static int64_t
span(uint64_t parent, int64_t t, int depth, int track)
{
	long id = nextid++;
	int64_t at = t + 1 + (int64_t)rnd(50), end, last = 0;
	int kids = depth >= 24 ? 0 : (int)rnd(depth < 3 ? 5 : 4);

	left--;
	for (int k = 0; k < kids && left > 0; k++) {
		int64_t e;

		if (rnd(20) == 0 && at > t + 20)
			at -= (int64_t)rnd(20);	/* overlaps the previous sibling */
		e = span((uint64_t)id, at, depth + 1, track);
		last = e > last ? e : last;
		at = at + (e - at) / (rnd(20) == 0 ? 2 : 1) + (int64_t)rnd(30);
	}
	end = at + 1 + (int64_t)rnd(100);
	if (depth > 0 && rnd(20) == 0)
		end -= (int64_t)rnd((uint64_t)(end - t));	/* a child outlives this */
	if (end <= t)
		end = t + 1;
	printf("%ld\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\ttid:%d\tfn_%d\n",
	    id, parent, t, end - t, 100 + track, (int)rnd(500));
	return end > last ? end : last;
}

int
main(int argc, char **argv)
{
	long total = argc > 1 ? atol(argv[1]) : 1000000;
	int64_t t[4] = { 0, 0, 0, 0 };

	seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	left = total;
	printf("# spans v1\n");
	while (left > 0) {
		int track = (int)rnd(4);

		t[track] = span(0, t[track], 0, track) + (int64_t)rnd(1000);
	}
	return 0;
}
