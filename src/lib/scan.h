/*
 * scan: find a byte a short way ahead.  memchr is the right tool over a
 * long span, but parsers ask it for the next blank or separator a few
 * bytes on, millions of times, and then the call costs more than the
 * search.  scan_byte reads eight bytes at a time (the classic has-zero-
 * byte test on x ^ c*0x01..01) inline.  A borrow can only mark bytes
 * after the first real match, so the lowest marked byte is the answer on
 * little-endian machines; elsewhere it falls back to memchr.  scan_mem
 * finds a short fixed needle the same way, where memmem's set-up for its
 * general algorithm costs more than a line's worth of comparing; its
 * worst case is the length of the line times the needle's.  scan_find2
 * and scan_skip find the start and the end of a run of blanks (a and b
 * being ' ' and '\t'), with an exact per-byte test.
 */
#ifndef LIB_SCAN_H
#define LIB_SCAN_H

#include <stdint.h>
#include <string.h>

static inline const char *
scan_byte(const char *p, const char *e, char c)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull, rep = ones * (unsigned char)c;

	while (e - p >= 8) {
		uint64_t x, t;

		memcpy(&x, p, 8);
		x ^= rep;
		t = (x - ones) & ~x & (ones << 7);
		if (t)
			return p + (__builtin_ctzll(t) >> 3);
		p += 8;
	}
	for (; p < e; p++)
		if (*p == c)
			return p;
	return NULL;
#else
	return memchr(p, c, (size_t)(e - p));
#endif
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The high bit of each byte of x that equals c, exactly (no borrow runs
 * on): scan_skip needs the bytes that do not match, so the cheaper test
 * above, exact only up to the first match, would not do.
 */
static inline uint64_t
scan_eq(uint64_t x, unsigned char c)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t y = x ^ (0x0101010101010101ull * c);

	return ~(((y & low7) + low7) | y | low7);
}
#endif

/*
 * The first byte in [p, e) that is (match set) or is not (match clear) a
 * or b, or NULL: the body of scan_find2 and scan_skip, which pass match
 * as a constant.
 */
static inline const char *
scan_run(const char *p, const char *e, char a, char b, int match)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (e - p >= 8) {
		uint64_t x, t;

		memcpy(&x, p, 8);
		t = scan_eq(x, (unsigned char)a) | scan_eq(x, (unsigned char)b);
		if (!match)
			t = ~t & 0x8080808080808080ull;
		if (t)
			return p + (__builtin_ctzll(t) >> 3);
		p += 8;
	}
#endif
	for (; p < e; p++)
		if ((*p == a || *p == b) == match)
			return p;
	return NULL;
}

/* The first byte in [p, e) that is a or b, or NULL. */
static inline const char *
scan_find2(const char *p, const char *e, char a, char b)
{
	return scan_run(p, e, a, b, 1);
}

/* The first byte in [p, e) that is neither a nor b, or e: the end of a
 * run of blanks, which in aligned columns is dozens of bytes. */
static inline const char *
scan_skip(const char *p, const char *e, char a, char b)
{
	const char *q = scan_run(p, e, a, b, 0);

	return q ? q : e;
}

static inline const char *
scan_mem(const char *p, size_t n, const char *needle, size_t k)
{
	const char *e = p + n;

	if (k == 0)
		return p;
	while ((size_t)(e - p) >= k && (p = scan_byte(p, e - k + 1, needle[0])))
		if (memcmp(p, needle, k) == 0)
			return p;
		else
			p++;
	return NULL;
}

#endif
