/*
 * split: a format whose records reset at a known line (gdb, jstack,
 * dtrace, stap: struct format's split) collapsed on several threads, as
 * perf's driver does (perfrun.c), with the output of one thread.
 *
 * Only a mapped input is split: its windows (input.h) lie one after the
 * other in the mapping, so the part of a window after its last record
 * start is parsed with the next window without a copy.  Each window is
 * cut at record starts near its 1/k marks into k parts; each part is
 * parsed from the format's initial state (reader.part set: no file header
 * to skip) on its own thread into a sink of its own, quietly.  Then, in
 * input order, a part's sums are added to the input's sink, unless the
 * part had something to say (an error, a skipped line, a sum too large):
 * that part is parsed again on the input's own sink with its first line's
 * number and the skipped lines before it, so the messages are word for
 * word those of one thread, and after an error no later part counts.  The
 * part after the last window's last record start is parsed last, on the
 * input's sink, with the input's end.  Pipes and gzip inputs, and
 * --no-aggregate (stacks in input order), take one thread.
 * Rejected: splitting every buffered input (a pipe's buffer is not kept
 * once handed out, so a window's unfinished record would be copied).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/input.h"
#include "formats.h"

/* Parts below this size are not worth a thread. */
#define MIN_PART (4u << 20)

struct part {
	const struct format *f;
	const char *p, *e;
	int first;		/* starts the file (its header, if any) */
	struct input in;	/* over p..e, ended there */
	struct reader r;
	struct sink sink;
	int noisy;		/* an error, a skipped line or an overflow */
	int ret;
};

/* A reader over p..e: an input with nothing to read beyond its block. */
static void
part_reader(struct part *t, const char *name, struct sink *sink)
{
	memset(&t->in, 0, sizeof t->in);
	t->in.name = name;
	t->in.fd = -1;
	t->in.eof = 1;
	t->in.lp = t->p;
	t->in.lend = t->e;
	memset(&t->r, 0, sizeof t->r);
	t->r.in = &t->in;
	t->r.name = name;
	t->r.sink = sink;
	t->r.part = !t->first;
}

static void *
run_part(void *arg)
{
	struct part *t = arg;

	t->r.quiet = 1;
	t->ret = t->f->collapse(&t->r);
	t->noisy = t->ret < 0 || t->r.noisy || t->r.nskipped || t->sink.failed;
	return NULL;
}

/*
 * Parse p..e on the input's reader rd and sink: with its messages, at
 * rd's line and skip count.  Returns the collapse's result.
 */
static int
parse_on(const struct format *f, struct reader *rd, const char *p,
    const char *e, int first)
{
	struct part t;
	int ret;

	t.f = f;
	t.p = p;
	t.e = e;
	t.first = first;
	part_reader(&t, rd->name, rd->sink);
	t.r.line = rd->line;
	t.r.nskipped = rd->nskipped;
	rd->sink->rd = &t.r;
	ret = f->collapse(&t.r);
	rd->sink->rd = rd;
	rd->line = t.r.line;
	rd->nskipped = t.r.nskipped;
	return ret < 0 || rd->sink->failed ? -1 : 0;
}

/* The first record start after a line that ends in at..e, or e. */
static const char *
record_at(const struct format *f, const char *at, const char *e)
{
	return at + f->split(at, (size_t)(e - at));
}

/* Add a part's sums to the input's sink, in its order; -1 on overflow. */
static int
add_sums(struct reader *rd, struct part *t)
{
	struct folded_sum *from = &t->sink.m.sum, *to = &rd->sink->m.sum;

	for (uint32_t id = 0; id < folded_sum_n(from); id++) {
		size_t n;
		const char *s = folded_sum_stack(from, id, &n);

		if (folded_sum_add(to, s, n, 0, folded_sum_count(from, 0, id)) < 0) {
			warn_at(rd->name, rd->line + t->r.line,
			    "a stack's counts sum to 2^64 or more");
			rd->sink->failed = 1;
			return -1;
		}
	}
	return 0;
}

/*
 * Parse the records of p..e, a window's, in up to k parts on threads;
 * returns where the unparsed rest starts (at a record start), or NULL
 * after an error (reported).
 */
static const char *
parse_window(const struct format *f, struct reader *rd, const char *file,
    const char *p, const char *seen, const char *e, int k)
{
	struct part parts[FMT_MAX_THREADS];
	pthread_t tids[FMT_MAX_THREADS];
	const char *cut, *b = p, *lo;
	size_t w = 64u << 10;
	int np = 0, i, ret = 0;

	/*
	 * The window's end: a record start near it.  Bytes before seen held
	 * none (but for a line across seen), so a record longer than the
	 * windows is not searched again and again.
	 */
	lo = (size_t)(seen - p) > w ? seen - w : p;
	for (cut = e;; w *= 2) {
		const char *from = (size_t)(e - lo) > w ? e - w : lo;

		if ((cut = record_at(f, from, e)) < e || from == lo)
			break;
	}
	if (cut >= e || cut == p)
		return p;
	if ((size_t)(cut - p) / MIN_PART < (size_t)k)
		k = (int)((size_t)(cut - p) / MIN_PART);
	if (k <= 1)
		return parse_on(f, rd, p, cut, p == file) < 0 ? NULL : cut;
	for (i = 0; i < k && b < cut; i++) {
		const char *pe = i == k - 1 ? cut :
		    record_at(f,
		    p + (size_t)(cut - p) * (size_t)(i + 1) / (size_t)k, cut);
		struct part *t = &parts[np++];

		t->f = f;
		t->p = b;
		t->e = pe;
		t->first = b == file;
		sink_init(&t->sink, rd->sink->run);
		part_reader(t, rd->name, &t->sink);
		t->sink.rd = &t->r;
		b = pe;
	}
	for (i = 1; i < np; i++)
		if (pthread_create(&tids[i], NULL, run_part, &parts[i]) != 0)
			die(EXIT_INPUT, "cannot start a thread");
	run_part(&parts[0]);
	for (i = 1; i < np; i++)
		pthread_join(tids[i], NULL);
	for (i = 0; i < np; i++) {
		struct part *t = &parts[i];

		if (ret == 0 && t->noisy)
			ret = parse_on(f, rd, t->p, t->e, t->first);
		else if (ret == 0) {
			ret = add_sums(rd, t);
			rd->line += t->r.line;
		}
		sink_finish(&t->sink, 0);
	}
	return ret < 0 ? NULL : cut;
}

int
split_collapse(const struct format *f, struct reader *rd, int nthreads)
{
	struct input *in = rd->in;
	const char *file = in->map, *rest = NULL, *p;
	size_t n;
	int at, r;

	while ((r = input_next(in, &p, &n, &at)) > 0) {
		if (rest == NULL)
			rest = p;
		if ((rest = parse_window(f, rd, file, rest, p, p + n,
		    nthreads)) == NULL)
			return -1;
	}
	if (r < 0)
		return -1;
	if (rest == NULL)
		rest = file + in->maplen;
	return parse_on(f, rd, rest, file + in->maplen, rest == file);
}
