/*
 * memcpy, memmove, memchr and memcmp for flamegraph-svg linked
 * statically with musl (make MUSL=1), in place of musl's, which are
 * built for size: its memcpy is a "rep movsq", whose start-up costs more
 * than copying a name or a line does (a fifth of a graph's time went to
 * it), and its memchr and memcmp go a word or a byte at a time.  These
 * use SSE2, which every x86-64 has; memcpy leaves big copies to "rep
 * movsb", which fast-string microcode makes the quickest there.
 *
 * memcpy copies forward and reads each piece before it writes over it,
 * so that a forward overlap (dst below src) comes out as memmove's
 * would: memmove below hands it that case (and its pointers are not
 * restrict, which would let the compiler move a write before a read).
 * Built with -fno-tree-loop-distribute-patterns, so that the compiler
 * does not turn a loop here back into a call of memcpy.
 */
#include <emmintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LD(p)		_mm_loadu_si128((const __m128i *)(const void *)(p))
#define ST(p, v)	_mm_storeu_si128((__m128i *)(void *)(p), (v))

void *
memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n <= 16) {
		if (n >= 8) {
			uint64_t a, b;
			__builtin_memcpy(&a, s, 8);
			__builtin_memcpy(&b, s + n - 8, 8);
			__builtin_memcpy(d, &a, 8);
			__builtin_memcpy(d + n - 8, &b, 8);
		} else if (n >= 4) {
			uint32_t a, b;
			__builtin_memcpy(&a, s, 4);
			__builtin_memcpy(&b, s + n - 4, 4);
			__builtin_memcpy(d, &a, 4);
			__builtin_memcpy(d + n - 4, &b, 4);
		} else if (n > 0) {
			unsigned char a = s[0], b = s[n / 2], c = s[n - 1];
			d[0] = a;
			d[n / 2] = b;
			d[n - 1] = c;
		}
		return dst;
	}
	if (n <= 32) {
		__m128i a = LD(s), b = LD(s + n - 16);
		ST(d, a);
		ST(d + n - 16, b);
		return dst;
	}
	if (n >= 2048) {
		__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
		return dst;
	}
	{
		/* the last 32 bytes, read before the loop may write over them */
		__m128i t0 = LD(s + n - 32), t1 = LD(s + n - 16);
		size_t i;
		for (i = 0; i + 32 < n; i += 32) {
			__m128i a = LD(s + i), b = LD(s + i + 16);
			ST(d + i, a);
			ST(d + i + 16, b);
		}
		ST(d + n - 32, t0);
		ST(d + n - 16, t1);
	}
	return dst;
}

void *
memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d - (uintptr_t)s >= n)
		return memcpy(dst, src, n);	/* forward is safe */
	/* d is inside [s, s + n): backward, each piece read before written */
	while (n >= 16) {
		__m128i a = LD(s + n - 16);
		ST(d + n - 16, a);
		n -= 16;
	}
	while (n > 0) {
		n--;
		d[n] = s[n];
	}
	return dst;
}

void *
memchr(const void *src, int c, size_t n)
{
	const unsigned char *s = src;
	__m128i cv = _mm_set1_epi8((char)c);
	size_t i = 0;

	/* 32 bytes a turn, one test for both halves: lines are long */
	for (; i + 32 <= n; i += 32) {
		__m128i a = _mm_cmpeq_epi8(LD(s + i), cv);
		__m128i b = _mm_cmpeq_epi8(LD(s + i + 16), cv);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(a, b));
		if (m) {
			m = (unsigned)_mm_movemask_epi8(a) |
			    (unsigned)_mm_movemask_epi8(b) << 16;
			return (void *)(s + i + __builtin_ctz(m));
		}
	}
	for (; i + 16 <= n; i += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(LD(s + i), cv));
		if (m)
			return (void *)(s + i + __builtin_ctz(m));
	}
	for (; i < n; i++)
		if (s[i] == (unsigned char)c)
			return (void *)(s + i);
	return NULL;
}

int
memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;
	size_t i = 0;

	for (; i + 16 <= n; i += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(LD(p + i), LD(q + i)));
		if (m != 0xffff) {
			i += __builtin_ctz(~m);
			return p[i] - q[i];
		}
	}
	for (; i < n; i++)
		if (p[i] != q[i])
			return p[i] - q[i];
	return 0;
}
