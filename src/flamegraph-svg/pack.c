/*
 * pack: see pack.h for the design note.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "b91.h"
#include "pack.h"

#ifdef HAVE_ZLIB
/*
 * The data deflated raw at level 1, its blocks ended on a byte (a sync
 * flush: an empty stored block), its length in *len; NULL on failure.
 * Deflating is most of what --plain saves a large graph: level 1 took 17.2 ms of CPU where
 * level 6 took 20.7 (a system-wide capture, 24,000 stacks, at --minwidth
 * 0.01%; perf stat task-clock, 10 runs), and made the corpus's graphs
 * 0.1% larger (median against flamegraph.pl: 0.6938 to 0.6945).  The
 * window is as small as the data lets it be, and the hash table and the
 * buffer of symbols (memLevel) at most 6, not zlib's 8: deflateInit
 * clears the table and a run touches the pages of all three, a cost that
 * a small graph's run (a millisecond) feels.  Against 9, memLevel 6 took
 * 51 page faults of 457 fewer on a graph with 62 kB of data
 * (gcc-sqlite3-O2-fp), and moved the corpus's graphs by 0.3% at most
 * (the largest that much smaller, sqlite3-fp 2 bytes larger).
 */
static unsigned char *
deflate_data(const char *data, size_t n, size_t *len)
{
	z_stream z = { 0 };
	int wbits = 9, r;
	size_t cap;
	unsigned char *out;

	while (wbits < 15 && (size_t)1 << wbits < n + 262)
		wbits++;
	if (deflateInit2(&z, 1, Z_DEFLATED, -wbits, wbits < 12 ? wbits - 6 : 6,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	/* the bound is a Z_FINISH's; a sync flush's empty block: 5 bytes */
	cap = deflateBound(&z, (uLong)n) + 16;
	if (!(out = malloc(cap))) {
		deflateEnd(&z);
		return NULL;
	}
	z.next_in = (unsigned char *)(uintptr_t)data;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	r = deflate(&z, Z_SYNC_FLUSH);
	*len = cap - z.avail_out;
	deflateEnd(&z);
	if (r != Z_OK || z.avail_in != 0 || z.avail_out == 0) {
		free(out);
		return NULL;
	}
	return out;
}
#endif

char *
pack(const char *data, size_t n, size_t *outlen)
{
#ifdef HAVE_ZLIB
	size_t len;
	unsigned char *b;
	char *s;

	if (!(b = deflate_data(data, n, &len)))
		return NULL;
	if ((s = malloc(B91_MAX(len) + 1)))
		*outlen = b91_encode(b, len, s);
	free(b);
	return s;
#else
	(void)data;
	(void)n;
	(void)outlen;
	return NULL;
#endif
}
