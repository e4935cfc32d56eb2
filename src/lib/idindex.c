/*
 * idindex: see idindex.h for the design note.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "idindex.h"
#include "intern.h"

/*
 * Bits while an id is below DENSE_RATIO * n + DENSE_MARGIN (n the ids
 * added): at most DENSE_RATIO / 8 bytes a span, times 2 for growth, plus
 * 2 MB.  Room for dense ids that come out of order (1M spans into a
 * laid-out gen.c trace, ids reach 4.9M) and for ids a filter skipped.
 */
#define DENSE_RATIO 64
#define DENSE_MARGIN ((uint64_t)1 << 24)

void
idseen_init(struct idseen *x)
{
	memset(x, 0, sizeof *x);
}

void
idseen_free(struct idseen *x)
{
	free(x->bits);
	free(x->set);
	memset(x, 0, sizeof *x);
}

/* The slot of id in the set: its own, or the empty one it would take. */
static size_t
set_slot(const struct idseen *x, uint64_t id)
{
	size_t mask = x->setcap - 1, h = (size_t)intern_hash_u64(id) & mask;

	while (x->set[h] && x->set[h] != id)
		h = (h + 1) & mask;
	return h;
}

static void
set_grow(struct idseen *x)
{
	uint64_t *old = x->set;
	size_t oldcap = x->setcap;

	x->setcap = oldcap ? 2 * oldcap : 1024;
	x->set = xzalloc(x->setcap, sizeof *x->set);
	for (size_t i = 0; i < oldcap; i++)
		if (old[i])
			x->set[set_slot(x, old[i])] = old[i];
	free(old);
}

int
idseen_add(struct idseen *x, uint64_t id)
{
	if (id >= x->nbits && id < DENSE_RATIO * (uint64_t)(x->n + 1) + DENSE_MARGIN) {
		uint64_t nbits = x->nbits ? 2 * x->nbits : 1 << 16;

		if (nbits <= id)
			nbits = (id | 63) + 1;
		x->bits = xrealloc(x->bits, (size_t)(nbits / 64) * sizeof *x->bits);
		memset(x->bits + x->nbits / 64, 0,
		    (size_t)((nbits - x->nbits) / 64) * sizeof *x->bits);
		x->nbits = nbits;
	}
	/* An id set before the bits reached it is in the set still. */
	if (x->nset && x->set[set_slot(x, id)] == id)
		return 0;
	if (id < x->nbits) {
		uint64_t *w = &x->bits[id / 64], b = (uint64_t)1 << (id % 64);

		if (*w & b)
			return 0;
		*w |= b;
	} else {
		if (2 * (x->nset + 1) > x->setcap)
			set_grow(x);
		x->set[set_slot(x, id)] = id;
		x->nset++;
	}
	x->n++;
	return 1;
}

/* The slot of id when hashed: its own, or the empty one it would take. */
static size_t
probe(const struct idindex *x, const uint64_t *ids, uint64_t id)
{
	size_t mask = x->nslots - 1, h = (size_t)intern_hash_u64(id) & mask;

	while (x->slots[h] && ids[x->slots[h] - 1] != id)
		h = (h + 1) & mask;
	return h;
}

void
idindex_build(struct idindex *x, const uint64_t *ids, size_t n)
{
	uint64_t lo = n ? ids[0] : 0, hi = lo;

	memset(x, 0, sizeof *x);
	for (size_t i = 1; i < n; i++) {
		lo = ids[i] < lo ? ids[i] : lo;
		hi = ids[i] > hi ? ids[i] : hi;
	}
	if (hi - lo < 2 * (uint64_t)n) {
		x->base = lo;
		x->nslots = (size_t)(hi - lo + 1);	/* (n > 0 here) */
		x->slots = xzalloc(x->nslots, sizeof *x->slots);
		for (size_t i = 0; i < n; i++)
			x->slots[ids[i] - lo] = (uint32_t)i + 1;
		return;
	}
	x->hashed = 1;
	x->nslots = 16;
	while (x->nslots < 2 * n)
		x->nslots *= 2;
	x->slots = xzalloc(x->nslots, sizeof *x->slots);
	for (size_t i = 0; i < n; i++)
		x->slots[probe(x, ids, ids[i])] = (uint32_t)i + 1;
}

void
idindex_free(struct idindex *x)
{
	free(x->slots);
	memset(x, 0, sizeof *x);
}

uint32_t
idindex_find(const struct idindex *x, const uint64_t *ids, uint64_t id)
{
	uint32_t s;

	if (x->hashed)
		s = x->slots[probe(x, ids, id)];
	else
		s = id - x->base < x->nslots ? x->slots[id - x->base] : 0;
	return s ? s - 1 : IDINDEX_NONE;
}
