/*
 * color: see color.h for the design note.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/compat.h"
#include "../lib/xmlesc.h"
#include "color.h"

static const char *const names[PAL_COUNT] = {
	"hot", "mem", "io", "wakeup", "chain", "java", "js", "perl", "red",
	"green", "blue", "aqua", "yellow", "purple", "orange", "hotcold",
};

int
color_palette(const char *name)
{
	int i;

	for (i = 0; i < PAL_COUNT; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

/* Perl's rand() after srand(seed): FreeBSD's drand48, as perl uses it. */
static double
perl_rand_after_srand(uint32_t seed)
{
	uint64_t x = ((uint64_t)seed << 16) + 0x330e;

	x = (x * 0x5deece66dull + 0xb) & 0xffffffffffffull;
	return (double)x / 281474976710656.0;
}

static double
random_shade(void)
{
	static uint64_t x;

	if (x == 0)
		x = ((uint64_t)time(NULL) << 16) ^ (uint64_t)getpid() ^ 0x330e;
	x = (x * 0x5deece66dull + 0xb) & 0xffffffffffffull;
	return (double)x / 281474976710656.0;
}

/* unpack("%32W*", $name): the sum of the characters, mod 2^32. */
static uint32_t
sum_chars(const char *s, size_t n)
{
	uint32_t sum = 0;
	size_t i = 0, k;
	unsigned cp;

	/*
	 * Eight ASCII bytes at a time, where a byte at a time was most of a
	 * frame's colour: pairs summed in 16-bit lanes (at most 510 each),
	 * the four lanes summed by the multiplication into the top one.
	 */
	for (; i + 8 <= n; i += 8) {
		const uint64_t lo = 0x00ff00ff00ff00ffull;
		uint64_t x, y;

		memcpy(&x, s + i, 8);
		if (x & 0x8080808080808080ull)
			break;
		y = (x & lo) + (x >> 8 & lo);
		sum += (uint32_t)((y * 0x0001000100010001ull) >> 48);
	}
	while (i < n) {
		/* ASCII, most names: its own code point, with no call */
		if ((unsigned char)s[i] < 0x80) {
			sum += (unsigned char)s[i++];
			continue;
		}
		k = utf8_char(s + i, n - i, &cp);
		sum += k ? cp : (unsigned char)s[i];
		i += k ? k : 1;
	}
	return sum;
}

/*
 * flamegraph.pl's namehash(): the first three characters weigh most; a
 * "module`" prefix is dropped first.
 */
