/*
 * folded: see folded.h for the parsing rule and why it is the Perl's, the
 * frame rule, and the aggregation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "err.h"
#include "folded.h"
#include "out.h"

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
	/* whole counts of up to 19 digits (all fit) summed as they are found */
	static const uint64_t p10[19] = { 1ull, 10ull, 100ull, 1000ull,
	    10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
	    1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	    10000000000000ull, 100000000000000ull, 1000000000000000ull,
	    10000000000000000ull, 100000000000000000ull,
	    1000000000000000000ull };
	size_t e = *n, i = e, dot = e;
	uint64_t w = 0;
	int r;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * The last eight bytes as a word: which of them are digits (a byte's
	 * nibbles tested, its top bit kept out of the addition so that no
	 * carry reaches the next byte), and the value of those at the end
	 * in three multiplications, the bytes before them zeros; a digit
	 * at a time was a tenth of a flame graph's run.  Longer counts go
	 * on below from the eighth digit.
	 */
	if (e >= 8) {
		const uint64_t f0 = 0xf0f0f0f0f0f0f0f0ull, d0 = 0x3030303030303030ull;
		uint64_t x, nd;
		unsigned k;

		memcpy(&x, s + e - 8, 8);
		nd = ((x & f0) ^ d0) |
		    ((((x & 0x7f7f7f7f7f7f7f7full) + 0x0606060606060606ull) & f0) ^ d0);
		k = nd ? (unsigned)__builtin_clzll(nd) / 8 : 8;
		if (k) {
			x = (x >> (8 * (8 - k)) << (8 * (8 - k)) &
			    0x0f0f0f0f0f0f0f0full) * 2561 >> 8;
			x = (x & 0x00ff00ff00ff00ffull) * 6553601 >> 16;
			w = (x & 0x0000ffff0000ffffull) * 42949672960001ull >> 32;
			i = e - k;
		}
	}
#endif
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') {
		if (e - i < 19)
			w += (uint64_t)(s[i - 1] - '0') * p10[e - i];
		i--;
	}
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
	if (dot == e && e - i <= 19) {
		/* as count_parse would, without reading the digits again */
		c->whole = w;
		c->frac = 0;
		r = 0;
	} else if ((r = count_parse(s + i, e - i, c)) < 0)
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
folded_parse(const char *s, size_t n, int two, struct folded *f)
{
	size_t len = n;
	int r;

	if (len && s[len - 1] == '\r')
		len--;
	if ((r = last_count(s, &len, &f->c, &f->count)) < 0)
		return r;
	f->cut = r;
	/*
	 * most stacks end in a name, not a second count (which ends in a
	 * digit, or in the '.' of "5."): no call then
	 */
	r = two && len && ((s[len - 1] >= '0' && s[len - 1] <= '9') ||
	    s[len - 1] == '.') ? last_count(s, &len, &f->c1, &f->count1) : -1;
	if (r == -2)
		return r;
	f->has2 = r >= 0;
	f->cut |= r == 1;
	f->stack = s;
	f->stacklen = len;
	return 0;
}

void
folded_range_error(const struct input *in, uint64_t line, const char *p,
    size_t n)
{
	char q[4 * 60 + 8];

	warn_at(in->name, line, "count " COUNT_RANGE_WHAT ": %s",
	    err_quote(q, p, n, 60));
}

static char
frame_byte(char c)
{
	return c == ';' ? ':' : c == '\n' || c == '\r' ? ' ' : c;
}

/*
 * The rule is idempotent, so a name is fixed in blocks that may overlap:
 * whole blocks, then the last block ending at the name's end; bytes one
 * by one only in a name shorter than eight.  Most names hold none of the
 * three bytes, so a block is tested and written only when it holds one.
 * Eight bytes are a word, with the has-zero-byte test for each of the
 * three bytes (it tells exactly whether the word holds one), a word that
 * does being fixed byte by byte; with SSE2 (every x86-64) sixteen are
 * replaced with masks.  Rejected: copying and fixing in one pass (the
 * copy then costs more than memcpy's, on short names most of all).
 */
static void
fix8(char *p)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t x, a, b, c;

	memcpy(&x, p, 8);
	a = x ^ (ones * ';');
	b = x ^ (ones * '\n');
	c = x ^ (ones * '\r');
	if ((((a - ones) & ~a) | ((b - ones) & ~b) | ((c - ones) & ~c)) &
	    (ones << 7))
		for (int k = 0; k < 8; k++)
			p[k] = frame_byte(p[k]);
}

#ifdef __SSE2__
static void
fix16(char *p)
{
	const __m128i semi = _mm_set1_epi8(';'), nl = _mm_set1_epi8('\n'),
	    cr = _mm_set1_epi8('\r'), colon = _mm_set1_epi8(':'),
	    blank = _mm_set1_epi8(' ');
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i ms = _mm_cmpeq_epi8(x, semi);
	__m128i ml = _mm_or_si128(_mm_cmpeq_epi8(x, nl), _mm_cmpeq_epi8(x, cr));
	__m128i m = _mm_or_si128(ms, ml);

	if (_mm_movemask_epi8(m) == 0)
		return;
	x = _mm_or_si128(_mm_andnot_si128(m, x), _mm_or_si128(
	    _mm_and_si128(ms, colon), _mm_and_si128(ml, blank)));
	_mm_storeu_si128((__m128i *)(void *)p, x);
}
#endif

