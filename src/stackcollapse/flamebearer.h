/*
 * flamebearer: Pyroscope's profile JSON, both ways.  Written by
 * stackcollapse --to=flamebearer (flamebearer_write); read by the format
 * of the same name (flamebearer.c's reader, recognized by its
 * "flamebearer" key).
 */
#ifndef SC_FLAMEBEARER_H
#define SC_FLAMEBEARER_H

#include "../lib/folded.h"

/*
 * Whether --unit=name has a flamebearer meaning: Pyroscope's units
 * (samples, objects, goroutines, bytes, lock_samples, lock_nanoseconds,
 * trace_samples, exceptions) or a time (nanoseconds, microseconds,
 * milliseconds, seconds), which is written as samples at the rate that
 * makes a sample that long.
 */
int flamebearer_unit(const char *name);

/*
 * Write the stacks of a as one flamebearer profile: column 0 ("single"),
 * or with two columns 0 and 1 ("double": before left, after right), in
 * unit (flamebearer_unit's name; NULL for samples).  Nodes are the call
 * tree's, children in the order their stacks sort, the root "total";
 * names each once, in order of first use.  Returns 0, or -1 after saying
 * why nothing was written (a fraction, or a total of 2^53 or more, which
 * JavaScript's numbers would round).
 */
int flamebearer_write(const struct folded_sum *a, int two, const char *unit);

#endif
