/*
 * layout: the span tree and the rows it is drawn on.
 *
 * The tree is kept as arrays indexed by span (no node structs, no
 * recursion anywhere): a parent index per span and the children of each
 * span as one slice of a shared array (CSR), sorted by start, longer
 * first on equal starts.  Roots hang under virtual nodes n .. n+bands-1,
 * one per band: one band for the whole trace, or one per track with
 * --by-track, so that every walk is the same loop.
 *
 * The row rule (the published one, then a guarantee) is described at
 * layout_rows in layout.c and in spanlayout(1).
 */
#ifndef SL_LAYOUT_H
#define SL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "spanset.h"

#define TREE_NONE UINT32_MAX

struct tree {
	size_t n, nbands;
	uint32_t *parent;	/* index of the parent span or band node */
	uint32_t *first;	/* children of x: kids[first[x] .. first[x+1]) */
	uint32_t *kids;
	uint32_t *pre;		/* spans in preorder: parents first */
	uint32_t *band_track;	/* per band: its track (--by-track) */
	uint8_t *broken;	/* laid out as a root to break a cycle */
	int64_t origin;		/* earliest start */
	int by_track;		/* one band per track */
	/* What was repaired, for the summary. */
	uint64_t orphans, self_parents, cycles;
	uint32_t cycle_at[5];	/* the first spans chosen to break cycles */
};

/* How spans are banded: --together, --by-track, or by what the trace holds. */
enum bands { BANDS_ONE, BANDS_BY_TRACK, BANDS_AUTO };

/*
 * Build the tree of s.  Duplicate ids are an error (reported with both
 * places; returns -1); a missing parent, a span that is its own parent and
 * a cycle make roots, counted.  With BANDS_BY_TRACK, a span whose parent
 * is on another track is a root of its own track's band; with BANDS_AUTO,
 * bands are used when no span has its parent on another track (Chrome
 * traces, one thread per track), else one band for all (t->by_track says
 * which).
 */
int tree_build(struct tree *t, const struct spanset *s, enum bands bands);
void tree_free(struct tree *t);

/*
 * Rows for every span (row[i], from 0) and the number of rows used.  With
 * several bands, each starts one empty row below the previous one.
 */
uint32_t layout_rows(const struct tree *t, const struct spanset *s,
    uint32_t *row);

#endif
