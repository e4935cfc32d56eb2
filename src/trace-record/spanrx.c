/*
 * spanrx: see spanrx.h for the design note.
 */
#include "spanrx.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/err.h"
#include "collect.h"
#include "record.h"
#include "spanjoin.h"
#include "spawn.h"

/* As record.c waits: a straggler silent this long is not waited for. */
#define GRACE_MS 500

struct spanrx {
	struct channel	 ch;
	struct collect	*c;
	uint64_t	 bad;
	int		 open;		/* some writer still holds the socket */
};

struct spanrx *
spanrx_open(uint32_t nbufs)
{
	struct spanrx *x = xcalloc(1, sizeof *x);

	record_channel_open(&x->ch, nbufs);
	x->c = collect_new(x->ch.shm, nbufs, 0);
	collect_with_samples(x->c);
	x->open = 1;
	return x;
}

void
spanrx_child(const struct spanrx *x, const struct clockcal *cal)
{
	record_child_env(&x->ch, cal);
}

void
spanrx_started(struct spanrx *x)
{
	close(x->ch.sock[1]);
	close(x->ch.shmfd);
}

int
spanrx_fd(const struct spanrx *x)
{
	return x->ch.sock[0];
}

void
spanrx_take(struct spanrx *x)
{
	if (x->open)
		x->open = record_take(x->ch.sock[0], x->c, &x->bad);
}

void
spanrx_finish(struct spanrx *x)
{
	while (x->open) {
		struct pollfd p = { .fd = x->ch.sock[0], .events = POLLIN };
		int r = poll(&p, 1, GRACE_MS);

		if (r < 0 && errno != EINTR)
			die(EXIT_SELF, "poll:");
		if (r == 0 && !collect_recording(x->c))
			break;
		spanrx_take(x);
	}
}

void
spanrx_write(struct spanrx *x, const struct clockcal *cal, char **argv,
    int64_t elapsed, struct recs *r, struct report_opts *ro,
    struct report_stats *st)
{
	struct collect_span *v;
	struct spanjoin j;
	size_t n;

	collect_write(x->c, cal, argv, x->bad, elapsed);
	n = collect_spans(x->c, cal, &v);
	spanjoin_init(&j, v, n);
	ro->join = &j;
	report_write(r, ro, st);
	ro->join = NULL;
	spanjoin_free(&j);
	free(v);
}

void
spanrx_free(struct spanrx *x)
{
	if (x == NULL)
		return;
	if (x->bad)
		warn_msg("%llu malformed packets ignored", (unsigned long long)x->bad);
	if (collect_dropped(x->c))
		warn_msg("%llu spans dropped (buffers full; see --buffers)",
		    (unsigned long long)collect_dropped(x->c));
	collect_free(x->c);
	munmap(x->ch.shm, x->ch.shmsize);
	close(x->ch.sock[0]);
	free(x);
}
