/*
 * num: see num.h for the design note.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "num.h"

int
num_parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	/* 19 digits cannot pass 2^64: no test per digit (a period a sample) */
	if (n <= 19) {
		for (i = 0; i < n; i++) {
			unsigned d = (unsigned)(s[i] - '0');

			if (d > 9)
				return -1;
			x = x * 10 + d;
		}
		*v = x;
		return 0;
	}
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

static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* v's digits ending before p, two at a time (half the divisions); returns the first. */
static inline char *
digits_back(char *p, uint64_t v)
{
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		p -= 2;
		p[0] = pairs[2 * r];
		p[1] = pairs[2 * r + 1];
	}
	if (v >= 10) {
		p -= 2;
		p[0] = pairs[2 * v];
		p[1] = pairs[2 * v + 1];
	} else
		*--p = (char)('0' + v);
	return p;
}

size_t
num_fmt_u64(char *buf, uint64_t v)
{
	size_t n = 1;

	/* Written in place from the end: a copy of a few bytes is a call. */
	for (uint64_t p10 = 10; n < 20 && v >= p10; p10 *= 10)
		n++;
	digits_back(buf + n, v);
	return n;
}

/*
 * v's exact binary value is m * 2^e, so v * 10 (or 100) is m * 10 * 2^e:
 * an integer of at most 60 bits shifted, whose bits shifted out say how
 * it rounds.  Integers only: the long double this was computed in cost a
 * change of the x87 control word for each floor (a tenth of a flame
 * graph's frames, which are four such numbers each), and on aarch64 long
 * double is software.
 */
static inline int
fixed_scaled(double v, int decimals, uint64_t *scaled)
{
#if DBL_MANT_DIG == 53 && FLT_RADIX == 2 && DBL_MAX_EXP == 1024
	uint64_t unit = decimals == 1 ? 10 : 100, bits, n;
	int e;

	if (isfinite(v) && fabs(v) < 1e15 && (decimals == 1 || decimals == 2)) {
		memcpy(&bits, &v, sizeof bits);
		e = (int)(bits >> 52 & 0x7ff);
		n = bits & ((UINT64_C(1) << 52) - 1);
		if (e) {
			n |= UINT64_C(1) << 52;
			e -= 1075;
		} else
			e = -1074;
		n *= unit;	/* below 2^60 */
		if (e >= 0)
			n <<= e;	/* below 1e17: v is below 1e15 */
		else if (e <= -64)
			n = 0;		/* below half of one */
		else {
			uint64_t r = n & ((UINT64_C(1) << -e) - 1), half = UINT64_C(1) << (-e - 1);

			n >>= -e;
			if (r > half || (r == half && (n & 1)))
				n++;
		}
		*scaled = n;
		return 0;
	}
#else
	(void)v;
	(void)decimals;
	(void)scaled;
#endif
	return -1;
}

int
num_fixed_scaled(double v, int decimals, uint64_t *scaled)
{
	return fixed_scaled(v, decimals, scaled);
}

size_t
num_fmt_fixed(char *buf, double v, int decimals)
{
	/*
	 * written from t[24] back, then 24 bytes copied whole: at most 19
	 * bytes and the NUL, and the 24 bytes from any start before t[24]
	 * stay in t; a copy of constant size is a few moves, where counting
	 * the digits first and copying them with a call were half of the work
	 */
	char t[48] = { 0 }, *p = t + 24;
	uint64_t n;

	if (fixed_scaled(v, decimals, &n) == 0) {
		/* constant divisors: multiplications, not a division */
		*--p = (char)('0' + n % 10);
		n /= 10;
		if (decimals == 2) {
			*--p = (char)('0' + n % 10);
			n /= 10;
		}
		*--p = '.';
		p = digits_back(p, n);
		if (v < 0)	/* printf keeps the sign, even of "-0.0" */
			*--p = '-';
		memcpy(buf, p, 24);
		return (size_t)(t + 24 - p);
	}
	return (size_t)snprintf(buf, 32, decimals == 1 ? "%.1f" : "%.2f", v);
}
