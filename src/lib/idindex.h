/*
 * idindex: span ids (uint64, never 0), for a reader that must find an
 * ID seen before as its line is read (to name and skip that line there)
 * and, once all are read, the position of the span an ID names.
 *
 * Two tables, one per question.  struct idseen answers "seen before?"
 * while reading: a bitset by id as long as the ids stay below 64 times
 * their count plus 16M (ids are most often dense and counted
 * from 1: trace-record's counter, kept by spanlayout), an open-addressing
 * set of the ids themselves for the rest; an id is in exactly one of the
 * two, and both are asked.  10M dense ids take 1.25 MB of bits, which the
 * caches hold, though the ids come in no order (spanlayout writes a
 * trace tree by tree: the 4th span of a 10M-span trace can have id
 * 819651).  struct idindex answers "where is it?" after reading, when
 * the range of the ids is known: a slot per id when they span less than
 * twice their count, else a hash table (linear probing, at most half
 * full) whose slots point into the caller's array of ids.  Slots hold
 * position + 1, 0 for none.
 *
 * Rejected: the intern table of the ids' bytes, which these replace:
 * three reads at random places per span (slot, entry, key) and about 70
 * bytes a span, two fifths of flamegraph-svg's time on a timeline of
 * 10M spans (1.37 GB peak); one table for both questions, built as the
 * spans come: without the final range, a slot per id either takes
 * memory by the largest id or gives up on dense ids that come out of
 * order, as spanlayout writes them.
 *
 * Not thread-safe; the caller owns the ids array and frees the tables.
 */
#ifndef FT_IDINDEX_H
#define FT_IDINDEX_H

#include <stddef.h>
#include <stdint.h>

#define IDINDEX_NONE UINT32_MAX

struct idseen {
	uint64_t *bits;		/* bit id set: id seen, for ids below nbits */
	uint64_t nbits;
	uint64_t *set;		/* the other ids, 0 = empty, 2^k slots */
	size_t setcap, nset;
	size_t n;		/* ids added */
};

void idseen_init(struct idseen *x);
void idseen_free(struct idseen *x);

/* Add id: 1 when it is new, 0 when it was added before. */
int idseen_add(struct idseen *x, uint64_t id);

struct idindex {
	uint32_t *slots;	/* position + 1, 0 = none */
	size_t nslots;		/* direct: ids base .. base + nslots - 1;
				 * hashed: 2^k */
	uint64_t base;
	int hashed;
};

/*
 * Index ids[0 .. n), all different (n below UINT32_MAX); ids is read
 * again by idindex_find, and must not move or change meanwhile.
 */
void idindex_build(struct idindex *x, const uint64_t *ids, size_t n);
void idindex_free(struct idindex *x);

/* The position of id in the ids indexed, or IDINDEX_NONE. */
uint32_t idindex_find(const struct idindex *x, const uint64_t *ids,
    uint64_t id);

#endif
