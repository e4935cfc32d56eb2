/*
 * sort: qsort with a context argument, of our own.
 *
 * Comparators that need more than the two elements (an intern table to
 * read names from, the spans that an index array points into) had to
 * find it in a file-scope global set before each qsort: not reentrant,
 * and unsafe as soon as two threads sort.  C11's qsort has
 * no context argument; qsort_r does, but with two incompatible
 * signatures (glibc's and the BSDs') and not everywhere, and C11's
 * qsort_s is in Annex K, which glibc lacks.
 *
 * sort_ctx is a top-down merge sort: stable, n log n comparisons at
 * worst (the comparator, reading names through an index, is the cost
 * that counts), and scratch for half the array, taken with xmalloc.
 * Stable also means the same output as glibc's qsort (a merge sort too,
 * as long as memory allows) where a comparator leaves ties, so moving a
 * call over changes no output.  Rejected: quicksort (unstable, so ties
 * would come out in another order than before) and an insertion sort for
 * short runs (more comparisons, which cost more than the calls saved).
 */
#ifndef FT_SORT_H
#define FT_SORT_H

#include <stddef.h>

/* <0, 0 or >0 as *a orders before, with or after *b; ctx as given. */
typedef int sort_cmp(const void *a, const void *b, const void *ctx);

/*
 * Sort base[0..n) of elements of size bytes by cmp, stably (equal
 * elements keep their order); cmp gets ctx as its third argument.
 */
void sort_ctx(void *base, size_t n, size_t size, sort_cmp *cmp,
    const void *ctx);

#endif