/*
 * A name that ends as a count does (last_count's syntax: digits, with a
 * '.' and digits or not, after a blank) gets '_' for that blank, so that
 * no reader takes the number for a count before the count (folded(5)):
 * where that blank is, or SIZE_MAX.
 */
static size_t
tail_blank(const char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i > 0 && s[i - 1] == '.') {
		size_t dot = --i;

		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
		if (i == dot)
			return SIZE_MAX;
	} else if (i == n)
		return SIZE_MAX;
	return i > 0 && is_blank((unsigned char)s[i - 1]) ? i - 1 : SIZE_MAX;
}

static void
fix_tail(char *s, size_t n)
{
	size_t b = tail_blank(s, n);

	if (b != SIZE_MAX)
		s[b] = '_';
}

/*
 * The frames of s[0..n) that end as a count: whether there is one, or
 * with w (s, writable) each fixed in place.
 */
static int
tails(const char *s, size_t n, char *w)
{
	size_t i = 0;

	while (i <= n) {
		const char *semi = memchr(s + i, ';', n - i);
		size_t e = semi ? (size_t)(semi - s) : n;

		if (e > i && ((s[e - 1] >= '0' && s[e - 1] <= '9') ||
		    s[e - 1] == '.') && tail_blank(s + i, e - i) != SIZE_MAX) {
			if (w == NULL)
				return 1;
			fix_tail(w + i, e - i);
		}
		i = e + 1;
	}
	return 0;
}

int
folded_stack_ambiguous(const char *s, size_t n)
{
	return tails(s, n, NULL);
}

void
folded_stack_fix(char *s, size_t n)
{
	(void)tails(s, n, s);
}

void
folded_frame_fix(char *s, size_t n)
{
	/* most names end in neither a digit nor a '.': no call then */
	if (n && ((s[n - 1] >= '0' && s[n - 1] <= '9') || s[n - 1] == '.'))
		fix_tail(s, n);
#ifdef __SSE2__
	if (n >= 16) {
		for (size_t i = 0; i + 16 < n; i += 16)
			fix16(s + i);
		fix16(s + n - 16);
		return;
	}
#endif
	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8)
			fix8(s + i);
		fix8(s + n - 8);
		return;
	}
	for (size_t i = 0; i < n; i++)
		s[i] = frame_byte(s[i]);
}

void
folded_write(const char *s, size_t n, const struct count *c,
    const struct count *c1)
{
	out_write(s, n);
	out_char(' ');
	count_put(c);
	if (c1) {
		out_char(' ');
		count_put(c1);
	}
	out_char('\n');
}

void
folded_sum_init(struct folded_sum *a)
{
	memset(a, 0, sizeof *a);
	intern_init(&a->stacks);
}

void
folded_sum_free(struct folded_sum *a)
{
	intern_free(&a->stacks);
	for (int k = 0; k < FOLDED_COLS; k++)
		free(a->col[k]);
}

/* Stack s's id, its counts grown to hold it (zero when new). */
static uint32_t
sum_id(struct folded_sum *a, const char *s, size_t n)
{
	uint32_t id = intern_put(&a->stacks, s, n, NULL);

	if (id >= a->cap) {
		size_t c = a->cap ? a->cap * 2 : 1024;

		for (int k = 0; k < FOLDED_COLS; k++) {
			a->col[k] = xrealloc(a->col[k], c * sizeof *a->col[k]);
			memset(a->col[k] + a->cap, 0, (c - a->cap) * sizeof *a->col[k]);
		}
		a->cap = c;
	}
	return id;
}

int
folded_sum_add(struct folded_sum *a, const char *s, size_t n, int col,
    const struct count *c)
{
	uint32_t id = sum_id(a, s, n);	/* first: it can move col[] */

	return count_add(&a->col[col][id], c);
}

void
folded_sum_set(struct folded_sum *a, const char *s, size_t n, int col,
    const struct count *c)
{
	uint32_t id = sum_id(a, s, n);

	a->col[col][id] = *c;
}

uint32_t *
folded_sum_sorted(const struct folded_sum *a)
{
	size_t n = folded_sum_n(a);
	uint32_t *ids = xmalloc((n + 1) * sizeof *ids);

	for (size_t i = 0; i < n; i++)
		ids[i] = (uint32_t)i;
	intern_sort(&a->stacks, ids, n);
	return ids;
}

void
folded_sum_write(const struct folded_sum *a)
{
	size_t n = folded_sum_n(a), len;
	uint32_t *ids = folded_sum_sorted(a);

	for (size_t i = 0; i < n; i++) {
		const char *s = folded_sum_stack(a, ids[i], &len);

		folded_write(s, len, folded_sum_count(a, 0, ids[i]), NULL);
	}
	free(ids);
}

int
folded_unit(const char *p, size_t n, char *unit)
{
	static const char *const known[] = { "ns", "bytes", "objects" };
	size_t k = sizeof FOLDED_UNIT_LINE - 1;

	if (n > k && p[n - 1] == '\r')
		n--;
	if (n <= k || memcmp(p, FOLDED_UNIT_LINE, k) != 0)
		return 0;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (n - k == strlen(known[i]) && memcmp(p + k, known[i], n - k) == 0) {
			memcpy(unit, known[i], n - k + 1);
			return 1;
		}
	return 0;
}
