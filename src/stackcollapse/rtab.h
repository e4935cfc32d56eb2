/*
 * rtab: a hash table of records, each a byte key and a value area that
 * the caller fills in, for the two lookups the perf parser makes per line
 * and per sample (perf.c): a frame line's translation, a stack's count.
 *
 * Why not intern (../lib/intern.h) with values in arrays by id: on a
 * large system-wide capture those lookups were a third of the time, most
 * of it waiting on memory, since a hit read the slot, the entry, the key
 * in the arena and then the value arrays, five or six cache lines in as
 * many places.  Here a slot holds the hash's high 32 bits beside the
 * record's place, and a record holds its value and key side by side: a
 * hit reads the slot's line and the record's, a probe that misses only
 * the slot.  Records are never removed; they lie one after the other in
 * one buffer, in insertion order (the order rtab_next walks), and are
 * named by offset, since the buffer moves when it grows: a value pointer
 * holds until the next rtab_add.  Open addressing with linear probing over
 * a power-of-two slot array, grown at 1/2 load.  Keys are compared whole;
 * the tag only spares reading records that cannot match.
 *
 * Not thread-safe: each parser context owns its tables.
 */
#ifndef SC_RTAB_H
#define SC_RTAB_H

#include <stddef.h>
#include <stdint.h>

struct rtab {
	uint64_t *slots;	/* tag << 32 | (offset / 8 + 1); 0 = empty */
	size_t mask, n;
	unsigned char *buf;	/* records, 8-byte aligned */
	size_t len, cap;
};

void rtab_init(struct rtab *t);
void rtab_free(struct rtab *t);

/*
 * The value of key[0..klen), whose hash (intern_hash or another full
 * 64-bit one, the same for every call on t) is h, or NULL when absent.
 */
void *rtab_find(const struct rtab *t, const void *key, size_t klen,
    uint64_t h);

/*
 * Add key[0..klen) (absent: rtab_find said so) with a value of vlen
 * bytes, zeroed and 8-byte aligned; returns it.  klen and vlen must be
 * below 4 GiB.
 */
void *rtab_add(struct rtab *t, const void *key, size_t klen, uint64_t h,
    size_t vlen);

/*
 * Walking the records in insertion order:
 *	for (size_t r = 0; r < t->len; r = rtab_next(t, r))
 * with rtab_key and rtab_val giving record r's parts.
 */
size_t rtab_next(const struct rtab *t, size_t r);
const void *rtab_key(const struct rtab *t, size_t r, size_t *klen);
void *rtab_val(const struct rtab *t, size_t r);

#endif
