/*
 * pack: what an SVG carries to its script, compressed (raw deflate, as
 * the browser's DecompressionStream("deflate-raw") reads it) and written
 * as text that may stand anywhere in XML or in HTML: 13 bits in two
 * characters of 91, the printable ASCII characters but < & and >.  So no
 * tag, entity or "]]>" can appear, and the text costs 16/13 of the
 * compressed bytes (base64: 4/3).  The bits go low first; a last group
 * of 6 bits or fewer is one character, which the reader takes as 7 bits:
 * it stops at the last whole byte, so it never reads a byte too many.
 *
 * Used at run time by svg.c (the data) and at build time by
 * tool/jspack.c (the script); so it needs nothing but libc and zlib.
 */
#ifndef FG_PACK_H
#define FG_PACK_H

#include <stddef.h>

/*
 * p[0..n) compressed and encoded, NUL-terminated, its length in *len;
 * NULL when the build has no zlib or memory ran out.  Free it.
 */
char *pack(const void *p, size_t n, size_t *len);

#endif
