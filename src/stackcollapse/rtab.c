/*
 * rtab: see rtab.h for the design note.  A record is a header (key and
 * value lengths, the key's full hash), the value padded to 8 bytes, then
 * the key padded to 8.  The hash is kept for growth, which walks the
 * records in order and places each by its hash's low bits without
 * reading its key.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/intern.h"
#include "rtab.h"

#define INITIAL_SLOTS 1024

struct rec {
	uint32_t klen, vlen;
	uint64_t hash;
};

static inline size_t
pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

void
rtab_init(struct rtab *t)
{
	memset(t, 0, sizeof *t);
	t->slots = xzalloc(INITIAL_SLOTS, sizeof *t->slots);
	t->mask = INITIAL_SLOTS - 1;
}

void
rtab_free(struct rtab *t)
{
	free(t->slots);
	free(t->buf);
	memset(t, 0, sizeof *t);
}

/*
 * Whether a stored key equals b[0..n), inline (intern.h).  Short keys go
 * to memcmp, whose bytes past the key b may not have.
 */
static inline int
same_key(const unsigned char *a, const unsigned char *b, size_t n)
{
	return n < 8 ? memcmp(a, b, n) == 0 : intern_eq_long(a, b, n);
}

static inline const struct rec *
rec_at(const struct rtab *t, uint64_t slot)
{
	return (const struct rec *)(const void *)(t->buf +
	    ((size_t)(uint32_t)slot - 1) * 8);
}

void *
rtab_find(const struct rtab *t, const void *key, size_t klen, uint64_t h)
{
	size_t i = h & t->mask;
	uint64_t s, tag = h >> 32;

	while ((s = t->slots[i]) != 0) {
		const struct rec *r = rec_at(t, s);

		if (s >> 32 == tag && r->klen == klen &&
		    same_key((const unsigned char *)(r + 1) + pad8(r->vlen),
		    key, klen))
			return (void *)(r + 1);
		i = (i + 1) & t->mask;
	}
	return NULL;
}

/* The slot where a record of hash h goes in a fresh probe from h. */
static size_t
free_slot(const struct rtab *t, uint64_t h)
{
	size_t i = h & t->mask;

	while (t->slots[i] != 0)
		i = (i + 1) & t->mask;
	return i;
}

static void
grow(struct rtab *t)
{
	free(t->slots);
	t->mask = t->mask * 2 + 1;
	t->slots = xzalloc(t->mask + 1, sizeof *t->slots);
	for (size_t r = 0; r < t->len; r = rtab_next(t, r)) {
		const struct rec *h = (const void *)(t->buf + r);

		t->slots[free_slot(t, h->hash)] = (h->hash >> 32) << 32 |
		    (uint64_t)(r / 8 + 1);
	}
}

void *
rtab_add(struct rtab *t, const void *key, size_t klen, uint64_t h,
    size_t vlen)
{
	size_t size = sizeof(struct rec) + pad8(vlen) + pad8(klen);
	size_t r = t->len;
	struct rec *rec;
	unsigned char *v;

	if (klen >= UINT32_MAX || vlen >= UINT32_MAX)
		die(EXIT_INPUT, "a key of %zu bytes is too long", klen);
	if ((r + size) / 8 >= UINT32_MAX)
		die(EXIT_INPUT, "distinct stacks and frame lines take "
		    "32 GiB or more");
	t->buf = xgrow(t->buf, &t->cap, r + size, 1);
	t->len = r + size;
	rec = (struct rec *)(void *)(t->buf + r);
	rec->klen = (uint32_t)klen;
	rec->vlen = (uint32_t)vlen;
	rec->hash = h;
	v = (unsigned char *)(rec + 1);
	memset(v, 0, size - sizeof *rec);
	memcpy(v + pad8(vlen), key, klen);
	t->slots[free_slot(t, h)] = (h >> 32) << 32 | (uint64_t)(r / 8 + 1);
	if (++t->n * 2 > t->mask + 1)
		grow(t);
	return v;
}

size_t
rtab_next(const struct rtab *t, size_t r)
{
	const struct rec *h = (const void *)(t->buf + r);

	return r + sizeof *h + pad8(h->vlen) + pad8(h->klen);
}

const void *
rtab_key(const struct rtab *t, size_t r, size_t *klen)
{
	const struct rec *h = (const void *)(t->buf + r);

	*klen = h->klen;
	return (const unsigned char *)(h + 1) + pad8(h->vlen);
}

void *
rtab_val(const struct rtab *t, size_t r)
{
	return t->buf + r + sizeof(struct rec);
}
