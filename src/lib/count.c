/*
 * count: see count.h for the design note.
 */
#include <string.h>

#include "count.h"
#include "num.h"
#include "out.h"

int
count_parse(const char *s, size_t n, struct count *c)
{
	size_t i = 0, k;
	uint64_t w = 0, f = 0, unit = COUNT_ONE;
	int range = 0, cut = 0;

	if (n == 0 || s[0] < '0' || s[0] > '9')
		return -1;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		/* 19 digits fit in 64 bits: no test (a division) before */
		if (i >= 19 && w > (UINT64_MAX - d) / 10)
			range = 1;
		else
			w = w * 10 + d;
	}
	if (i < n && s[i] == '.') {
		for (k = i + 1; k < n && s[k] >= '0' && s[k] <= '9'; k++) {
			unit /= 10;	/* 0 past the last kept digit */
			if (unit)
				f += unit * (uint64_t)(s[k] - '0');
			else if (s[k] != '0')
				cut = 1;
		}
		i = k;
	}
	if (i != n)
		return -1;
	if (range)
		return -2;
	c->whole = w;
	c->frac = f;
	return cut;
}

int
count_add(struct count *a, const struct count *b)
{
	uint64_t f = a->frac + b->frac, carry = f >= COUNT_ONE;
	uint64_t w = a->whole;

	if (w > UINT64_MAX - b->whole || w + b->whole > UINT64_MAX - carry)
		return -1;
	a->whole = w + b->whole + carry;
	a->frac = carry ? f - COUNT_ONE : f;
	return 0;
}

int
count_sub(struct count *a, const struct count *b)
{
	if (count_cmp(a, b) < 0)
		return -1;
	if (a->frac < b->frac) {
		a->frac += COUNT_ONE - b->frac;
		a->whole -= b->whole + 1;
	} else {
		a->frac -= b->frac;
		a->whole -= b->whole;
	}
	return 0;
}

int
count_cmp(const struct count *a, const struct count *b)
{
	if (a->whole != b->whole)
		return a->whole < b->whole ? -1 : 1;
	return (a->frac > b->frac) - (a->frac < b->frac);
}

size_t
count_fmt(char *buf, const struct count *c)
{
	size_t n = num_fmt_u64(buf, c->whole);

	if (c->frac) {
		uint64_t f = c->frac;
		int digits = COUNT_FRAC;

		while (f % 10 == 0) {
			f /= 10;
			digits--;
		}
		buf[n++] = '.';
		for (int k = digits; k-- > 0; f /= 10)
			buf[n + (size_t)k] = (char)('0' + f % 10);
		n += (size_t)digits;
	}
	return n;
}

void
count_put(const struct count *c)
{
	char b[COUNT_TEXT_MAX];

	out_write(b, count_fmt(b, c));
}

long double
count_ld(const struct count *c)
{
	return (long double)c->whole + (long double)c->frac / (long double)COUNT_ONE;
}
