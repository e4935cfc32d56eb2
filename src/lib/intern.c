/*
 * intern: see intern.h for the design note.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "intern.h"
#include "sort.h"

#define INITIAL_SLOTS 1024

void
intern_init(struct intern *t)
{
	arena_init(&t->arena);
	t->ents = NULL;
	t->nents = t->cap = 0;
	t->slots = xzalloc(INITIAL_SLOTS, sizeof *t->slots);
	t->mask = INITIAL_SLOTS - 1;
}

void
intern_free(struct intern *t)
{
	arena_free(&t->arena);
	free(t->ents);
	free(t->slots);
	t->ents = NULL;
	t->slots = NULL;
	t->nents = t->cap = 0;
}


/*
 * The 128-bit product's halves xored.  Where the compiler has no 128-bit
 * integer (32-bit targets), the product is put together from 32-bit
 * halves: the same value, so hashes and SVG ids do not depend on it.
 */
static inline uint64_t
mix(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 r = (unsigned __int128)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
#else
	uint64_t al = a & 0xffffffffu, ah = a >> 32;
	uint64_t bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
	uint64_t lo = (mid << 32) | (ll & 0xffffffffu);
	uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);

	return lo ^ hi;
#endif
}

static inline uint32_t
rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * The last n (1 to 7) bytes of a key of len bytes, as memcpy into a zeroed
 * word would give them, without memcpy's byte loop: its branch on n
 * mispredicts on keys of varied lengths, and that was most of the hash.
 * A key of 8 bytes or more is read as the word that ends at its end,
 * shifted; a shorter one as two overlapping reads, whose common bytes
 * agree, so OR puts each byte where memcpy would.
 */
static inline uint64_t
rdtail(const unsigned char *p, size_t n, size_t len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (len >= 8)
		return intern_rd64(p + n - 8) >> (64 - 8 * n);
	if (n >= 4)
		return rd32(p) | (uint64_t)rd32(p + n - 4) << (8 * (n - 4));
	return p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) |
	    (uint64_t)p[n - 1] << (8 * (n - 1));
#else
	uint64_t v = 0;

	(void)len;
	memcpy(&v, p, n);
	return v;
#endif
}

uint64_t
intern_hash(const void *vp, size_t len)
{
	const unsigned char *p = vp;
	const uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
	size_t n = len;
	/*
	 * The length is mixed into a full-width seed, because the mixes below
	 * multiply by h ^ k0: with h = k0 ^ len, a key of 1 to 7 bytes was
	 * multiplied by its length, the product's high half was near zero,
	 * and the slot came from the key's first bytes (fn_0 .. fn_4999 on a
	 * few slots, probing quadratic).
	 */
	uint64_t h = mix(k0 ^ n, k1), tail = 0;

	while (n >= 16) {
		h = mix(intern_rd64(p) ^ k1, intern_rd64(p + 8) ^ h);
		p += 16;
		n -= 16;
	}
	if (n >= 8) {
		h = mix(intern_rd64(p) ^ k1, h ^ k0);
		p += 8;
		n -= 8;
	}
	if (n)
		tail = rdtail(p, n, len);
	return mix(tail ^ k1 ^ ((uint64_t)n << 56), h ^ k0);
}

/* Whether a hit's n bytes are equal; keys under 8 bytes as rdtail reads them. */
static inline int
key_eq(const unsigned char *a, const unsigned char *b, size_t n)
{
	if (n < 8)
		return n == 0 || rdtail(a, n, n) == rdtail(b, n, n);
	return intern_eq_long(a, b, n);
}

static void
grow(struct intern *t)
{
	size_t nslots = (t->mask + 1) * 2, i, j;
	uint32_t *s = xzalloc(nslots, sizeof *s);

	for (i = 0; i < t->nents; i++) {
		j = t->ents[i].hash & (nslots - 1);
		while (s[j])
			j = (j + 1) & (nslots - 1);
		s[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = s;
	t->mask = nslots - 1;
}

uint32_t
intern_put_h(struct intern *t, const void *key, size_t len, uint64_t h,
    int *isnew)
{
	size_t i = h & t->mask;
	uint32_t s;
	struct intern_entry *e;

	if (len >= UINT32_MAX)
		die(EXIT_INPUT, "name of %zu bytes is too long", len);
	while ((s = t->slots[i]) != 0) {
		e = &t->ents[s - 1];
		if (e->hash == h && e->len == len &&
		    key_eq((const unsigned char *)e->key, key, len)) {
			if (isnew)
				*isnew = 0;
			return s - 1;
		}
		i = (i + 1) & t->mask;
	}
	if (t->nents >= UINT32_MAX - 1)
		die(EXIT_INPUT, "more than %u distinct names", UINT32_MAX - 1);
	/* the test inline: the call was a sixth of a new name's cost */
	if (t->nents >= t->cap)
		t->ents = xgrow(t->ents, &t->cap, t->nents + 1, sizeof *t->ents);
	e = &t->ents[t->nents];
	e->key = arena_strndup(&t->arena, key, len);
	e->len = (uint32_t)len;
	e->hash = h;
	t->slots[i] = (uint32_t)++t->nents;
	if (t->nents * 2 > t->mask + 1)
		grow(t);
	if (isnew)
		*isnew = 1;
	return (uint32_t)t->nents - 1;
}

uint32_t
intern_put(struct intern *t, const void *key, size_t len, int *isnew)
{
	return intern_put_h(t, key, len, intern_hash(key, len), isnew);
}

int
intern_find(const struct intern *t, const void *key, size_t len, uint32_t *id)
{
	uint64_t h = intern_hash(key, len);
	size_t i = h & t->mask;
	uint32_t s;

	while ((s = t->slots[i]) != 0) {
		const struct intern_entry *e = &t->ents[s - 1];

		if (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0) {
			*id = s - 1;
			return 0;
		}
		i = (i + 1) & t->mask;
	}
	return -1;
}

int
intern_cmp(const struct intern *t, uint32_t a, uint32_t b)
{
	uint32_t la = intern_len(t, a), lb = intern_len(t, b);
	int r = memcmp(intern_str(t, a), intern_str(t, b), la < lb ? la : lb);

	return r ? r : (la > lb) - (la < lb);
}

static int
cmp_keys(const void *va, const void *vb, const void *ctx)
{
	return intern_cmp(ctx, *(const uint32_t *)va, *(const uint32_t *)vb);
}

void
intern_sort(const struct intern *t, uint32_t *ids, size_t n)
{
	sort_ctx(ids, n, sizeof *ids, cmp_keys, t);
}
