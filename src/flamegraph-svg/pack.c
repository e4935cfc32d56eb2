/*
 * pack: see pack.h for the design note.
 */
#include <stdint.h>
#include <stdlib.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "pack.h"

#ifdef HAVE_ZLIB
/* The 91 characters: '!' to '~' but '&', '<' and '>'; the script finds a
 * character's value as its code - 33 - (code > 38) - (code > 60) - (code > 62). */
static char
digit(unsigned v)
{
	unsigned c = v + 33;

	c += c >= 38;
	c += c >= 60;
	c += c >= 62;
	return (char)c;
}

/* Raw deflate at level 9 (window 15, memory 9), the smallest zlib makes. */
static unsigned char *
deflate_raw(const void *p, size_t n, size_t *zn)
{
	z_stream z = { 0 };
	uLong cap;
	unsigned char *out;

	if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	cap = deflateBound(&z, (uLong)n);
	if (!(out = malloc(cap ? cap : 1))) {
		deflateEnd(&z);
		return NULL;
	}
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		return NULL;
	}
	*zn = z.total_out;
	deflateEnd(&z);
	return out;
}
#endif

char *
pack(const void *p, size_t n, size_t *len)
{
#ifdef HAVE_ZLIB
	size_t zn, i, k = 0;
	unsigned char *z = deflate_raw(p, n, &zn);
	unsigned long acc = 0;
	unsigned bits = 0;
	char *s;

	if (!z)
		return NULL;
	if (!(s = malloc(zn * 2 + 3))) {
		free(z);
		return NULL;
	}
	for (i = 0; i < zn; i++) {
		acc |= (unsigned long)z[i] << bits;
		for (bits += 8; bits >= 13; bits -= 13, acc >>= 13) {
			s[k++] = digit((unsigned)(acc & 8191) % 91);
			s[k++] = digit((unsigned)(acc & 8191) / 91);
		}
	}
	if (bits) {
		s[k++] = digit((unsigned)acc % 91);
		if (bits > 6)
			s[k++] = digit((unsigned)acc / 91);
	}
	s[k] = '\0';
	free(z);
	*len = k;
	return s;
#else
	(void)p;
	(void)n;
	(void)len;
	return NULL;
#endif
}
