/*
 * b91: bytes as text of 91 characters, pack.h's encoding, shared by the
 * program (pack.c: a graph's data) and the build (host/jsz.c: the script,
 * encoded once), so both write what the loader reads.  13 bits in two
 * characters, low bits first; a last group of 6 bits or fewer is one
 * character.  Each text is decoded on its own (the loader resets its
 * bits at each), so texts encoded apart may follow one another.
 */
#ifndef FG_B91_H
#define FG_B91_H

#include <stddef.h>

/*
 * The 91 characters: '!' to '~' but '&', '<' and '>'; the script finds a
 * character's value as its code - 33 - (code > 38) - (code > 60) - (code > 62).
 * A table, not those tests: the encoding was a third of pack's instructions.
 */
static const char b91_digit[92] =
    "!\"#$%'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";

/* The most characters b91_encode writes for n bytes, but the NUL. */
#define B91_MAX(n) ((n) * 2 + 2)

/* b[0..n) encoded into s, NUL-terminated; returns its length. */
static inline size_t
b91_encode(const unsigned char *b, size_t n, char *s)
{
	unsigned long acc = 0;
	unsigned bits = 0;
	size_t i, k = 0;

	/* fewer than 13 bits wait, so a byte completes at most one group */
	for (i = 0; i < n; i++) {
		acc |= (unsigned long)b[i] << bits;
		if ((bits += 8) >= 13) {
			unsigned v = (unsigned)(acc & 8191), q = v / 91;

			s[k++] = b91_digit[v - q * 91];
			s[k++] = b91_digit[q];
			bits -= 13;
			acc >>= 13;
		}
	}
	if (bits) {
		s[k++] = b91_digit[acc % 91];
		if (bits > 6)
			s[k++] = b91_digit[acc / 91];
	}
	s[k] = '\0';
	return k;
}

#endif
