/*
 * recs.c: the record store of recs.h: one growing byte buffer for the
 * payloads and an array of small headers (32 bytes) that sorting moves.
 * Each record takes room in the buffer, at least one byte, so that the
 * offsets of its payload order records by arrival.
 */
#include "recs.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "spawn.h"

static size_t
room(struct recs *r, size_t n)
{
	size_t at = (r->used + 7) & ~(size_t)7;

	if (n > UINT32_MAX)
		die(EXIT_SELF, "a record of %zu bytes", n);
	r->buf = xgrow(r->buf, &r->bufcap, at + (n ? n : 1), 1);
	r->used = at + (n ? n : 1);
	return at;
}

static struct rec *
header(struct recs *r, uint32_t type, int64_t time, uint32_t pid, uint32_t tid,
    uint32_t flags, size_t off, size_t len)
{
	struct rec *e;

	r->v = xgrow(r->v, &r->cap, r->n + 1, sizeof *r->v);
	e = &r->v[r->n];
	e->time = time;
	e->type = (uint16_t)type;
	e->pid = pid;
	e->tid = tid;
	e->flags = (uint16_t)flags;
	e->off = off;
	e->len = (uint32_t)len;
	r->n++;
	return e;
}

void
recs_init(struct recs *r)
{
	memset(r, 0, sizeof *r);
	chains_init(&r->chains);
}

void
recs_add(struct recs *r, uint32_t type, int64_t time, uint32_t pid, uint32_t tid,
    uint32_t flags, const void *payload, size_t n)
{
	size_t at = room(r, n);

	header(r, type, time, pid, tid, flags, at, n);
	if (n)
		memcpy(r->buf + at, payload, n);
}

void
recs_sample(struct recs *r, int64_t time, uint32_t pid, uint32_t tid,
    const struct rec_sample *s, const uint64_t *kern, const uint64_t *user,
    uint32_t nuser)
{
	size_t n = sizeof *s + ((size_t)s->nkernel + nuser) * 8;
	size_t at = room(r, n);
	struct rec_sample *d = (struct rec_sample *)(void *)(r->buf + at);

	*d = *s;
	d->n = s->nkernel + nuser;
	d->ustack = 0;
	if (s->nkernel)
		memcpy(d + 1, kern, (size_t)s->nkernel * 8);
	if (nuser)
		memcpy((uint64_t *)(void *)(d + 1) + s->nkernel, user, (size_t)nuser * 8);
	header(r, REC_SAMPLE, time, pid, tid, 0, at, n);
	r->samples++;
}

void
recs_sample_stack(struct recs *r, int64_t time, uint32_t pid, uint32_t tid,
    const struct rec_sample *s, const uint64_t *kern, const struct rec_ustack *u,
    const void *stack)
{
	size_t fr = (size_t)s->nkernel * 8, n = sizeof *s + fr + sizeof *u + u->len;
	size_t at = room(r, n);
	unsigned char *d = r->buf + at;
	struct rec_sample h = *s;

	h.n = s->nkernel;
	h.ustack = (uint32_t)(sizeof *u + u->len);
	memcpy(d, &h, sizeof h);
	if (fr)
		memcpy(d + sizeof h, kern, fr);
	memcpy(d + sizeof h + fr, u, sizeof *u);
	if (u->len)
		memcpy(d + sizeof h + fr + sizeof *u, stack, u->len);
	header(r, REC_SAMPLE, time, pid, tid, 0, at, n);
	r->samples++;
}

void
recs_settled(struct recs *r, int64_t time, uint32_t pid, uint32_t tid,
    const struct rec_settled *s, const struct rec_block *b)
{
	size_t n = sizeof *s + (b ? sizeof *b : 0), at = room(r, n);

	memcpy(r->buf + at, s, sizeof *s);
	if (b)
		memcpy(r->buf + at + sizeof *s, b, sizeof *b);
	header(r, REC_SETTLED, time, pid, tid, 0, at, n);
	r->samples++;
}

static int
by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

void
recs_sort(struct recs *r)
{
	if (r->n > 1)
		qsort(r->v, r->n, sizeof *r->v, by_time);
}

static int
by_arrival(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

void
recs_drop(struct recs *r, size_t k)
{
	size_t at = 0;

	r->n -= k;
	if (r->n == 0) {	/* (r->v may be NULL: nothing was ever kept) */
		r->used = 0;
		return;
	}
	memmove(r->v, r->v + k, r->n * sizeof *r->v);
	/* Payloads lie in arrival order: each moves down, none over another. */
	qsort(r->v, r->n, sizeof *r->v, by_arrival);
	for (size_t i = 0; i < r->n; i++) {
		at = (at + 7) & ~(size_t)7;
		memmove(r->buf + at, r->buf + r->v[i].off, r->v[i].len);
		r->v[i].off = at;
		at += r->v[i].len ? r->v[i].len : 1;
	}
	r->used = at;
}

void
recs_free(struct recs *r)
{
	free(r->v);
	free(r->buf);
	chains_free(&r->chains);
	memset(r, 0, sizeof *r);
}
