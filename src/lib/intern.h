/*
 * intern: a table that gives each distinct byte string a small integer id.
 *
 * Keys are arbitrary bytes (NULs allowed) copied once into the table's own
 * arena, so a name seen a million times is stored once.  Ids are dense,
 * starting at 0 in insertion order, so callers keep per-key values in plain
 * arrays indexed by id (counts, cached translations).  The index is open
 * addressing with linear probing over a power-of-two slot array holding
 * (hash, id); it grows at 1/2 load.  Each entry keeps its full 64-bit hash so
 * growth never rehashes key bytes and most probe mismatches are rejected
 * without a memcmp.  Rejected: chaining (a pointer chase per probe) and
 * storing keys in the slot array (large slots, slow growth).
 *
 * Not thread-safe: each thread owns its own tables.
 */
#ifndef FT_INTERN_H
#define FT_INTERN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"

struct intern_entry {
	const char *key;	/* NUL-terminated copy in the arena */
	uint32_t len;
	uint64_t hash;
};

struct intern {
	struct arena arena;
	struct intern_entry *ents;
	size_t nents, cap;
	uint32_t *slots;	/* id + 1, 0 = empty */
	size_t mask;
};

void intern_init(struct intern *t);
void intern_free(struct intern *t);

/* 64-bit hash of n bytes (fast, not cryptographic). */
uint64_t intern_hash(const void *p, size_t n);

/* The 8 bytes at p as an integer, in the host's order, at any alignment. */
static inline uint64_t
intern_rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/*
 * Whether the n bytes at a and b are equal, n being 8 or more: a word at
 * a time, the last word overlapping the one before, without the call and
 * the length dispatch of memcmp, which were a fifth of stackcollapse
 * perf's time on keys of 20 to 200 bytes.  Shorter keys are the caller's:
 * how far past them it may read differs.
 */
static inline int
intern_eq_long(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i + 8 < n; i += 8)
		if (intern_rd64(a + i) != intern_rd64(b + i))
			return 0;
	return intern_rd64(a + n - 8) == intern_rd64(b + n - 8);
}

/*
 * A 64-bit integer's hash (murmur3's finalizer: every input bit moves
 * every output bit), for the tables that are keyed by ids, not bytes.
 */
static inline uint64_t
intern_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/*
 * The id of key[0..len), adding it when new (*isnew set to 1, else 0;
 * isnew may be NULL).  len must be below 4 GiB.
 */
uint32_t intern_put(struct intern *t, const void *key, size_t len, int *isnew);
/* Same with a hash already computed by intern_hash. */
uint32_t intern_put_h(struct intern *t, const void *key, size_t len,
    uint64_t h, int *isnew);

/* The id of key[0..len) if present: 0 with *id set, or -1. */
int intern_find(const struct intern *t, const void *key, size_t len,
    uint32_t *id);

/*
 * Compare the keys of ids a and b bytewise as memcmp does, a prefix
 * first: <0, 0 or >0.
 */
int intern_cmp(const struct intern *t, uint32_t a, uint32_t b);

/*
 * Sort ids[0..n) by their keys in intern_cmp's order: the order every
 * program writes stacks and names in.
 */
void intern_sort(const struct intern *t, uint32_t *ids, size_t n);

static inline const char *
intern_str(const struct intern *t, uint32_t id)
{
	return t->ents[id].key;
}

static inline uint32_t
intern_len(const struct intern *t, uint32_t id)
{
	return t->ents[id].len;
}

static inline size_t
intern_count(const struct intern *t)
{
	return t->nents;
}

#endif
