/*
 * folded: see folded.h for the rule and why it is the Perl's.
 */
#include <stdlib.h>
#include <string.h>

#include "folded.h"

static int
is_blank(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * The count at the end of s[0..*n): on success *n becomes the length of
 * what precedes it minus one blank, and *v its value.
 */
static int
last_count(const char *s, size_t *n, long double *v)
{
	size_t e = *n, i = e, dot = e;
	long double x = 0;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i > 0 && s[i - 1] == '.') {
		dot = i - 1;
		i = dot;
		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
		if (i == dot)
			return -1;
	}
	if (i == e || i == 0 || !is_blank((unsigned char)s[i - 1]))
		return -1;
	if (dot < e) {
		/* A fraction: converted as Perl converts it, to a double. */
		char buf[64];
		size_t k = e - i < sizeof buf - 1 ? e - i : sizeof buf - 1;

		memcpy(buf, s + i, k);
		buf[k] = '\0';
		x = strtod(buf, NULL);
	} else {
		for (size_t k = i; k < e; k++)
			x = x * 10 + (s[k] - '0');
	}
	*v = x;
	*n = i - 1;
	return 0;
}

int
folded_parse(const char *s, size_t n, struct folded *f)
{
	size_t len = n;

	if (len && s[len - 1] == '\r')
		len--;
	if (last_count(s, &len, &f->count) < 0)
		return -1;
	f->has2 = last_count(s, &len, &f->count1) == 0;
	f->stack = s;
	f->stacklen = len;
	return 0;
}
