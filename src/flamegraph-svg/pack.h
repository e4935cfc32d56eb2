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
 * The parts go in one stream, each after a NUL (none has one: the data
 * is JSON, the other the script), each in deflate blocks of its own, so
 * that each gets the codes that suit it and a later part can still refer
 * to an earlier one; one stream costs less than one a part (a graph's
 * data, then the script: 100 bytes less).
 */
#ifndef FG_PACK_H
#define FG_PACK_H

#include <stddef.h>

/*
 * The n parts part[i][0..len[i]) packed, NUL-terminated, its length in
 * *outlen; NULL when the build has no zlib or memory ran out.  Free it.
 */
char *pack(const char *const *part, const size_t *len, int n,
    size_t *outlen);

#endif
