/*
 * javaexc: the package shortening of FlameGraph's Java scripts
 * (stackcollapse-java-exceptions.pl, -ibmjava.pl), which both formats use.
 */
#ifndef SC_JAVAEXC_H
#define SC_JAVAEXC_H

#include <stddef.h>

/*
 * The name f[0..n) with its packages shortened, or with no_pkgs dropped,
 * as m/(.*\.)([^.]+\.[^.]+)$/ splits it and a substitution shortens the
 * first part: the last two parts whole, each run of word characters (\w,
 * ASCII) before them cut to its first.  Written to *buf (grown, *cap its size);
 * *len 0 when the pattern does not match (fewer than three parts, or an
 * empty one of the last two), the scripts' empty frame.
 */
void java_shorten(const char *f, size_t n, int no_pkgs, char **buf,
    size_t *cap, size_t *len);

#endif
