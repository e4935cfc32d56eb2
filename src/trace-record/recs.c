/*
 * recs.c: the record store of recs.h: one growing byte buffer for the
 * payloads and an array of small headers that sorting moves.
 */
#include "recs.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"

static size_t
room(struct recs *r, size_t n)
{
	size_t at = (r->used + 7) & ~(size_t)7;

	r->buf = xgrow(r->buf, &r->bufcap, at + n, 1);
	r->used = at + n;
	return at;
}

static struct rec *
header(struct recs *r, uint32_t type, int64_t time, uint32_t pid, uint32_t tid,
    uint32_t flags)
{
	struct rec *e;

	r->v = xgrow(r->v, &r->cap, r->n + 1, sizeof *r->v);
	e = &r->v[r->n];
	e->time = time;
	e->type = type;
	e->pid = pid;
	e->tid = tid;
	e->flags = flags;
	e->seq = r->seq++;
	r->n++;
	return e;
}

void
recs_add(struct recs *r, uint32_t type, int64_t time, uint32_t pid, uint32_t tid,
    uint32_t flags, const void *payload, size_t n)
{
	size_t at = room(r, n);
	struct rec *e = header(r, type, time, pid, tid, flags);

	if (n)
		memcpy(r->buf + at, payload, n);
	e->off = at;
	e->len = n;
}

void
recs_sample(struct recs *r, int64_t time, uint32_t pid, uint32_t tid,
    const struct rec_sample *s, const uint64_t *kern, const uint64_t *user,
    uint32_t nuser)
{
	size_t n = sizeof *s + ((size_t)s->nkernel + nuser) * 8;
	size_t at = room(r, n);
	struct rec *e = header(r, REC_SAMPLE, time, pid, tid, 0);
	struct rec_sample *d = (struct rec_sample *)(void *)(r->buf + at);

	*d = *s;
	d->n = s->nkernel + nuser;
	d->ustack = 0;
	if (s->nkernel)
		memcpy(d + 1, kern, (size_t)s->nkernel * 8);
	if (nuser)
		memcpy((uint64_t *)(void *)(d + 1) + s->nkernel, user, (size_t)nuser * 8);
	e->off = at;
	e->len = n;
	r->samples++;
}

void
recs_sample_stack(struct recs *r, int64_t time, uint32_t pid, uint32_t tid,
    const struct rec_sample *s, const uint64_t *kern, const struct rec_ustack *u,
    const void *stack)
{
	size_t fr = (size_t)s->nkernel * 8, n = sizeof *s + fr + sizeof *u + u->len;
	size_t at = room(r, n);
	struct rec *e = header(r, REC_SAMPLE, time, pid, tid, 0);
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
	e->off = at;
	e->len = n;
	r->samples++;
}

static int
by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void
recs_sort(struct recs *r)
{
	if (r->n > 1)
		qsort(r->v, r->n, sizeof *r->v, by_time);
}

static int
by_seq(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
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
	qsort(r->v, r->n, sizeof *r->v, by_seq);
	for (size_t i = 0; i < r->n; i++) {
		at = (at + 7) & ~(size_t)7;
		memmove(r->buf + at, r->buf + r->v[i].off, r->v[i].len);
		r->v[i].off = at;
		at += r->v[i].len;
	}
	r->used = at;
}

void
recs_free(struct recs *r)
{
	free(r->v);
	free(r->buf);
	memset(r, 0, sizeof *r);
}
