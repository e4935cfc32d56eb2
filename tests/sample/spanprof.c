/*
 * spanprof.c: a request loop with spans, for trace-record --sample
 * --spans.  Each of N requests is a span "request" holding three: parse
 * (3 ms of CPU in parse_work), query (4 ms asleep in query_wait, then
 * 1 ms of CPU in query_cpu) and render (2 ms of CPU in render_work).
 * CPU time is the thread's own clock, so a busy machine stretches the
 * spans, not the share of their samples.
 *
 *	spanprof N
 */
#include <stdlib.h>
#include <time.h>

#include "trace_record.h"

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

#include "cpums.h"

static NOINLINE void
burn(double ms)
{
	double end = cpu_ms() + ms;

	while (cpu_ms() < end)
		for (int i = 0; i < 1000; i++)
			sink = sink * 6364136223846793005ul + 1;
}

static NOINLINE void parse_work(void) { burn(3); }
static NOINLINE void query_cpu(void) { burn(1); }
static NOINLINE void render_work(void) { burn(2); }

static NOINLINE void
query_wait(void)
{
	struct timespec t = { 0, 4000000 };

	while (nanosleep(&t, &t) != 0)
		;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300;

	for (long i = 0; i < n; i++) {
		tr_span req = tr_begin("request"), s;

		s = tr_begin("parse");
		parse_work();
		tr_end(s);
		s = tr_begin("query");
		query_wait();
		query_cpu();
		tr_end(s);
		s = tr_begin("render");
		render_work();
		tr_end(s);
		tr_end(req);
	}
	return 0;
}
