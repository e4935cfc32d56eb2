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
 * One stream: the data, deflated here, its blocks ended on a byte; then,
 * deflated when the program was built (host/jsz.c), a NUL (the data is
 * JSON and has none) and the script, which is the same in every graph
 * but for the parts some take (jsparts.h), so deflating it each run was
 * most of a small graph's cost.  Its own blocks get the codes that suit
 * it; it refers to nothing of the data, which costs little (the two
 * share few strings): sqlite3-fp's graph 120 bytes larger, 52,885 to
 * 53,005, against both in one stream at the same level.
 *
 * Three texts, separated by a space (not one of the 91): the data's,
 * the script's head and its tail (jsz.c), each encoded on its own, so
 * the script's two are encoded at build time too, where encoding them
 * each run was most of what a small graph's packing cost (213,000
 * instructions of 250,000 on a one-frame graph: valgrind
 * --tool=callgrind).  A text's last character may carry a few bits
 * that are no byte's: 2 characters more at most than one text.
 */
#ifndef FG_PACK_H
#define FG_PACK_H

#include <stddef.h>

/*
 * The data data[0..n) deflated, its blocks ended on a byte, and encoded
 * (b91.h), NUL-terminated, its length in *outlen: the first of the
 * three texts.  NULL when the build has no zlib or memory ran out.  Free
 * it.
 */
char *pack(const char *data, size_t n, size_t *outlen);

#endif
