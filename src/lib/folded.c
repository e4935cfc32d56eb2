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
 * what precedes it minus one blank, *c its value and *v that for layout.
 * Returns 0 or 1 (count_parse's), -1 (no count there) or -2 (a count out
 * of range).
 */
static int
last_count(const char *s, size_t *n, struct count *c, long double *v)
{
	size_t e = *n, i = e, dot = e;
	int r;

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
	if ((r = count_parse(s + i, e - i, c)) < 0)
		return r;
	if (dot < e) {
		/*
		 * A fraction: converted as Perl converts it, to a double.  Its
		 * digits past the buffer are zeros (count_parse said so).
		 */
		char buf[64];
		size_t k = e - i < sizeof buf - 1 ? e - i : sizeof buf - 1;

		memcpy(buf, s + i, k);
		buf[k] = '\0';
		*v = strtod(buf, NULL);
	} else
		*v = count_ld(c);
	*n = i - 1;
	return r;
}

int
folded_parse(const char *s, size_t n, struct folded *f)
{
	size_t len = n;
	int r;

	if (len && s[len - 1] == '\r')
		len--;
	if ((r = last_count(s, &len, &f->c, &f->count)) < 0)
		return r;
	f->cut = r;
	r = last_count(s, &len, &f->c1, &f->count1);
	if (r == -2)
		return r;
	f->has2 = r >= 0;
	f->cut |= r == 1;
	f->stack = s;
	f->stacklen = len;
	return 0;
}