static double
namehash(const char *s, size_t n)
{
	double vector = 0, weight = 1, max = 1;
	int mod = 10;
	const char *tick = n > 1 ? memchr(s + 1, '`', n - 1) : NULL;
	size_t i = 0, k;
	unsigned cp;

	if (tick) {
		n -= (size_t)(tick + 1 - s);
		s = tick + 1;
	}
	while (i < n) {
		k = utf8_char(s + i, n - i, &cp);
		if (k == 0)
			cp = (unsigned char)s[i];
		i += k ? k : 1;
		vector += ((double)(cp % (unsigned)mod) / (mod - 1)) * weight;
		mod++;
		max += weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}

static int
ends(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && memcmp(s + n - k, suf, k) == 0;
}

static int
has(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

/* m:^L?(java|javax|jdk|net|org|com|io|sun)/: */
static int
java_package(const char *s, size_t n)
{
	static const char *const pk[] = {
		"java/", "javax/", "jdk/", "net/", "org/", "com/", "io/", "sun/",
	};
	size_t i;

	if (n && s[0] == 'L') {
		s++;
		n--;
	}
	for (i = 0; i < sizeof pk / sizeof pk[0]; i++)
		if (n >= strlen(pk[i]) && memcmp(s, pk[i], strlen(pk[i])) == 0)
			return 1;
	return 0;
}

/* The multi palettes pick a plain palette from the name, as in the Perl. */
static int
refine(int pal, const char *s, size_t n)
{
	switch (pal) {
	case PAL_JAVA:
		if (ends(s, n, "_[j]"))
			return PAL_GREEN;
		if (ends(s, n, "_[i]"))
			return PAL_AQUA;
		if (java_package(s, n) || has(s, n, ":::"))
			return PAL_GREEN;
		if (has(s, n, "::"))
			return PAL_YELLOW;
		if (ends(s, n, "_[k]"))
			return PAL_ORANGE;
		return PAL_RED;
	case PAL_PERL:
		if (has(s, n, "::"))
			return PAL_YELLOW;
		if (has(s, n, "Perl") || has(s, n, ".pl"))
			return PAL_GREEN;
		if (ends(s, n, "_[k]"))
			return PAL_ORANGE;
		return PAL_RED;
	case PAL_JS:
		if (ends(s, n, "_[j]"))
			return memchr(s, '/', n) ? PAL_GREEN : PAL_AQUA;
		if (has(s, n, "::"))
			return PAL_YELLOW;
		if (memchr(s, '/', n) && memmem(memchr(s, '/', n),
		    n - (size_t)((const char *)memchr(s, '/', n) - s), ".js", 3))
			return PAL_GREEN;
		if (memchr(s, ':', n))
			return PAL_AQUA;
		if (n == 1 && s[0] == ' ')
			return PAL_GREEN;
		if (has(s, n, "_[k]"))
			return PAL_ORANGE;
		return PAL_RED;
	case PAL_WAKEUP:
		return PAL_AQUA;
	case PAL_CHAIN:
		return has(s, n, "_[w]") ? PAL_AQUA : PAL_BLUE;
	default:
		return pal;
	}
}

struct rgb
color_frame(int pal, enum shade shade, const char *s, size_t n)
{
	double v1, v2, v3;

	if (shade == SHADE_HASH) {
		char *r = malloc(n ? n : 1);
		size_t i = 0, k;
		unsigned cp;

		/* reverse by characters, as Perl's reverse on a string */
		while (r && i < n) {
			k = utf8_char(s + i, n - i, &cp);
			k = k ? k : 1;
			memcpy(r + n - i - k, s + i, k);
			i += k;
		}
		v1 = namehash(s, n);
		v2 = v3 = r ? namehash(r, n) : v1;
		free(r);
	} else if (shade == SHADE_RANDOM) {
		v1 = random_shade();
		v2 = random_shade();
		v3 = random_shade();
	} else {
		v1 = v2 = v3 = perl_rand_after_srand(sum_chars(s, n));
	}
	switch (refine(pal, s, n)) {
	case PAL_HOT:
		return (struct rgb){ 205 + (int)(50 * v3), (int)(230 * v1),
		    (int)(55 * v2) };
	case PAL_MEM:
		return (struct rgb){ 0, 190 + (int)(50 * v2), (int)(210 * v1) };
	case PAL_IO:
		return (struct rgb){ 80 + (int)(60 * v1), 80 + (int)(60 * v1),
		    190 + (int)(55 * v2) };
	case PAL_RED:
		return (struct rgb){ 200 + (int)(55 * v1), 50 + (int)(80 * v1),
		    50 + (int)(80 * v1) };
	case PAL_GREEN:
		return (struct rgb){ 50 + (int)(60 * v1), 200 + (int)(55 * v1),
		    50 + (int)(60 * v1) };
	case PAL_BLUE:
		return (struct rgb){ 80 + (int)(60 * v1), 80 + (int)(60 * v1),
		    205 + (int)(50 * v1) };
	case PAL_YELLOW:
		return (struct rgb){ 175 + (int)(55 * v1), 175 + (int)(55 * v1),
		    50 + (int)(20 * v1) };
	case PAL_PURPLE:
		return (struct rgb){ 190 + (int)(65 * v1), 80 + (int)(60 * v1),
		    190 + (int)(65 * v1) };
	case PAL_AQUA:
		return (struct rgb){ 50 + (int)(60 * v1), 165 + (int)(55 * v1),
		    165 + (int)(55 * v1) };
	case PAL_ORANGE:
		return (struct rgb){ 190 + (int)(65 * v1), 90 + (int)(65 * v1), 0 };
	default:
		return (struct rgb){ 0, 0, 0 };
	}
}

struct rgb
color_delta(long double delta, long double maxdelta, int negate)
{
	struct rgb c = { 255, 255, 255 };
	long double v = negate ? -delta : delta;

	if (v > 0)
		c.g = c.b = (int)(210 * (maxdelta - v) / maxdelta);
	else if (v < 0)
		c.r = c.g = (int)(210 * (maxdelta + v) / maxdelta);
	return c;
}
