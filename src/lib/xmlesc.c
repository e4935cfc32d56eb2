/*
 * xmlesc: see xmlesc.h for the design note.
 */
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "out.h"
#include "xmlesc.h"

size_t
utf8_char(const char *s, size_t n, unsigned *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned c = p[0], min, k, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		k = 1, c &= 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		k = 2, c &= 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		k = 3, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < k + 1)
		return 0;
	for (i = 1; i <= k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return k + 1;
}

size_t
utf8_count(const char *s, size_t n)
{
	size_t i = 0, count = 0, k;
	unsigned cp;

	while (i < n) {
		k = utf8_char(s + i, n - i, &cp);
		i += k ? k : 1;
		count++;
	}
	return count;
}

size_t
utf8_prefix(const char *s, size_t n, size_t want)
{
	size_t i = 0, k;
	unsigned cp;

	while (i < n && want-- > 0) {
		k = utf8_char(s + i, n - i, &cp);
		i += k ? k : 1;
	}
	return i;
}

int
xml_allowed(unsigned cp)
{
	if (cp < 0x20)
		return cp == '\t' || cp == '\n' || cp == '\r';
	return cp != 0xfffe && cp != 0xffff;
}

#ifdef __SSE2__
/*
 * Whether the 16 bytes x are all plain: printable ASCII but & < > " '.
 * As signed bytes, those from 0x80 are negative: one comparison finds
 * them and the controls.
 */
static inline int
plain16(__m128i x)
{
	__m128i m = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
	    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('&')),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('<'))),
	    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('>')),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('"'))),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('\'')))));

	return _mm_movemask_epi8(m) == 0;
}
#endif

#ifdef __SSE2__
static inline int
plain_at(const char *p)
{
	return plain16(_mm_loadu_si128((const __m128i *)(const void *)p));
}
#endif

/*
 * Whether s[0..n) has nothing to escape; with SSE2 (every x86-64)
 * sixteen bytes at a time, the last block overlapping the one before; a
 * shorter name as two words or halves that overlap, or three bytes, the
 * rest plain bytes: a byte at a time, with its seven tests, was a
 * quarter of a flame graph frame's title.
 */
int
xml_plain(const char *s, size_t n)
{
	size_t i = 0;

#ifdef __SSE2__
	if (n < 16) {
		uint64_t a, b;
		uint32_t c, d;

		if (n >= 8) {
			memcpy(&a, s, 8);
			memcpy(&b, s + n - 8, 8);
			return plain16(_mm_set_epi64x((long long)b, (long long)a));
		}
		if (n >= 4) {
			memcpy(&c, s, 4);
			memcpy(&d, s + n - 4, 4);
		} else {
			c = n ? (unsigned char)s[0] | (uint32_t)(unsigned char)s[n / 2] << 8 |
			    (uint32_t)(unsigned char)s[n - 1] << 16 | 0x61000000u :
			    0x61616161u;
			d = c;
		}
		return plain16(_mm_set_epi32(0x61616161, 0x61616161, (int)d,
		    (int)c));
	}
	for (; i + 16 < n; i += 16)
		if (!plain_at(s + i))
			return 0;
	return plain_at(s + n - 16);
#else
	while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x80 &&
	    s[i] != '&' && s[i] != '<' && s[i] != '>' && s[i] != '"' &&
	    s[i] != '\'')
		i++;
	return i == n;
#endif
}

void
xml_out(const char *s, size_t n)
{
	size_t i = 0, run = 0, k;
	unsigned cp;

	if (xml_plain(s, n)) {	/* most names: one copy */
		out_write(s, n);
		return;
	}
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		const char *rep = NULL;

		if (c >= 0x20 && c < 0x80 && c != '&' && c != '<' && c != '>' &&
		    c != '"' && c != '\'') {
			i++;
			continue;
		}
		k = utf8_char(s + i, n - i, &cp);
		if (k && xml_allowed(cp) && c >= 0x80) {
			i += k;
			continue;
		}
		out_write(s + run, i - run);
		switch (k ? c : 0) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			rep = k && xml_allowed(cp) ? NULL : "\xef\xbf\xbd";
		}
		if (rep)
			out_write(rep, strlen(rep));
		else
			out_write(s + i, k);
		i += k ? k : 1;
		run = i;
	}
	out_write(s + run, i - run);
}
