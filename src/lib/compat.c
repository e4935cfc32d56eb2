/*
 * compat: see compat.h.  Plain loops: they serve where libc has no
 * memmem or memrchr, and the parsers' hot searches go through scan.h.
 */
#include <string.h>

#include "compat.h"

void *
ft_memmem(const void *h, size_t hn, const void *needle, size_t nn)
{
	const unsigned char *p = h, *n = needle, *e;

	if (nn == 0)
		return (void *)p;
	if (hn < nn)
		return NULL;
	for (e = p + (hn - nn); p <= e; p++) {
		p = memchr(p, n[0], (size_t)(e - p) + 1);
		if (p == NULL)
			return NULL;
		if (memcmp(p + 1, n + 1, nn - 1) == 0)
			return (void *)p;
	}
	return NULL;
}

void *
ft_memrchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	while (n > 0)
		if (p[--n] == (unsigned char)c)
			return (void *)(p + n);
	return NULL;
}
