/*
 * compat: the two GNU byte-search functions the parsers use, memmem and
 * memrchr, on systems that lack them.  glibc with _GNU_SOURCE (the
 * Makefile's default) keeps its own, which are vectorized; elsewhere
 * (macOS has no memrchr, and neither is declared under a strict
 * -D_POSIX_C_SOURCE) the names are mapped to the plain loops of
 * compat.c.  The mapping is a macro so that call sites read as the
 * familiar functions and a file needs only this include: the ft_
 * functions exist in every build, which is how the unit tests reach
 * them on glibc too.
 */
#ifndef LIB_COMPAT_H
#define LIB_COMPAT_H

#include <stddef.h>
#include <string.h>

/* The first occurrence of needle[0..nn) in h[0..hn), or NULL; nn 0 is h. */
void *ft_memmem(const void *h, size_t hn, const void *needle, size_t nn);
/* The last byte equal to c in s[0..n), or NULL. */
void *ft_memrchr(const void *s, int c, size_t n);

#if !(defined(__GLIBC__) && defined(_GNU_SOURCE))
#define memmem ft_memmem
#define memrchr ft_memrchr
#endif

#endif
