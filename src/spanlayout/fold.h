/*
 * fold: write a span tree as folded stacks weighted by nanoseconds.
 */
#ifndef SL_FOLD_H
#define SL_FOLD_H

#include "layout.h"

/*
 * Write the folded stacks of t: by self time, or by duration when total;
 * with by_track, the track is the root frame.  Returns -1 when a stack's
 * sum does not fit in 64 bits, said with the file and line of the span
 * that passed it (nothing is written then).
 */
int fold_write(const struct tree *t, const struct spanset *s, int total,
    int by_track);

#endif
