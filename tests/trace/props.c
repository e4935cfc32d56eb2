/*
 * props: a request loop with properties and events, for the check in
 * run.sh: each "request" gets user and rows properties, every tenth
 * request's "query" a "cache-miss" event; some users' names hold bytes
 * that must be escaped in spans(5) and JSON.
 *	props N		(N requests, default 100)
 */
#include <stdio.h>
#include <stdlib.h>

#include "trace_record.h"

static volatile unsigned sink;

static void
work(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned)i * 2654435761u;
}

int
main(int argc, char **argv)
{
	static const char *const users[] = { "alice", "bob", "carol \"c\"\t\\x\n<é>" };
	int n = argc > 1 ? atoi(argv[1]) : 100;

	for (int i = 0; i < n; i++) {
		tr_span req = tr_begin("request");
		char user[64];

		snprintf(user, sizeof user, "%s-%d", users[i % 3], i);
		tr_prop(req, "user", user);
		tr_prop_int(req, "rows", i);
		work(100);
		tr_span q = tr_begin("query");

		work(200);
		if (i % 10 == 0)
			tr_event("cache-miss");
		work(200);
		tr_end(q);
		tr_end(req);
	}
	return 0;
}
