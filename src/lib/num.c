/*
 * num: see num.h for the design note.
 */
#include <string.h>

#include "num.h"

int
num_parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9)
			return -1;
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int
num_parse_arg(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	size_t n = strlen(s);

	if (n == 0 || num_parse_u64(s, n, v) < 0)
		return -1;
	return *v < min || *v > max ? -1 : 0;
}

size_t
num_fmt_u64(char *buf, uint64_t v)
{
	char tmp[NUM_U64_MAX];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}
